/**
 * Fuzz suite over the simulator bridge protocol (issue 25, item 6; src/sim/bridge/). Bridge servers
 * in front of the built-in simulator on a copy of examples/vcn-mini run in worker processes
 * (lib/worker.ts, role "bridge"; two at once, each case on one); this file sends them the cases of
 * lib/bridge-cases.ts: every field
 * of every endpoint's valid body set to each extreme of its kind, scene ids that climb out of the
 * data root, bodies that are not JSON / too deep / too large / not UTF-8 / of another media type,
 * wrong methods and routes, a foreign Host header, and issue 25's start_position [1e16, 0, 1e16].
 *
 * A case passes when each of its requests is answered within the limit (5 s) with a 2xx JSON body or a 4xx
 * JSON error {error: {code, message}} (a 5xx is the simulator failing on input it should have
 * refused), GET /info still answers 200 afterwards, the server opened nothing outside its data root
 * (the worker's read guard, and the inotify watch on the canary) and no answer holds the canary's
 * content. A request with no answer in time is a hang: the worker is killed and a spare takes over.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, test } from "node:test";
import { bridgeCases, validBody, type BridgeCase, type BridgeRequest } from "./lib/bridge-cases.js";
import type { Violation } from "./lib/guard.js";
import { WorkerSupply, type FuzzWorker } from "./lib/pool.js";
import { REPO } from "./lib/seeds.js";
import { canaryEvents, LIMIT_MS, logResult, prepareSuite, recordSummary, SECRET, selected, summaryLine, WORKERS, type Suite } from "./lib/suite.js";
import type { CaseResult } from "./lib/types.js";

/**
 * A request's time limit: the suite's, at most 5 s. With 32 x 32 views and render false, every
 * request the server should answer takes milliseconds; a stalled one is a hang at 5 s as at 10 s.
 */
const REQUEST_LIMIT_MS = Math.min(LIMIT_MS, 5000);

type Answer = { kind: "answer"; status: number; text: string } | { kind: "timeout" } | { kind: "client-error"; message: string };

/** One HTTP request to the bridge, given up after `limitMs`. */
function send(base: URL, request: BridgeRequest, limitMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      if (value === null) delete headers[name];
      else headers[name] = value;
    }
    const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, "utf8");
    if (body && !headers["Content-Length"]) headers["Content-Length"] = String(body.length);
    let settled = false;
    const finish = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(answer);
    };
    const req = http.request({ host: base.hostname, port: base.port, method: request.method, path: request.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => finish({ kind: "answer", status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (error) => finish({ kind: "client-error", message: error.message }));
    });
    const timer = setTimeout(() => finish({ kind: "timeout" }), limitMs);
    req.on("error", (error) => finish({ kind: "client-error", message: error.message }));
    req.end(body);
  });
}

/** Why an answer breaks the protocol's promise, or null. */
function answerProblem(answer: Answer, what: string): string | null {
  if (answer.kind === "timeout") return `hang: ${what} got no answer within ${REQUEST_LIMIT_MS} ms`;
  if (answer.kind === "client-error") return null; // the client could not send it (e.g. a declared length it did not send): nothing to judge
  if (answer.text.includes(SECRET)) return `${what}: the answer holds the canary's content`;
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    return `${what}: HTTP ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200) || "(empty)"}`;
  }
  if (answer.status >= 200 && answer.status < 300) return null;
  const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (typeof error?.code !== "string" || typeof error.message !== "string") return `${what}: HTTP ${answer.status} without {error: {code, message}}: ${answer.text.slice(0, 200)}`;
  if (answer.status >= 400 && answer.status < 500) return null;
  return `${what}: HTTP ${answer.status} ${error.code}: ${error.message.slice(0, 300)}`;
}

interface Bridge {
  worker: FuzzWorker;
  url: URL;
  episode: Record<string, unknown>;
}

let suite: Suite;
let cases: BridgeCase[];
const results: CaseResult[] = [];
const failures = new Map<string, string[]>();
let wallMs = 0;

async function bridgeFrom(supply: WorkerSupply): Promise<Bridge> {
  const worker = await supply.take();
  const info = (await worker.started) as { url: string; episode: Record<string, unknown> };
  return { worker, url: new URL(info.url), episode: info.episode };
}

