/**
 * Serves any Environment over the bridge protocol (protocol.ts, docs/bridge-protocol.md): one
 * session per server, one environment call at a time (a request arriving while another is being
 * served is answered 409 busy). The server checks every request (size, media type, JSON,
 * fields, the session's state) before the environment sees it, and answers misuse with a 4xx
 * error and simulator failures with a 500, always as {error: {code, message}}.
 *
 * POST /close closes the environment and ends the session (`sessionClosed` resolves); close()
 * only stops the HTTP server and leaves the environment to its owner.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import { clip } from "../../models/secrets.js";
import { EnvironmentError, type Environment } from "../types.js";
import {
  ERROR_CODES,
  MAX_REQUEST_BYTES,
  PROTOCOL,
  describeIssues,
  isNavAction,
  observationToWire,
  resetRequestSchema,
  shortestPathRequestSchema,
  stepRequestSchema,
  observeRequestSchema,
  type ErrorCode,
} from "./protocol.js";

export interface BridgeServerOptions {
  /** Address to listen on (default 127.0.0.1, loopback only). */
  host?: string;
  /** Port (default 0: any free port; the chosen one is in the result). */
  port?: number;
  environment: Environment;
  /** Largest request body read (default MAX_REQUEST_BYTES, 1 MiB). */
  maxRequestBytes?: number;
}

export interface BridgeServer {
  /** Base URL, e.g. "http://127.0.0.1:41234/". */
  url: string;
  port: number;
  /** Stops listening and ends open connections (the environment is not closed). */
  close(): Promise<void>;
  /** Resolves once a client's POST /close has closed the environment. */
  sessionClosed: Promise<void>;
}

/** A request the server answers with an error reply. */
class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const ENDPOINTS: Readonly<Record<string, "GET" | "POST">> = { "/info": "GET", "/reset": "POST", "/step": "POST", "/observe": "POST", "/shortest_path": "POST", "/close": "POST" };
const MESSAGE_CHARS = 1000;

function sendJson(res: ServerResponse, status: number, value: unknown, extraHeaders: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...extraHeaders,
  });
  res.end(body);
}

function sendError(res: ServerResponse, code: ErrorCode, message: string, extraHeaders: Record<string, string> = {}): void {
  sendJson(res, ERROR_CODES[code].status, { error: { code, message: clip(message, MESSAGE_CHARS) } }, extraHeaders);
}

/** An error reply written to the socket itself, for requests the HTTP parser refused. */
function rawErrorReply(code: ErrorCode, message: string): string {
  const body = JSON.stringify({ error: { code, message } });
  const status = ERROR_CODES[code].status;
  const reason = status === 431 ? "Request Header Fields Too Large" : "Bad Request";
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

const LOOPBACK_BINDS = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * Host headers a loopback server answers: a web page reaching it through a rebound DNS name is
 * refused. A server bound to another address accepts any (its users chose to expose it).
 */
function hostAllowed(req: IncomingMessage, bindHost: string, port: number): boolean {
  const hosts = req.headersDistinct.host ?? [];
  if (hosts.length !== 1) return false;
  if (!LOOPBACK_BINDS.has(bindHost) && !bindHost.startsWith("127.")) return true;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${bindHost}:${port}`].includes(hosts[0]!.toLowerCase());
}

function isJsonContentType(header: string | undefined): boolean {
  return (header ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

/**
 * The request body, or a Refusal past `limit` bytes (declared or sent). The rest of a body over
 * the limit is read and dropped (not destroyed, so that the refusal can still be sent).
 */
function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > limit) return Promise.reject(new Refusal("body_too_large", `the body has ${declared} bytes; the limit is ${limit}`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limit) return void chunks.push(chunk);
      req.off("data", onData).off("end", onEnd);
      req.resume();
      reject(new Refusal("body_too_large", `the body is over ${limit} bytes`));
    };
    const onEnd = () => resolve(Buffer.concat(chunks, total));
    req.on("data", onData).on("end", onEnd).on("error", reject);
  });
}

function parseJsonObject(body: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch (error) {
    throw new Refusal("malformed_json", `the body is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Refusal("malformed_json", "the body is not a JSON object");
  return value as Record<string, unknown>;
}

function parseWith<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Refusal("invalid_request", describeIssues(parsed.error));
  return parsed.data;
}

type SessionState = "idle" | "running" | "over" | "closed";

