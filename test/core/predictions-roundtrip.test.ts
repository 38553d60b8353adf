/**
 * A run's predictions.jsonl is in its benchmark's official predictions format, so `score` on it gives
 * back the run's own per-item scores: EgoPathBench and EgoTL-Bench rows carry `output`, EPIC-Bench's
 * and PathEval's `response` (their official raw-response files). EPIC's count-only variant is scored
 * as count-only when `score --prompt count-only` says so.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { executeRun, executeScore } from "../../src/core/session.js";
import { ROOT } from "../helpers/cli.js";
import { getBenchmark } from "../../src/registry.js";

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-roundtrip-"));
const itemScores = (dir: string) =>
  readFileSync(path.join(dir, "items.jsonl"), "utf8").trim().split("\n").map((line) => {
    const r = JSON.parse(line);
    return [r.id, JSON.stringify(r.detail?.score ?? r.detail?.correct ?? r.detail?.stage ?? r.detail)];
  });

const cases: Array<{ benchmark: string; data: string; model: string; prompt: string; tasks?: string[]; field: string }> = [
  { benchmark: "egopath", data: "examples/egopath-mini", model: "random:1", prompt: "release", tasks: ["a2"], field: "output" },
  { benchmark: "epic", data: "examples/epic-mini", model: "random:1", prompt: "mask-overlay", tasks: ["TargetLocalization"], field: "response" },
  { benchmark: "epic", data: "examples/epic-mini", model: "oracle", prompt: "count-only", tasks: ["TargetLocalization", "ContactRelationship"], field: "response" },
  { benchmark: "egotl", data: "examples/egotl-mini", model: "random:1", prompt: "templates", field: "output" },
  { benchmark: "vcn", data: "examples/vcn-mini", model: "random:1", prompt: "plain", field: "output" },
];

test("patheval random:1 (plain) on a generated set: score on the run's predictions.jsonl gives the run's per-item scores", async () => {
  const dir = tmp();
  const data = path.join(dir, "set");
  await getBenchmark("patheval").generate!({ outDir: data, seed: 7, count: 2, extra: { runs: "6", pairs: "2", "test-per-scenario": "2" }, log: () => {} });
  await roundTrip({ benchmark: "patheval", data, model: "random:1", prompt: "plain", field: "response" }, dir);
});

async function roundTrip(c: (typeof cases)[number], dir: string): Promise<void> {
  const common = { benchmark: c.benchmark, data: path.isAbsolute(c.data) ? c.data : path.join(ROOT, c.data), ...(c.tasks ? { tasks: c.tasks } : {}), bootstrapResamples: 0, bootstrapSeed: 1, quiet: true };
  const run = await executeRun({ ...common, out: path.join(dir, "run"), model: c.model, promptSource: c.prompt, control: "none", seed: 1, flags: {}, retryErrors: false });
  const first = JSON.parse(readFileSync(path.join(dir, "run", "predictions.jsonl"), "utf8").split("\n")[0]!);
  assert.ok(c.field in first, `predictions rows carry "${c.field}"`);
  const scored = await executeScore({ ...common, out: path.join(dir, "score"), predictions: [path.join(dir, "run", "predictions.jsonl")], promptSource: c.prompt });
  assert.equal(scored.scores.n_scored, run.scores.n_scored);
  assert.deepEqual(itemScores(path.join(dir, "score")), itemScores(path.join(dir, "run")));
  assert.equal(scored.scores.score, run.scores.score);
}

for (const c of cases) {
  test(`${c.benchmark} ${c.model} (${c.prompt}): score on the run's predictions.jsonl gives the run's per-item scores`, () => roundTrip(c, tmp()));
}
