/**
 * Issue 9's sweep: providers that echo our credential headers (and the URL) back in an error
 * message, a plain-text error body or the reply text, cut at every length so the key straddles
 * the cut at every offset. Through the built CLI, for all three providers: no 8-character piece of
 * a key may appear in any file of the run folder (live files of an interrupted run included), in
 * the HTML report, or on stdout/stderr.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { runCli, ROOT, type CliResult } from "../helpers/cli.js";
import { filesUnder } from "../helpers/files.js";
import { echoText, startMockServer, type EchoTarget, type Fault, type MockServer } from "../helpers/mock-server.js";

const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
const TASKS = ["a1", "b1", "a2", "b2", "c"] as const;

/**
 * examples/egopath-mini holds 53 questions (a1 7, b1 7, a2 14, b2 14, c 11), fewer than the sweep
 * needs. This copy adds, after each task's rows, a second copy of each row (vqa and gt) under the id
 * `<id>_again` whose user_prompt ends with " Answer again.", so every copy is a request of its own
 * (another body hash): a1 14, b1 14, a2 28, b2 28, c 22.
 */
function widenedExample(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-leak-data-"));
  cpSync(EXAMPLE, root, { recursive: true });
  for (const task of TASKS) {
    for (const kind of ["vqa", "gt"]) {
      const file = path.join(root, `benchmark_evalfix/benchmark/${kind}/${kind}_next_${task}.jsonl`);
      const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      const again = rows.map((r) => ({ ...r, question_id: `${r["question_id"]}_again`, ...(kind === "vqa" ? { user_prompt: `${r["user_prompt"]} Answer again.` } : {}) }));
      writeFileSync(file, [...rows, ...again].map((r) => JSON.stringify(r)).join("\n") + "\n");
    }
  }
  return root;
}
let DATA = "";

const PROVIDERS = ["openai", "anthropic", "gemini"] as const;
type Provider = (typeof PROVIDERS)[number];
const KEYS: Record<Provider, string> = { openai: "sk-proj-AbCd1234", anthropic: "sk-ant-XyZ-98765", gemini: "AIzaSyLeak-24680" };
const ENV = { OPENAI_API_KEY: KEYS.openai, ANTHROPIC_API_KEY: KEYS.anthropic, GEMINI_API_KEY: KEYS.gemini };
const TARGETS: EchoTarget[] = ["error-message", "error-text", "reply"];
/** --limit 11 asks 11 x 5 = 55 questions of the widened copy: enough for 3 targets x 17 offsets (0..16) of a 16-character key. */
const LIMIT = "11";
const ASKED = 55;

/** Every 8-character piece of any key found in `text`, computed without the code under test. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const key of Object.values(KEYS)) for (let i = 0; i + 8 <= key.length; i++) if (text.includes(key.slice(i, i + 8))) found.push(key.slice(i, i + 8));
  return found;
}

/** Each distinct request (by body hash) gets the next (target, offset) pair of its provider. */
const order = new Map<string, number>();
const seen: Record<Provider, number> = { openai: 0, anthropic: 0, gemini: 0 };
const covered: Record<Provider, Set<string>> = { openai: new Set(), anthropic: new Set(), gemini: new Set() };
/** While set, the provider's first request hangs, so the run can be interrupted with its live files kept. */
const hang: Record<Provider, boolean> = { openai: true, anthropic: true, gemini: true };

function fault(req: Parameters<typeof echoText>[0] & { provider: Provider; key: string }): Fault {
  const id = `${req.provider}|${req.key}`;
  if (!order.has(id)) order.set(id, seen[req.provider]++);
  const i = order.get(id)!;
  if (i === 0 && hang[req.provider]) return { type: "slow", delayMs: 60_000 };
  const into = TARGETS[i % TARGETS.length]!;
  const offset = Math.floor(i / TARGETS.length);
  const key = KEYS[req.provider];
  const at = echoText(req).indexOf(key);
  assert.ok(at > 0, "the echo carries the key");
  covered[req.provider].add(`${into}@${Math.min(offset, key.length)}`);
  return offset <= key.length ? { type: "echo", into, cut: at + offset } : { type: "echo", into };
}

let mock: MockServer;
before(async () => {
  mock = await startMockServer({ faults: (req) => fault(req as never) });
  DATA = widenedExample();
});
after(() => mock.close());


const cli = (args: string[], onSpawn?: (child: ChildProcess) => void): Promise<CliResult> => runCli(args, ENV, onSpawn);

