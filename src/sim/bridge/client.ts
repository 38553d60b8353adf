/**
 * An Environment on the far side of the bridge protocol (protocol.ts, docs/bridge-protocol.md):
 * connectBridge reads GET /info, refuses another major protocol version, and returns an
 * Environment whose calls are HTTP requests. Every reply is validated (zod, then the protocol's
 * rules: step counts, view order and size, picture bytes), every read is capped (observation
 * replies by a size computed from the pictures, maxObservationReplyBytes) and every call has a
 * timeout, so a broken or hostile server gives a clear error, never a crash or a hang.
 *
 * Errors: the server's 4xx answers (misuse: step before reset, after the end, unknown action,
 * malformed body) are BridgeRejection, an EnvironmentError; everything else (5xx simulator
 * failures, timeouts, network trouble, replies that break the protocol) is BridgeFailure.
 */
import type { z } from "zod";
import { readBody } from "../../models/http.js";
import { clip } from "../../models/secrets.js";
import { EnvironmentError, type EnvEpisode, type EnvInfo, type Environment, type GeodesicPath, type NavAction, type Observation, type ObserveOptions, type StepResult, type Vec3 } from "../types.js";
import {
  MAX_ERROR_REPLY_BYTES,
  MAX_INFO_REPLY_BYTES,
  MAX_PATH_REPLY_BYTES,
  PROTOCOL,
  PROTOCOL_MAJOR,
  WireFormatError,
  checkViewOrder,
  closeReplySchema,
  describeIssues,
  errorReplySchema,
  infoReplySchema,
  maxObservationReplyBytes,
  observationFromWire,
  protocolMajor,
  resetReplySchema,
  observeReplySchema,
  shortestPathReplySchema,
  stepReplySchema,
  type WireObservation,
} from "./protocol.js";

export interface BridgeClientOptions {
  /** Per call, covering connecting, waiting and reading the reply (default 60 s). */
  timeoutMs?: number;
  /** Cap on an observation reply's bytes (default maxObservationReplyBytes(info), sized from the pictures). */
  maxReplyBytes?: number;
}

export const DEFAULT_BRIDGE_TIMEOUT_MS = 60_000;

/** The server refused a request as misuse (a 4xx reply, or a call the client itself knows to be out of turn). */
export class BridgeRejection extends EnvironmentError {
  constructor(
    message: string,
    /** The protocol's error code (e.g. "episode_over"), or "http_<status>" when the server gave none. */
    readonly code: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "BridgeRejection";
  }
}

export type BridgeFailureKind = "timeout" | "network" | "bad_reply" | "reply_too_large" | "protocol" | "server";

/** The bridge failed: the simulator (5xx), the connection, or a reply that breaks the protocol. */
export class BridgeFailure extends Error {
  constructor(
    readonly kind: BridgeFailureKind,
    message: string,
    /** For kind "server": the protocol's error code (e.g. "simulator_error") and HTTP status. */
    readonly code?: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "BridgeFailure";
  }
}

const SHOWN_CHARS = 500;

/** Untrusted text for an error message: control characters as spaces, cut to SHOWN_CHARS. */
function shown(text: string): string {
  return clip(text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim(), SHOWN_CHARS);
}