/** The session: its state machine around the environment, one call at a time. */
function bridgeSession(environment: Environment, onClosed: () => void) {
  let state: SessionState = "idle";
  let busy = false;

  const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    if (busy) throw new Refusal("busy", "another request is being served; this server runs one environment call at a time");
    busy = true;
    try {
      return await work();
    } finally {
      busy = false;
    }
  };
  const requireOpen = () => {
    if (state === "closed") throw new Refusal("closed", "the session was closed");
  };
  const requireEpisode = () => {
    requireOpen();
    if (state === "idle") throw new Refusal("no_episode", "no episode: POST /reset first");
  };
  /** An environment's own refusal is the client's misuse; anything else is the simulator failing, and loses the episode. */
  const environmentFailure = (error: unknown, endsEpisode: boolean): Refusal => {
    if (error instanceof EnvironmentError) return new Refusal("rejected", error.message);
    if (endsEpisode) state = "idle";
    return new Refusal("simulator_error", error instanceof Error ? error.message : String(error));
  };

  return {
    async reset(body: unknown) {
      const { episode, render = true } = parseWith(resetRequestSchema, body);
      return exclusive(async () => {
        requireOpen();
        try {
          const observation = await environment.reset(episode, { render });
          state = "running";
          return { observation: observationToWire(observation) };
        } catch (error) {
          state = "idle";
          throw environmentFailure(error, true);
        }
      });
    },
    async step(body: unknown) {
      const { action, render = true } = parseWith(stepRequestSchema, body);
      if (!isNavAction(action)) throw new Refusal("unknown_action", `unknown action ${JSON.stringify(action)}; expected FORWARD, TURN_LEFT, TURN_RIGHT or STOP`);
      return exclusive(async () => {
        requireEpisode();
        if (state === "over") throw new Refusal("episode_over", "the episode has ended; POST /reset to start another");
        try {
          const result = await environment.step(action, { render });
          if (result.done) state = "over";
          return { observation: observationToWire(result.observation), done: result.done, end: result.end ?? null };
        } catch (error) {
          throw environmentFailure(error, true);
        }
      });
    },
    async observe(body: unknown) {
      const { render = true } = parseWith(observeRequestSchema, body);
      return exclusive(async () => {
        requireEpisode();
        try {
          return { observation: observationToWire(await environment.observe({ render })) };
        } catch (error) {
          throw environmentFailure(error, false);
        }
      });
    },
    async shortestPath(body: unknown) {
      const { from, targets } = parseWith(shortestPathRequestSchema, body);
      return exclusive(async () => {
        requireEpisode();
        try {
          return { path: await environment.shortestPath(from, targets) };
        } catch (error) {
          throw environmentFailure(error, false);
        }
      });
    },
    async close() {
      return exclusive(async () => {
        if (state === "closed") return { closed: true };
        state = "closed";
        try {
          await environment.close();
        } catch (error) {
          throw new Refusal("simulator_error", `closing the environment failed: ${error instanceof Error ? error.message : String(error)}`);
        } finally {
          onClosed();
        }
        return { closed: true };
      });
    },
  };
}

export async function startBridgeServer(options: BridgeServerOptions): Promise<BridgeServer> {
  const host = options.host ?? "127.0.0.1";
  const limit = options.maxRequestBytes ?? MAX_REQUEST_BYTES;
  const environment = options.environment;
  let markClosed!: () => void;
  const sessionClosed = new Promise<void>((resolve) => (markClosed = resolve));
  const session = bridgeSession(environment, () => markClosed());

  const post: Record<string, (body: unknown) => Promise<unknown>> = {
    "/reset": session.reset,
    "/step": session.step,
    "/observe": session.observe,
    "/shortest_path": session.shortestPath,
    "/close": session.close,
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, port: number): Promise<void> => {
    if (!hostAllowed(req, host, port)) return sendError(res, "forbidden_host", "the request needs one Host header naming this server");
    const route = new URL(req.url ?? "/", "http://bridge").pathname;
    const method = ENDPOINTS[route];
    if (!method) return sendError(res, "not_found", `no endpoint ${route}; the endpoints are ${Object.keys(ENDPOINTS).join(", ")}`);
    if (req.method !== method) return sendError(res, "method_not_allowed", `${route} takes ${method}`, { Allow: method });
    if (method === "GET") return sendJson(res, 200, { protocol: PROTOCOL, info: environment.info });
    if (!isJsonContentType(req.headers["content-type"])) return sendError(res, "unsupported_media_type", "POST bodies must be Content-Type: application/json");
    const body = parseJsonObject(await readRequestBody(req, limit));
    sendJson(res, 200, await post[route]!(body));
  };

  const server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    handle(req, res, port).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (error instanceof Refusal) {
        // A body left unread (too large) is dropped, and the connection closes after the reply.
        const unread = !req.readableEnded;
        if (unread) req.resume();
        return sendError(res, error.code, error.message, unread ? { Connection: "close" } : {});
      }
      sendError(res, "simulator_error", `bridge server error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  // A request Node cannot read (headers over its 16 KiB limit, broken HTTP) never reaches the
  // handler: it is answered here, in the protocol's JSON error form, and the connection closed.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (error as { bytesParsed?: number }).bytesParsed === undefined) return void socket.destroy();
    const code: ErrorCode = error.code === "HPE_HEADER_OVERFLOW" ? "headers_too_large" : "bad_request";
    const message = code === "headers_too_large" ? "the request line and headers are over 16 KiB" : "the request is not readable HTTP/1.1";
    socket.end(rawErrorReply(code, message));
  });
  // A client that starts a request and stalls is dropped (requests are small).
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    sessionClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A request still being served gets a moment to finish, then its connection is cut.
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}