/** One case: its requests (after a valid reset when it needs one), then /info, then what the server reached. */
async function runCase(bridge: Bridge, fuzzCase: BridgeCase): Promise<{ problems: string[]; hang: boolean }> {
  const problems: string[] = [];
  if (fuzzCase.resetFirst) {
    const reset = await send(bridge.url, { method: "POST", path: "/reset", body: JSON.stringify(validBody("/reset", bridge.episode)) }, REQUEST_LIMIT_MS);
    if (reset.kind !== "answer" || reset.status !== 200) return { problems: [`the valid reset before the case failed: ${JSON.stringify(reset).slice(0, 300)}`], hang: reset.kind === "timeout" };
  }
  const request = fuzzCase.request(bridge.episode);
  for (let k = 0; k < (fuzzCase.repeat ?? 1); k++) {
    const answer = await send(bridge.url, request, REQUEST_LIMIT_MS);
    const problem = answerProblem(answer, `${request.method} ${request.path.slice(0, 60)}`);
    if (problem) problems.push(problem);
    if (answer.kind === "timeout") return { problems, hang: true };
  }
  const info = await send(bridge.url, { method: "GET", path: "/info" }, REQUEST_LIMIT_MS);
  if (info.kind !== "answer" || info.status !== 200) {
    problems.push(`GET /info afterwards: ${info.kind === "answer" ? `HTTP ${info.status}` : info.kind}`);
    if (info.kind === "timeout") return { problems, hang: true };
  }
  const drained = await bridge.worker.ask({ type: "drain" }, REQUEST_LIMIT_MS);
  if (drained?.type !== "reply") return { problems: [...problems, "the server's worker did not answer after the case"], hang: true };
  for (const v of (drained.value as { violations: Violation[] }).violations) problems.push(`read outside the root: ${v.op} ${v.given} -> ${v.real} (${v.why})`);
  return { problems, hang: false };
}

/**
 * Run `list` on `lanes` bridge servers at once (each case is self-contained); a server that hangs
 * is killed and a ready spare takes its lane.
 */
async function runLanes(list: BridgeCase[], supply: WorkerSupply, lanes: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    let bridge = await bridgeFrom(supply);
    while (next < list.length) {
      const fuzzCase = list[next++]!;
      const start = Date.now();
      const t0 = performance.now();
      const outcome = await runCase(bridge, fuzzCase);
      const ms = Math.round(performance.now() - t0);
      const span: [number, number] = [start, Date.now()];
      const result: CaseResult = outcome.hang ? { id: fuzzCase.id, ms, span, status: "hang" } : { id: fuzzCase.id, ms, span, status: "done", report: emptyReport(fuzzCase.id, ms) };
      results.push(result);
      logResult(result);
      if (outcome.problems.length > 0) failures.set(fuzzCase.id, outcome.problems);
      if (outcome.hang) {
        bridge.worker.kill();
        bridge = await bridgeFrom(supply);
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

before(async () => {
  suite = await prepareSuite("bridge");
  const dataRoot = path.join(suite.dir, "vcn-mini");
  cpSync(path.join(REPO, "examples/vcn-mini"), dataRoot, { recursive: true });
  cases = selected(bridgeCases(suite.seed));
  const began = performance.now();
  // Hangs come in runs (each coordinate of a position): a spare per lane keeps them from queueing on one.
  const supply = new WorkerSupply({ role: "bridge", canary: suite.canary, dataRoot, scratch: path.join(suite.dir, "scratch") }, WORKERS);
  try {
    // /close ends a session: those cases go last, on one server.
    const closing = cases.filter((c) => c.id.startsWith("/close"));
    await runLanes(cases.filter((c) => !closing.includes(c)), supply, WORKERS);
    await runLanes(closing, supply, 1);
  } finally {
    supply.close();
  }
  wallMs = performance.now() - began;
});

after(() => suite?.close());

function emptyReport(id: string, ms: number) {
  return { id, ms, stages: {}, problems: [], problemCount: 0, malformed: [], errors: [], itemErrors: [], violations: [], leaks: [], opened: 0 };
}

test("every bridge request is answered within the limit with JSON (2xx, or a 4xx error), /info still answers, nothing outside the data root is read", () => {
  const lines = [...failures].map(([id, why]) => `- ${id}\n    ${why.join("\n    ")}`);
  assert.equal(lines.length, 0, `${lines.length} failing case(s) (seed ${suite.seed}; run one again with SPATIALPROBE_FUZZ_ONLY='<id>'):\n${lines.join("\n")}`);
});

test("the canary folder outside the data root was never opened (inotify)", (t) => {
  if (suite.watch.unavailable) return t.skip(`no inotify watch: ${suite.watch.unavailable}`);
  assert.deepEqual(canaryEvents(suite.watch), []);
});

test("summary", (t) => {
  t.diagnostic(summaryLine("bridge", results, wallMs));
  t.diagnostic(recordSummary("bridge", results, wallMs, failures.size));
});