/** The base URL with a trailing slash, so that endpoints resolve under it. */
function bridgeBase(url: string): URL {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new BridgeFailure("network", `bridge URL ${JSON.stringify(shown(url))} is not a URL`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") throw new BridgeFailure("network", `bridge URL ${base.href} is not http(s)`);
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  base.search = "";
  base.hash = "";
  return base;
}

/** The error a non-2xx reply stands for: 4xx misuse, anything else the server failing. */
function replyError(what: string, status: number, body: string): BridgeRejection | BridgeFailure {
  let code = `http_${status}`;
  let message = shown(body) || "(no message)";
  try {
    const parsed = errorReplySchema.safeParse(JSON.parse(body));
    if (parsed.success) {
      code = shown(parsed.data.error.code);
      message = shown(parsed.data.error.message);
    }
  } catch {
    /* not JSON: the raw text stands as the message */
  }
  const text = `${what}: ${status} ${code}: ${message}`;
  return status >= 400 && status < 500 ? new BridgeRejection(text, code, status) : new BridgeFailure("server", text, code, status);
}

/** One bridge server: JSON requests with a timeout and a cap on the bytes read. */
class BridgeLink {
  constructor(
    readonly base: URL,
    readonly timeoutMs: number,
  ) {}

  /** The reply's JSON, validated by `schema`. */
  async call<S extends z.ZodType>(method: "GET" | "POST", endpoint: string, body: unknown, schema: S, maxBytes: number): Promise<z.infer<S>> {
    return this.validate(`${method} /${endpoint}`, await this.request(method, endpoint, body, maxBytes), schema);
  }

  validate<S extends z.ZodType>(what: string, json: unknown, schema: S): z.infer<S> {
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new BridgeFailure("bad_reply", `bridge ${what} (${this.base.host}): the reply breaks the protocol: ${describeIssues(parsed.error)}`);
    return parsed.data;
  }

  async request(method: "GET" | "POST", endpoint: string, body: unknown, maxBytes: number): Promise<unknown> {
    const what = `bridge ${method} /${endpoint} (${this.base.host})`;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      const res = await fetch(new URL(endpoint, this.base), {
        method,
        headers: { accept: "application/json", ...(method === "POST" && { "content-type": "application/json" }) },
        ...(method === "POST" && { body: JSON.stringify(body) }),
        redirect: "error",
        signal: controller.signal,
      });
      if (!res.ok) {
        const { bytes } = await readBody(res, MAX_ERROR_REPLY_BYTES);
        throw replyError(what, res.status, bytes.toString("utf8"));
      }
      // A reply announced as too big is not read at all; any other stops being read at the cap.
      const declared = Number(res.headers.get("content-length") ?? Number.NaN);
      if (declared > maxBytes) await res.body?.cancel().catch(() => undefined);
      const { bytes, complete } = declared > maxBytes ? { bytes: Buffer.alloc(0), complete: false } : await readBody(res, maxBytes);
      if (!complete) throw new BridgeFailure("reply_too_large", `${what}: the reply is over ${maxBytes} bytes; stopped reading`);
      try {
        return JSON.parse(bytes.toString("utf8"));
      } catch {
        throw new BridgeFailure("bad_reply", `${what}: the reply is not JSON: ${shown(bytes.subarray(0, 200).toString("utf8"))}`);
      }
    } catch (error) {
      if (error instanceof BridgeRejection || error instanceof BridgeFailure) throw error;
      if (timedOut) throw new BridgeFailure("timeout", `${what}: no complete reply within ${this.timeoutMs} ms`);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new BridgeFailure("network", `${what}: ${shown(String(detail))}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Where the client believes the episode is; "unknown" after a step that failed midway. */
type EpisodeState = { kind: "none" } | { kind: "running"; actions: number } | { kind: "over" } | { kind: "unknown"; why: string } | { kind: "closed" };

class BridgeEnvironment implements Environment {
  private episode: EpisodeState = { kind: "none" };

  constructor(
    private readonly link: BridgeLink,
    readonly info: EnvInfo,
    private readonly maxObservationBytes: number,
  ) {}

  private observation(what: string, wire: WireObservation, render: boolean, step: number): Observation {
    try {
      return observationFromWire(wire, { info: this.info, render, step });
    } catch (error) {
      if (error instanceof WireFormatError) throw new BridgeFailure("bad_reply", `bridge ${what} (${this.link.base.host}): the reply breaks the protocol: ${error.message}`);
      throw error;
    }
  }

  private requireOpen(): void {
    if (this.episode.kind === "closed") throw new BridgeRejection("the bridge environment was closed", "closed");
  }

  async reset(episode: EnvEpisode, options?: ObserveOptions): Promise<Observation> {
    this.requireOpen();
    const render = options?.render ?? true;
    // Only the four fields the protocol defines: a released episode's goals can be large.
    const sent = { episode_id: episode.episode_id, scene_id: episode.scene_id, start_position: episode.start_position, start_rotation: episode.start_rotation };
    this.episode = { kind: "unknown", why: "the last reset did not complete" };
    const reply = await this.link.call("POST", "reset", { episode: sent, render }, resetReplySchema, this.maxObservationBytes);
    const observation = this.observation("POST /reset", reply.observation, render, 0);
    this.episode = { kind: "running", actions: 0 };
    return observation;
  }

  async step(action: NavAction, options?: ObserveOptions): Promise<StepResult> {
    this.requireOpen();
    const state = this.episode;
    if (state.kind === "none") throw new BridgeRejection("step before reset", "no_episode");
    if (state.kind === "over") throw new BridgeRejection("step after the episode ended; reset first", "episode_over");
    if (state.kind === "unknown") throw new BridgeRejection(`the episode's state is unknown (${state.why}); reset first`, "no_episode");
    if (state.kind !== "running") throw new BridgeRejection("the bridge environment was closed", "closed");
    const render = options?.render ?? true;
    let reply: z.infer<typeof stepReplySchema>;
    try {
      reply = await this.link.call("POST", "step", { action, render }, stepReplySchema, this.maxObservationBytes);
    } catch (error) {
      // A refusal leaves the server's episode as it was; a failure may have moved the agent.
      if (!(error instanceof BridgeRejection)) this.episode = { kind: "unknown", why: `a step failed: ${(error as Error).message}` };
      throw error;
    }
    const t = state.actions + 1;
    this.episode = { kind: "unknown", why: "the last step's reply broke the protocol" };
    const observation = this.observation("POST /step", reply.observation, render, t);
    const end = reply.end ?? undefined;
    const broken = checkEnding(action, t, this.info.max_actions, reply.done, end);
    if (broken) throw new BridgeFailure("bad_reply", `bridge POST /step (${this.link.base.host}): the reply breaks the protocol: ${broken}`);
    this.episode = reply.done ? { kind: "over" } : { kind: "running", actions: t };
    return { observation, done: reply.done, ...(end && { end }) };
  }

  async observe(options?: ObserveOptions): Promise<Observation> {
    this.requireOpen();
    const state = this.episode;
    if (state.kind === "none") throw new BridgeRejection("observe before reset", "no_episode");
    if (state.kind === "unknown") throw new BridgeRejection(`the episode's state is unknown (${state.why}); reset first`, "no_episode");
    if (state.kind !== "running" && state.kind !== "over") throw new BridgeRejection("the bridge environment was closed", "closed");
    const render = options?.render ?? true;
    const reply = await this.link.call("POST", "observe", { render }, observeReplySchema, this.maxObservationBytes);
    // The step count the client knows: the actions taken (an ended episode: whatever the reply says, checked as a whole number).
    return this.observation("POST /observe", reply.observation, render, state.kind === "running" ? state.actions : reply.observation.step);
  }

  async shortestPath(from: Vec3, targets: readonly Vec3[]): Promise<GeodesicPath | null> {
    this.requireOpen();
    if (targets.length === 0) return null;
    const reply = await this.link.call("POST", "shortest_path", { from, targets }, shortestPathReplySchema, MAX_PATH_REPLY_BYTES);
    if (reply.path && reply.path.target >= targets.length) {
      throw new BridgeFailure("bad_reply", `bridge POST /shortest_path (${this.link.base.host}): target ${reply.path.target} of ${targets.length} targets`);
    }
    return reply.path;
  }

  async close(): Promise<void> {
    if (this.episode.kind === "closed") return;
    this.episode = { kind: "closed" };
    await this.link.call("POST", "close", {}, closeReplySchema, MAX_INFO_REPLY_BYTES);
  }
}

/** What a step reply's done/end must be (spec: STOP ends with "stop"; the max_actions-th action ends the episode). */
export function checkEnding(action: NavAction, t: number, maxActions: number, done: boolean, end: "stop" | "action-limit" | undefined): string | null {
  if (done !== (end !== undefined)) return done ? "done without an end" : `an end (${end}) while not done`;
  if (action === "STOP" && end !== "stop") return `STOP answered with ${done ? `end ${end}` : "done false"}`;
  if (action !== "STOP" && end === "stop") return `end "stop" after ${action}`;
  if (t >= maxActions && !done) return `action ${t} of at most ${maxActions} did not end the episode`;
  if (t < maxActions && end === "action-limit") return `end "action-limit" after ${t} of ${maxActions} actions`;
  return null;
}

/** Connects to a bridge server: reads GET /info, checks the protocol version and returns the Environment. */
export async function connectBridge(url: string, options: BridgeClientOptions = {}): Promise<Environment> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_BRIDGE_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
  const link = new BridgeLink(bridgeBase(url), timeoutMs);
  const json = await link.request("GET", "info", undefined, MAX_INFO_REPLY_BYTES);
  // The version first: another major version may shape the rest differently.
  const protocol = typeof json === "object" && json !== null ? (json as { protocol?: unknown }).protocol : undefined;
  const major = typeof protocol === "string" ? protocolMajor(protocol) : null;
  if (major !== PROTOCOL_MAJOR) {
    const named = typeof protocol === "string" ? JSON.stringify(shown(protocol)) : "no protocol field";
    throw new BridgeFailure("protocol", `bridge GET /info (${link.base.host}): the server speaks ${named}; this client speaks ${PROTOCOL} (major version ${PROTOCOL_MAJOR})`);
  }
  const { info } = link.validate("GET /info", json, infoReplySchema);
  const order = checkViewOrder(info.views);
  if (order) throw new BridgeFailure("bad_reply", `bridge GET /info (${link.base.host}): ${order}`);
  return new BridgeEnvironment(link, info, options.maxReplyBytes ?? maxObservationReplyBytes(info));
}
