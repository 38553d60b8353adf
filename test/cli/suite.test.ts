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
  const first = await suite(out, "oracle,random:1,openai:mock-vlm", "egopath,vcn");
  assert.equal(first.code, 0, first.stderr);
  for (const benchmark of ["egopath", "vcn"]) {
    for (const folder of ["oracle", "random_1", "openai_mock-vlm"]) assert.ok(existsSync(path.join(out, benchmark, folder, "scores.json")), `${benchmark}/${folder}`);
  }
  // --limit 2: EgoPathBench's five tasks and VCN-Bench's five instruction types, two questions each, asked of the one provider model.
  assert.equal(mock.stats.requests - before, 20);
  assert.ok(existsSync(path.join(out, "responses.sqlite")));
  const report = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(report, /^\| Run \| EgoPathBench \(EgoPath Score\) \| VCN-Bench \(Avg\. SR, mean of types\) \|$/m);
  for (const label of ["oracle", "random:1", "openai:mock-vlm"]) assert.match(report, new RegExp(`^\\| ${label} \\(limit 2\\) \\| [^|]+ \\| [^|]+ \\|$`, "m"), label);
  assert.match(first.stdout, /6 of 6 runs made/);

  const sent = mock.stats.requests;
  const again = await suite(out, "oracle,random:1,openai:mock-vlm", "egopath,vcn");
  assert.equal(again.code, 0, again.stderr);
  assert.equal(mock.stats.requests, sent, "every reply came from the shared store");
});

test("a model one benchmark does not know: that run is named as not made, the others are, exit 2", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-suite-"));
  const result = await suite(out, "oracle,direct-to-goal", "egopath,vcn");
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^vcn × direct-to-goal: not run: unknown /m);
  assert.match(result.stdout, /3 of 4 runs made/);
  const report = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(report, /^- vcn × direct-to-goal: not run: unknown /m);
  assert.match(report, /^\| direct-to-goal \(limit 2\) \| [\d.]+ \|  \|$/m);
});
