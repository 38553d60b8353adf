/** --max-reply-bytes and --max-retry-wait (and their config keys) through the built CLI, against the mock. */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { runCli, ROOT } from "../helpers/cli.js";
import { startMockServer, type Fault, type MockServer } from "../helpers/mock-server.js";

const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
const KEY = "sk-limits-test-0042";

const REPLY = `{"display_ids":[1]}${"x".repeat(200)}`; // 219 bytes
/** Per model name: the first distinct request gets a 429 with this Retry-After. */
const RETRY_AFTER: Record<string, string> = { "cap-a": "300", "cap-b": "1" };
const first = new Map<string, string>();

let mock: MockServer;
before(async () => {
  mock = await startMockServer({
    reply: () => REPLY,
    faults: (req): Fault | undefined => {
      if (!first.has(req.model)) first.set(req.model, req.key);
      return first.get(req.model) === req.key ? { type: "status", status: 429, retryAfter: RETRY_AFTER[req.model]! } : undefined;
    },
  });
});
after(() => mock.close());

const cli = (args: string[]) => runCli(args, { OPENAI_API_KEY: KEY });

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-limits-"));
const run = (model: string, out: string, ...extra: string[]) =>
  cli(["run", "egopath", "--data", EXAMPLE, "--limit", "2", "--model", `openai:${model}`, "--out", out, "--base-url", `${mock.url}/v1`, "--bootstrap", "0", "--quiet", ...extra]);
const items = (out: string) => readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));

test("a reply cap from the flag or the config: replies cut and marked, the count printed; a long Retry-After is an error", async () => {
  const [outA, outB] = [tmp(), tmp()];
  const config = path.join(outB, "run.yaml");
  writeFileSync(config, "max_reply_bytes: 100\nmax_retry_wait: 0.5\n");
  const [a, b] = await Promise.all([run("cap-a", outA, "--max-reply-bytes", "100"), run("cap-b", outB, "--config", config)]);
  // One request of the ten ends in an error: the run is incomplete (exit 3, with its reason).
  for (const r of [a, b]) {
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stderr.trim(), "incomplete: 1 of 10 items ended in an error; exit 3 (--allow-incomplete to exit 0)");
  }

  for (const [out, stdout, asked, limit] of [
    [outA, a.stdout, "300 s", "120 s"],
    [outB, b.stdout, "1 s", "0.5 s"],
  ] as const) {
    const lines = items(out);
    assert.equal(lines.length, 10); // 2 questions of each of the 5 tasks
    const scored = lines.filter((l) => l.status === "scored");
    assert.equal(scored.length, 9);
    for (const l of scored) {
      assert.equal(l.reply, REPLY.slice(0, 100));
      assert.deepEqual(l.response.truncated, { bytes: 219 });
    }
    const [failed] = lines.filter((l) => l.status === "error");
    assert.deepEqual(failed.response.error, {
      kind: "http",
      status: 429,
      message: `server asked to retry after ${asked}, over the ${limit} limit (--max-retry-wait); HTTP 429: mock error 429 for credential Bearer [redacted]`,
    });
    assert.equal(failed.response.attempts, 1);
    assert.equal(failed.response.truncated, undefined);
    assert.match(stdout, /^9 replies were longer than the reply cap \(--max-reply-bytes\) and cut to it; items\.jsonl marks them with response\.truncated\.$/m);
    assert.match(stdout, /^1 requests ended in errors/m);
  }
});

test("no truncation line when no reply was cut; bad limits are refused", async () => {
  const out = tmp();
  const ok = await run("cap-a", out, "--max-reply-bytes", "1000", "--tasks", "a1", "--allow-incomplete");
  assert.equal(ok.code, 0, ok.stderr);
  assert.ok(items(out).every((l) => l.response.truncated === undefined));
  assert.doesNotMatch(ok.stdout, /reply cap/);

  const zero = await run("cap-a", tmp(), "--max-retry-wait", "0");
  assert.notEqual(zero.code, 0);
  assert.match(zero.stderr, /--max-retry-wait.*must be a number above 0 and at most 86400 seconds/);
  const config = path.join(tmp(), "bad.yaml");
  writeFileSync(config, "max_reply_bytes: 0\n");
  const bad = await run("cap-a", tmp(), "--config", config);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /max_reply_bytes/);
});
