/**
 * `run --repeats K` against the mock OpenAI server: every question is asked once per repeat (repeat
 * 1 reusing a plain run's replies), the repeats land in repeat-<k>/ with repeats.json beside them, and
 * running the same command again asks nothing.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { executeRepeatedRun } from "../../src/core/repeats.js";
import { executeRun, type RunCommandOptions } from "../../src/core/session.js";
import { ROOT } from "../helpers/cli.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";

let mock: MockServer;
before(async () => {
  mock = await startMockServer();
});
after(() => mock.close());

/** examples/egopath-mini, task a2, the first 3 questions. */
const options = (out: string): RunCommandOptions => ({
  benchmark: "egopath", data: path.join(ROOT, "examples/egopath-mini"), tasks: ["a2"], limit: 3, out,
  bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, model: "openai:gpt-test", promptSource: "release", control: "none", seed: 1,
  flags: { base_url: `${mock.url}/v1`, max_attempts: 1 }, retryErrors: false, concurrency: 1,
  env: { OPENAI_API_KEY: "sk-repeats-test" },
});

test("three repeats of 3 questions: 3 new requests per repeat after the plain run, repeats.json, nothing asked on resume", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-repeats-"));
  // A plain run first, storing into the store the repeats will use: repeat 1 must reuse its 3 replies.
  await executeRun({ ...options(path.join(out, "repeat-1")), storeFile: path.join(out, "responses.sqlite") });
  const afterPlain = mock.stats.requests;
  assert.equal(afterPlain, 3);

  const { runs, summary } = await executeRepeatedRun(options(out), 3);
  assert.equal(mock.stats.requests - afterPlain, 6, "repeats 2 and 3 ask 3 questions each; repeat 1 is stored");
  assert.deepEqual(runs.map((r) => r.results.filter((x) => x.response?.cached).length), [3, 0, 0]);
  assert.deepEqual(summary.indices, [1, 2, 3]);
  assert.equal(summary.complete, true);
  for (const k of [1, 2, 3]) {
    const scores = JSON.parse(readFileSync(path.join(out, `repeat-${k}`, "scores.json"), "utf8"));
    assert.deepEqual(scores.repeat, { index: k, of: 3, group: path.resolve(out) });
    assert.equal(scores.name, `openai:gpt-test · repeat ${k}/3`);
    assert.equal(scores.n_scored, 3);
  }
  const written = JSON.parse(readFileSync(path.join(out, "repeats.json"), "utf8"));
  assert.deepEqual(written.folders, ["repeat-1", "repeat-2", "repeat-3"]);
  assert.ok(existsSync(path.join(out, "report.md")));
  assert.match(readFileSync(path.join(out, "report.md"), "utf8"), /### Mean over 3 repeats: openai:gpt-test/);

  const before = mock.stats.requests;
  await executeRepeatedRun(options(out), 3);
  assert.equal(mock.stats.requests, before, "a second run of the same command is answered from the store");
});

test("stored predictions cannot be repeated", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-repeats-"));
  await assert.rejects(() => executeRepeatedRun({ ...options(out), model: "replay:x.jsonl" }, 2), /stored predictions \(replay:\) cannot be repeated/);
});
