/**
 * `spatialprobe suite` (issue 30 item 12): every model on every benchmark in one command, one
 * folder per run, one response store shared by all (the same command again asks nothing), and one
 * report.md whose leaderboard has a row per model and a column per benchmark; a model a benchmark
 * does not know is named in the report and the exit status, and the other runs are made.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { runCli } from "../helpers/cli.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";

let mock: MockServer;
before(async () => {
  mock = await startMockServer({});
});
after(() => mock.close());

const KEY = "sk-suite-test-0003";
const suite = (out: string, models: string, benchmarks: string) =>
  runCli(["suite", "--models", models, "--benchmarks", benchmarks, "--limit", "2", "--base-url", `${mock.url}/v1`, "--concurrency", "2", "--out", out, "--quiet"], { OPENAI_API_KEY: KEY });

test("three models on two benchmarks: a folder per run, one shared store, one leaderboard; again, nothing is asked", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-suite-"));
  const before = mock.stats.requests;
  const first = await suite(out, "oracle,random:1,openai:mock-vlm", "egopath,epic");
  assert.equal(first.code, 0, first.stderr);
  for (const benchmark of ["egopath", "epic"]) {
    for (const folder of ["oracle", "random_1", "openai_mock-vlm"]) assert.ok(existsSync(path.join(out, benchmark, folder, "scores.json")), `${benchmark}/${folder}`);
  }
  // One request per item the provider model was asked (--limit 2: two per task), nothing for the built-ins.
  const lines = (benchmark: string) => readFileSync(path.join(out, benchmark, "openai_mock-vlm", "items.jsonl"), "utf8").trim().split("\n").length;
  assert.equal(lines("egopath"), 10);
  assert.equal(mock.stats.requests - before, lines("egopath") + lines("epic"));
  assert.ok(existsSync(path.join(out, "responses.sqlite")));
  const report = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(report, /^\| Run \| EgoPathBench \(EgoPath Score\) \| EPIC-Bench \(Overall\) \|$/m);
  for (const label of ["oracle", "random:1", "openai:mock-vlm"]) assert.match(report, new RegExp(`^\\| ${label} \\(limit 2\\) \\| [^|]+ \\| [^|]+ \\|$`, "m"), label);
  assert.match(first.stdout, /6 of 6 runs made/);

  // Again, with a model EPIC-Bench does not know: that run is named as not made (exit 2), the
  // others are made, and the provider model's replies all come from the shared store.
  const sent = mock.stats.requests;
  const again = await suite(out, "oracle,random:1,openai:mock-vlm,direct-to-goal", "egopath,epic");
  assert.equal(again.code, 2, again.stderr);
  assert.equal(mock.stats.requests, sent, "every reply came from the shared store");
  assert.match(again.stderr, /^epic × direct-to-goal: not run: unknown model "direct-to-goal"/m);
  assert.match(again.stdout, /7 of 8 runs made/);
  const rerun = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(rerun, /^- epic × direct-to-goal: not run: unknown /m);
  assert.match(rerun, /^\| direct-to-goal \(limit 2\) \| [\d.]+ \|  \|$/m);
});
