/**
 * Adaptive concurrency (AIMD) for one model's requests: every attempt holds a slot; the number of
 * slots is halved on a 429, lowered to what the rate-limit headers say remains, and raised by one
 * after a run of successes, between 1 and the cap (the run's --concurrency). A failure carrying
 * Retry-After (a 503 asking for a pause, say) counts as a 429. The run's workers are the upper
 * bound; this decides how many of them send at once. No timers: the limit moves only on events.
 */
import { createHash } from "node:crypto";
import { systemClock, type Clock } from "./ratelimit.js";

export const ADAPTIVE_DEFAULTS = { raiseAfter: 10, maxChangesKept: 100 } as const;

export interface AdaptiveOptions {
  /** Most slots (default: unbounded until setCap; the run sets its --concurrency). */
  cap?: number;
  /** Successes in a row before one more slot (default 10). */
  raiseAfter?: number;
  clock?: Clock;
}

export type ChangeReason = "429" | "headers" | "success" | "cap";

export interface ConcurrencyChange {
  /** Milliseconds since the limiter was made. */
  at_ms: number;
  from: number;
  to: number;
  reason: ChangeReason;
}

/** How an attempt ended, as far as the limit is concerned. */
export interface SlotOutcome {
  /** "rate-limited": a 429, or any failure with Retry-After. */
  status: "ok" | "rate-limited" | "failed";
  /** Requests the rate-limit headers say can still be sent now (rateLimitHeadroom). */
  headroom?: number;
}

export interface Slot {
  release(outcome: SlotOutcome): void;
}

/** The concurrency block of scores.json. */
export interface ConcurrencySummary {
  cap: number | null;
  min: number;
  max: number;
  final: number;
  /** Every change counted; `changes` keeps the first 100. */
  n_changes: number;
  changes: ConcurrencyChange[];
  /** Attempts that came back 429 (or failed with Retry-After). */
  rate_limited: number;
}

interface Waiter {
  resolve: (slot: Slot) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class AdaptiveConcurrency {
  private cap: number;
  private limitValue: number;
  private readonly raiseAfter: number;
  private readonly clock: Clock;
  private readonly startedAt: number;
  private inFlight = 0;
  private peakInFlight = 0;
  private streak = 0;
  /** Bumped at every decrease: a 429 from an attempt sent before the last decrease lowers nothing more. */
  private epoch = 0;
  private readonly waiters: Waiter[] = [];
  private readonly changeLog: ConcurrencyChange[] = [];
  private nChanges = 0;
  private rateLimited = 0;
  private minSeen: number;
  private maxSeen: number;

  constructor(options: AdaptiveOptions = {}) {
    this.cap = validCap(options.cap ?? Infinity);
    this.limitValue = this.cap;
    this.raiseAfter = Math.max(1, Math.floor(options.raiseAfter ?? ADAPTIVE_DEFAULTS.raiseAfter));
    this.clock = options.clock ?? systemClock;
    this.startedAt = this.clock.now();
    this.minSeen = this.maxSeen = this.limitValue;
  }

  /** The current number of slots (Infinity before a cap is set and nothing lowered it). */
  get limit(): number {
    return this.limitValue;
  }

  get active(): number {
    return this.inFlight;
  }

  /**
   * The run's --concurrency as the cap. A limiter never lowered starts there; one already lowered
   * keeps its lower limit (another run in the same process sharing the model learns from it).
   */
  setCap(cap: number): void {
    this.cap = validCap(cap);
    if (this.nChanges === 0) {
      this.limitValue = this.minSeen = this.maxSeen = this.cap;
    } else if (this.limitValue > this.cap) this.change(this.cap, "cap");
    this.dispatch();
  }

  /** Wait for a slot; an abort while waiting rejects with the signal's reason. */
  acquire(signal?: AbortSignal): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, ...(signal && { signal }) };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  summary(): ConcurrencySummary {
    const shown = (n: number) => (Number.isFinite(n) ? n : this.peakInFlight);
    return {
      cap: Number.isFinite(this.cap) ? this.cap : null,
      min: shown(this.minSeen),
      max: shown(this.maxSeen),
      final: shown(this.limitValue),
      n_changes: this.nChanges,
      changes: this.changeLog.map((c) => ({ ...c })),
      rate_limited: this.rateLimited,
    };
  }

  private dispatch(): void {
    while (this.waiters.length > 0 && this.inFlight < this.limitValue) {
      const waiter = this.waiters.shift()!;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
      this.inFlight++;
      this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
      waiter.resolve(this.slot(this.epoch));
    }
  }

