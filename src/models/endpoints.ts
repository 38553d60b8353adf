/**
 * Several base URLs serving one model (a vLLM fleet): each attempt goes to the healthy endpoint
 * with the fewest requests outstanding (ties: round robin). An endpoint that fails (connection
 * refused or reset, timeout, 5xx) is taken out for a cool-down that doubles with each consecutive
 * failure up to a cap, then tried again. With one endpoint nothing is taken out: the retry policy
 * alone decides, as before lists existed.
 */
import type { ProviderError } from "./errors.js";
import { systemClock, type Clock } from "./ratelimit.js";

export const ENDPOINT_DEFAULTS = { coolDownBaseMs: 2_000, coolDownCapMs: 60_000 } as const;

export interface EndpointPoolOptions {
  /** Cool-down after the first consecutive failure (default 2 000 ms); doubles per further failure. */
  coolDownBaseMs?: number;
  /** Longest cool-down (default 60 000 ms). */
  coolDownCapMs?: number;
  clock?: Clock;
}

/** One endpoint's counters, as scores.json records them. */
export interface EndpointStats {
  url: string;
  /** HTTP requests sent to it (every attempt counts). */
  requests: number;
  /** Attempts it answered with 2xx. */
  ok: number;
  /** Attempts that failed as an endpoint failure (network, timeout, 5xx). */
  failures: number;
  /** Times it was taken out. */
  cool_downs: number;
}

export interface Endpoint {
  /** Index in the configured list. */
  readonly index: number;
  /** The base URL requests go to. */
  readonly url: string;
  /** The base URL as printed and stored (keys scrubbed). */
  readonly shown: string;
}

interface EndpointState extends Endpoint {
  outstanding: number;
  consecutiveFailures: number;
  /** Clock time before which it is out. */
  outUntil: number;
  stats: EndpointStats;
}

/** "aborted": the caller gave up; it says nothing about the endpoint. */
export type AttemptOutcome = "ok" | "endpoint-failure" | "answered" | "aborted";

/** Failures that say the endpoint itself is down or broken, rather than the request or a rate limit. */
export function isEndpointFailure(error: ProviderError): boolean {
  if (error.kind === "network" || error.kind === "timeout") return true;
  return error.kind === "http" && error.status !== undefined && error.status >= 500;
}

/** Cool-down after `consecutive` failures in a row: base * 2^(consecutive-1), at most the cap. */
export function coolDownMs(consecutive: number, base: number = ENDPOINT_DEFAULTS.coolDownBaseMs, cap: number = ENDPOINT_DEFAULTS.coolDownCapMs): number {
  return Math.min(cap, base * 2 ** Math.max(0, consecutive - 1));
}

export class EndpointPool {
  private readonly states: EndpointState[];
  private readonly clock: Clock;
  private readonly baseMs: number;
  private readonly capMs: number;
  /** Where the round robin among ties starts next. */
  private cursor = 0;

  constructor(endpoints: ReadonlyArray<{ url: string; shown: string }>, options: EndpointPoolOptions = {}) {
    if (endpoints.length === 0) throw new RangeError("an endpoint pool needs at least one endpoint");
    this.states = endpoints.map((e, index) => ({
      index,
      url: e.url,
      shown: e.shown,
      outstanding: 0,
      consecutiveFailures: 0,
      outUntil: -Infinity,
      stats: { url: e.shown, requests: 0, ok: 0, failures: 0, cool_downs: 0 },
    }));
    this.clock = options.clock ?? systemClock;
    this.baseMs = options.coolDownBaseMs ?? ENDPOINT_DEFAULTS.coolDownBaseMs;
    this.capMs = options.coolDownCapMs ?? ENDPOINT_DEFAULTS.coolDownCapMs;
  }

  get size(): number {
    return this.states.length;
  }

  /** Whether some endpoint is in service now. */
  hasHealthy(): boolean {
    const now = this.clock.now();
    return this.states.some((s) => s.outUntil <= now);
  }

  /**
   * The endpoint for the next attempt (least outstanding among those in service, ties in round
   * robin order), or how long until the first one comes back when all are out.
   */
  choose(): { endpoint: Endpoint } | { waitMs: number } {
    const now = this.clock.now();
    const n = this.states.length;
    let best: EndpointState | undefined;
    for (let step = 0; step < n; step++) {
      const s = this.states[(this.cursor + step) % n]!;
      if (s.outUntil > now) continue;
      if (!best || s.outstanding < best.outstanding) best = s;
    }
    if (!best) return { waitMs: Math.max(0, Math.min(...this.states.map((s) => s.outUntil)) - now) };
    this.cursor = (best.index + 1) % n;
    return { endpoint: best };
  }

  /**
   * choose(), and the endpoint chosen counted as sent to at once, so that concurrent callers see
   * each other's choices.
   */
  take(): { endpoint: Endpoint } | { waitMs: number } {
    const choice = this.choose();
    if ("endpoint" in choice) this.begin(choice.endpoint);
    return choice;
  }

  /** An attempt is sent to `endpoint`. */
  begin(endpoint: Endpoint): void {
    const s = this.states[endpoint.index]!;
    s.outstanding++;
    s.stats.requests++;
  }

  /** The attempt sent to `endpoint` ended; an endpoint failure takes it out (lists only). */
  end(endpoint: Endpoint, outcome: AttemptOutcome): void {
    const s = this.states[endpoint.index]!;
    s.outstanding = Math.max(0, s.outstanding - 1);
    if (outcome === "aborted") return;
    if (outcome === "ok") s.stats.ok++;
    if (outcome !== "endpoint-failure") {
      s.consecutiveFailures = 0;
      return;
    }
    s.stats.failures++;
    s.consecutiveFailures++;
    if (this.states.length < 2) return;
    s.outUntil = this.clock.now() + coolDownMs(s.consecutiveFailures, this.baseMs, this.capMs);
    s.stats.cool_downs++;
  }

  stats(): EndpointStats[] {
    return this.states.map((s) => ({ ...s.stats }));
  }
}
