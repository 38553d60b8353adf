import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { loadEpic } from "../../../src/benchmarks/epic/load.js";
import { scoreSample } from "../../../src/benchmarks/epic/score.js";
import type { CoordMode } from "../../../src/benchmarks/epic/coords.js";
import { executeScore } from "../../../src/core/session.js";

/**
 * Golden conformance for EPIC-Bench: expected values come from the official evaluation code
 * (rxc205/EPIC-Bench-Eval) run on data we made; see test/fixtures/epic/README.md.
 */
const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/epic");
const readJsonl = (file: string) => readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12;

for (const set of ["conformance", "holdout"]) {
  const root = path.join(FIXTURES, set);
  const expectedDir = path.join(root, "expected");
  if (!existsSync(expectedDir)) continue;
  test(`${set}: every sample's score and components from the official formatted records`, () => {
    const { items, problems } = loadEpic(root);
    assert.deepEqual(problems, []);
    const byId = new Map(items.map((i) => [i.id, i]));
    let checked = 0;
    for (const file of readdirSync(expectedDir).filter((f) => f.endsWith(".formatted.jsonl"))) {
      const expected = new Map(readJsonl(path.join(expectedDir, file.replace("formatted", "scores"))).map((r) => [r.key, r]));
      for (const rec of readJsonl(path.join(expectedDir, file))) {
        const key = rec.ground_truth?.gt_json_path?.[0];
        const item = byId.get(key);
        const want = expected.get(key);
        if (!item || !want) continue; // records the official code cannot tie to a sample
        const got = scoreSample(item, { localization: rec.formatted_response_localization, count: rec.formatted_response_count, path: rec.formatted_response_path, binary: rec.formatted_response_binary }, { coordMode: rec.coordinate_system[0] as CoordMode });
        const d = want.score_details;
        const label = `${file} ${key}`;
        assert.ok(close(got.score, want.score), `${label}: score ${got.score} vs ${want.score}`);
        assert.ok(close(got.components.localization, d.localization_score), `${label}: localization`);
        assert.ok(close(got.components.count, d.count_score), `${label}: count`);
        assert.ok(close(got.components.path, d.path_score), `${label}: path`);
        assert.ok(close(got.components.binary, d.binary_score), `${label}: binary`);
        assert.deepEqual([got.weights.localization, got.weights.count, got.weights.path, got.weights.binary], [d.weight_localization, d.weight_count, d.weight_path, d.weight_binary], label);
        assert.equal(got.invalid, want.invalid_response, `${label}: invalid`);
        assert.equal(got.error, want.error, `${label}: error`);
        const pd = want.metric_details?.path;
        if (pd && got.path && pd.start_end_score !== null) {
          for (const [ours, theirs] of [[got.path.startEnd, pd.start_end_score], [got.path.feasibility, pd.feasibility_score], [got.path.awayStart, pd.away_start_score], [got.path.towardEnd, pd.toward_end_score], [got.path.continuity, pd.continuity_score]] as const) {
            if (theirs === null) assert.equal(ours, null, label);
            else assert.ok(close(ours as number, theirs), `${label}: path component ${ours} vs ${theirs}`);
          }
        }
        checked++;
      }
    }
    assert.ok(checked > 50, `checked ${checked}`);
  });
}

test("score epic end to end (official raw replies, ms-swift shape): the official summary", async () => {
  const root = path.join(FIXTURES, "conformance");
  for (const responses of ["responses_A", "responses_B", "responses_C", "responses_D"]) {
    const summaryFile = path.join(root, "expected", `${responses}.auto.summary.json`);
    if (!existsSync(summaryFile)) continue;
    const want = JSON.parse(readFileSync(summaryFile, "utf8")).summary;
    const { scores } = await executeScore({ benchmark: "epic", data: root, out: path.join("/tmp", `epic-golden-${responses}`), predictions: [path.join(root, `${responses}.jsonl`)], bootstrapResamples: 0, bootstrapSeed: 1 });
    const got = scores["summary"] as typeof want;
    assert.equal(got.overall.total_processed, want.overall.total_processed, responses);
    assert.equal(got.overall.num_invalid_response, want.overall.num_invalid_response, responses);
    assert.ok(close(got.overall.average_score, want.overall.average_score), `${responses}: ${got.overall.average_score} vs ${want.overall.average_score}`);
    for (const key of Object.keys(want.by_group)) assert.ok(close(got.by_group[key].mean_score, want.by_group[key].mean_score), `${responses} ${key}`);
    for (const key of Object.keys(want.by_type)) assert.ok(close(got.by_type[key].mean_score, want.by_type[key].mean_score), `${responses} ${key}`);
  }
});

test("holdout (never used for tuning): the official summaries end to end", async () => {
  const root = path.join(FIXTURES, "holdout");
  for (const responses of ["responses_A", "responses_B"]) {
    const want = JSON.parse(readFileSync(path.join(root, "expected", `${responses}.auto.summary.json`), "utf8")).summary;
    const { scores } = await executeScore({ benchmark: "epic", data: root, out: path.join("/tmp", `epic-holdout-${responses}`), predictions: [path.join(root, `${responses}.jsonl`)], bootstrapResamples: 0, bootstrapSeed: 1 });
    const got = scores["summary"] as typeof want;
    assert.equal(got.overall.total_processed, want.overall.total_processed);
    assert.equal(got.overall.num_invalid_response, want.overall.num_invalid_response);
    assert.ok(close(got.overall.average_score, want.overall.average_score), `${responses}: ${got.overall.average_score} vs ${want.overall.average_score}`);
  }
});

test("D_SG is the exact minimum: large target regions match the official code with its sampling disabled", async () => {
  const root = path.join(FIXTURES, "conformance_dsg");
  const want = new Map(readJsonl(path.join(root, "expected", "exact_dsg.jsonl")).map((r) => [r.key, r.score]));
  const { results } = await executeScore({ benchmark: "epic", data: root, out: path.join("/tmp", "epic-dsg"), predictions: [path.join(root, "responses_dsg.jsonl")], bootstrapResamples: 0, bootstrapSeed: 1 });
  assert.equal(results.length, want.size);
  for (const r of results) assert.ok(close((r.detail as { score: number }).score, want.get(r.id)), r.id);
});