  private slot(grantedEpoch: number): Slot {
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.learn(outcome, grantedEpoch);
        this.dispatch();
      },
    };
  }

  private learn(outcome: SlotOutcome, grantedEpoch: number): void {
    if (outcome.status === "rate-limited") {
      this.rateLimited++;
      this.streak = 0;
      // One halving per burst: attempts sent before the last decrease saw the old limit.
      if (grantedEpoch === this.epoch) this.decrease(Math.floor(this.base() / 2), "429");
      return;
    }
    if (outcome.status === "failed") {
      this.streak = 0;
      return;
    }
    if (outcome.headroom !== undefined && outcome.headroom < this.limitValue) {
      this.streak = 0;
      this.decrease(outcome.headroom, "headers");
      return;
    }
    this.streak++;
    if (this.streak < this.raiseAfter) return;
    this.streak = 0;
    const ceiling = Number.isFinite(this.cap) ? this.cap : this.peakInFlight;
    if (this.limitValue < ceiling && (outcome.headroom === undefined || outcome.headroom > this.limitValue)) this.change(this.limitValue + 1, "success");
  }

  /** The limit a decrease starts from: the limit, or while unbounded the most attempts seen at once. */
  private base(): number {
    return Number.isFinite(this.limitValue) ? this.limitValue : Math.max(1, this.peakInFlight);
  }

  private decrease(to: number, reason: ChangeReason): void {
    this.epoch++;
    this.change(Math.max(1, Math.min(this.base(), to)), reason);
  }

  private change(to: number, reason: ChangeReason): void {
    const from = this.limitValue;
    if (to === from) return;
    this.limitValue = to;
    this.nChanges++;
    this.minSeen = Math.min(this.minSeen, to);
    this.maxSeen = Math.max(this.maxSeen, to);
    if (this.changeLog.length < ADAPTIVE_DEFAULTS.maxChangesKept)
      this.changeLog.push({ at_ms: Math.round(this.clock.now() - this.startedAt), from: Number.isFinite(from) ? from : this.peakInFlight, to, reason });
  }
}

const shared = new Map<string, AdaptiveConcurrency>();

/**
 * One limiter per provider, API key, endpoint list and model name in this process, made on first
 * use: the runs of one command (repeats, say) share what the first learned. The API key is
 * hashed into the map key, never kept.
 */
export function sharedConcurrency(parts: { provider: string; apiKey?: string; endpoints: readonly string[]; model: string }, options: AdaptiveOptions = {}): AdaptiveConcurrency {
  const keyHash = parts.apiKey ? createHash("sha256").update(parts.apiKey).digest("hex").slice(0, 16) : "";
  const id = JSON.stringify([parts.provider, keyHash, parts.endpoints, parts.model]);
  let limiter = shared.get(id);
  if (!limiter) shared.set(id, (limiter = new AdaptiveConcurrency(options)));
  return limiter;
}

function validCap(cap: number): number {
  if (cap === Infinity) return cap;
  if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`the concurrency cap must be a whole number of at least 1, got ${cap}`);
  return cap;
}

type HeaderSource = { get(name: string): string | null };

/** A non-negative whole number from a header, or undefined. */
function count(headers: HeaderSource, name: string): number | undefined {
  const raw = headers.get(name)?.trim();
  if (!raw || raw.length > 20 || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/**
 * How many more requests the rate-limit headers of a reply leave room for now: the requests
 * remaining, and the tokens remaining divided by what this reply used (OpenAI
 * x-ratelimit-remaining-requests / -tokens; Anthropic anthropic-ratelimit-requests-remaining,
 * -tokens-remaining, -input-tokens-remaining, -output-tokens-remaining). The smallest of those
 * that can be computed; undefined without such headers.
 */
export function rateLimitHeadroom(headers: HeaderSource, used: { inputTokens?: number; outputTokens?: number } = {}): number | undefined {
  const input = used.inputTokens ?? 0;
  const output = used.outputTokens ?? 0;
  const perRequest = (remaining: number | undefined, tokens: number) => (remaining === undefined ? undefined : tokens > 0 ? Math.floor(remaining / tokens) : undefined);
  const candidates = [
    count(headers, "x-ratelimit-remaining-requests"),
    count(headers, "anthropic-ratelimit-requests-remaining"),
    perRequest(count(headers, "x-ratelimit-remaining-tokens"), input + output),
    perRequest(count(headers, "anthropic-ratelimit-tokens-remaining"), input + output),
    perRequest(count(headers, "anthropic-ratelimit-input-tokens-remaining"), input),
    perRequest(count(headers, "anthropic-ratelimit-output-tokens-remaining"), output),
  ].filter((n): n is number => n !== undefined);
  return candidates.length > 0 ? Math.min(...candidates) : undefined;
}