const runArgs = (p: Provider, out: string) => [
  "run", "egopath", "--data", DATA, "--limit", LIMIT, "--model", `${p}:echo-vlm`, "--out", out,
  "--base-url", p === "openai" ? `${mock.url}/v1` : mock.url,
  "--max-attempts", "1", "--timeout-ms", "60000", "--concurrency", "8", "--bootstrap", "0",
];

function lineCount(file: string): number {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
}

/** Run until every question but the hanging one has its line in live.jsonl, then Ctrl-C. */
function interruptedRun(p: Provider, out: string): Promise<CliResult> {
  return cli(runArgs(p, out), (child) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (lineCount(path.join(out, "live.jsonl")) >= ASKED - 1 || Date.now() - started > 30_000) {
        clearInterval(poll);
        child.kill("SIGINT");
      }
    }, 25);
    child.once("close", () => clearInterval(poll));
  });
}

test("echoed keys, cut at every offset, reach no output file, report or terminal", async () => {
  const outs = Object.fromEntries(PROVIDERS.map((p) => [p, mkdtempSync(path.join(os.tmpdir(), `spatialprobe-leak-${p}-`))])) as Record<Provider, string>;

  // 1. Interrupted runs: the live files stay, with every answer but the hanging one.
  const first = await Promise.all(PROVIDERS.map((p) => interruptedRun(p, outs[p])));
  for (const [i, p] of PROVIDERS.entries()) {
    assert.equal(first[i]!.code, 130, `${p}: ${first[i]!.stderr}`);
    const files = filesUnder(outs[p]);
    assert.ok(files.has("live.json") && files.has("live.jsonl"), `${p}: ${[...files.keys()]}`);
    assert.equal(lineCount(path.join(outs[p], "live.jsonl")), ASKED - 1);
    for (const [name, text] of files) assert.deepEqual(leaks(text), [], `${p} (interrupted) ${name}`);
    assert.deepEqual(leaks(first[i]!.stdout + first[i]!.stderr), [], `${p} (interrupted) terminal`);
  }

  // 2. The same command again: stored replies are reused, the hanging question is asked, outputs written.
  for (const p of PROVIDERS) hang[p] = false;
  const second = await Promise.all(PROVIDERS.map((p) => cli(runArgs(p, outs[p]))));
  for (const [i, p] of PROVIDERS.entries()) {
    // Some echoes are error replies, so the run is incomplete: exit 3 after its reason line.
    assert.equal(second[i]!.code, 3, `${p}: ${second[i]!.stderr}`);
    assert.equal(seen[p], ASKED, `${p}: each question asked once across both runs`);
    assert.equal(covered[p].size, TARGETS.length * (KEYS[p].length + 1), `${p}: every target at every offset 0..${KEYS[p].length}`);
    const files = filesUnder(outs[p]);
    for (const name of ["scores.json", "items.jsonl", "predictions.jsonl", "report.md", "responses.sqlite"]) assert.ok(files.has(name), `${p}: ${name}`);
    for (const [name, text] of files) assert.deepEqual(leaks(text), [], `${p} ${name}`);
    assert.deepEqual(leaks(second[i]!.stdout + second[i]!.stderr), [], `${p} terminal`);

    // The echoes did arrive: redacted replies and redacted error messages are in items.jsonl.
    const items = files.get("items.jsonl")!.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(items.length, ASKED);
    assert.ok(items.some((r) => r.status === "scored" && String(r.reply).includes("[redacted]")), p);
    assert.ok(items.some((r) => r.status === "error" && String(r.response.error.message).includes("[redacted]")), p);
    assert.ok(items.some((r) => r.status === "error" && /^HTTP 400: /.test(r.response.error.message)), p);
    const errors = items.filter((r) => r.status === "error").length;
    assert.ok(second[i]!.stderr.includes(`incomplete: ${errors} of ${ASKED} items ended in errors; exit 3 (--allow-incomplete to exit 0)`), p);
  }
  for (const p of PROVIDERS) assert.ok([...mock.stats.credentials].some((c) => c.includes(KEYS[p])), `${p} sent its key`);

  // 3. The HTML report of all three runs.
  const html = path.join(outs.openai, "report.html");
  const report = await cli(["report", outs.openai, outs.anthropic, outs.gemini, "--format", "html", "--out", html]);
  assert.equal(report.code, 0, report.stderr);
  assert.deepEqual(leaks(readFileSync(html).toString("latin1")), [], "report.html");
  assert.deepEqual(leaks(report.stdout + report.stderr), [], "report terminal");
});
