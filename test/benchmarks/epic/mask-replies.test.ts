import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { epic } from "../../../src/benchmarks/epic/index.js";
import { loadEpic } from "../../../src/benchmarks/epic/load.js";
import { maskLocalizationScore, type EpicOutcome } from "../../../src/benchmarks/epic/score.js";
import { pyJsonLoads, type PyDict } from "../../../src/core/pycompat/json.js";
import { executeScore } from "../../../src/core/session.js";

/**
 * Mask-format replies (official `format_type: "mask"`): hand-computed cases on a 4 x 6 image
 * (h = 4, w = 6; COCO RLE runs go down each column, index x * 4 + y). The parity with the official
 * evaluator on the golden data of test/fixtures/epic/mask/ follows them.
 */
// Truth: x 1..2, y 1..2 -> indices 5, 6, 9, 10.
const TRUTH = [{ size: [4, 6], counts: [5, 2, 2, 2, 13] }];
// Reply: x 2..3, y 1..2 -> indices 9, 10, 13, 14: 2 pixels shared, 6 in the union.
const SHIFTED = { size: [4, 6], counts: [9, 2, 2, 2, 9] };
// One pixel at x 0, y 0 (index 0), outside the truth.
const CORNER = { size: [4, 6], counts: [0, 1, 23] };

test("a mask reply scores the IoU of its union with the truth's", () => {
  assert.equal(maskLocalizationScore(SHIFTED, TRUTH, null, "auto").score, 2 / 6);
  assert.equal(maskLocalizationScore([SHIFTED], TRUTH, null, "auto").score, 2 / 6);
  // Union of two RLEs: 7 pixels, 2 shared.
  assert.equal(maskLocalizationScore([SHIFTED, CORNER], TRUTH, null, "auto").score, 2 / 7);
  assert.equal(maskLocalizationScore(TRUTH, TRUTH, null, "auto").score, 1);
  assert.equal(maskLocalizationScore(SHIFTED, TRUTH, null, "auto").actual, "n/a");
});

test("entries that are not RLE objects, fail to decode or differ in size from the first are left out", () => {
  const otherSize = { size: [6, 4], counts: [24] };
  assert.equal(maskLocalizationScore([SHIFTED, otherSize], TRUTH, null, "auto").score, 2 / 6);
  assert.equal(maskLocalizationScore([[1, 2, 3, 4], SHIFTED], TRUTH, null, "auto").score, 2 / 6);
  assert.equal(maskLocalizationScore([{ counts: [24] }, SHIFTED], TRUTH, null, "auto").score, 2 / 6);
});

test("no target: [], {} or an all-zero mask is right only where the truth is empty", () => {
  const zero = { size: [4, 6], counts: [24] };
  for (const reply of [[], {}, zero, [zero]]) {
    assert.deepEqual(maskLocalizationScore(reply, TRUTH, null, "auto").score, 0, JSON.stringify(reply));
    assert.deepEqual(maskLocalizationScore(reply, [], null, "auto").score, 1, JSON.stringify(reply));
    // A count of 0 makes the truth empty whatever its mask.
    assert.deepEqual(maskLocalizationScore(reply, TRUTH, 0, "auto").score, 1, JSON.stringify(reply));
  }
  // A mask where there is no target.
  assert.deepEqual(maskLocalizationScore(SHIFTED, [], null, "auto"), { score: 0, error: null, actual: "n/a", pixels: null });
});

test("a mask of another size, or nothing decodable, scores 0 with the official error", () => {
  const transposed = { size: [6, 4], counts: [5, 2, 2, 2, 13] };
  assert.deepEqual(maskLocalizationScore(transposed, TRUTH, null, "auto"), { score: 0, error: "Pred mask shape does not match GT mask shape", actual: "n/a", pixels: null });
  for (const reply of [[[1, 2, 3, 4]], "mask", 7, [{ size: [4, 6] }], { counts: [24] }]) {
    assert.deepEqual(maskLocalizationScore(reply, TRUTH, null, "auto"), { score: 0, error: "Failed to decode predicted mask response", actual: "n/a", pixels: null }, JSON.stringify(reply));
  }
  assert.equal(maskLocalizationScore("No Valid Response", TRUTH, null, "auto").error, "No Valid Response");
  assert.deepEqual(maskLocalizationScore("Not Required", TRUTH, null, "auto"), { score: 0, error: null, actual: "auto", pixels: null });
});

test("a reply's stated size costs nothing: a 10^10-pixel mask is refused or read without drawing it", () => {
  const huge = { size: [100000, 100000], counts: "" };
  // Empty counts read as an all-zero mask (the official tolerance): no target, decided from the runs.
  assert.equal(maskLocalizationScore(huge, TRUTH, null, "auto").score, 0);
  assert.equal(maskLocalizationScore(huge, [], null, "auto").score, 1);
  const hugeSet = { size: [100000, 100000], counts: [0, 10000000000] };
  assert.equal(maskLocalizationScore(hugeSet, TRUTH, null, "auto").error, "Pred mask shape does not match GT mask shape");
  assert.equal(maskLocalizationScore([hugeSet, SHIFTED], TRUTH, null, "auto").error, "Pred mask shape does not match GT mask shape");
});

// ---------------------------------------------------------------- parity with the official evaluator

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/epic");
const readJsonl = (file: string) => readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12;

test("official localization_score in mask mode: every direct case (test/fixtures/epic/mask/localization_cases.json)", () => {
  const cases = JSON.parse(readFileSync(path.join(FIXTURES, "mask", "localization_cases.json"), "utf8")) as Array<{ name: string; pred: unknown; gt: unknown; gt_count: number | null; score: number; error: string | null }>;
  assert.equal(cases.length, 53);
  for (const c of cases) {
    const got = maskLocalizationScore(c.pred, c.gt, c.gt_count, "auto");
    assert.ok(close(got.score, c.score), `${c.name}: ${got.score} vs ${c.score}`);
    assert.equal(got.error, c.error, c.name);
  }
});

test("official standard records with format_type mask: every record's score, components, error and invalid flag", async () => {
  const root = path.join(FIXTURES, "conformance");
  const { items, problems } = loadEpic(root);
  assert.deepEqual(problems, []);
  const byId = new Map(items.map((i) => [i.id, i]));
  const records = readFileSync(path.join(FIXTURES, "mask", "std_mask.jsonl"), "utf8").trim().split("\n");
  const expected = readJsonl(path.join(FIXTURES, "mask", "expected", "std_mask.scores.jsonl"));
  assert.equal(records.length, 50);
  assert.equal(expected.length, 50);
  records.forEach((line, i) => {
    const row = pyJsonLoads(line) as PyDict;
    const want = expected[i];
    const item = byId.get(want.key)!;
    const answer = epic.readPrediction(item, row);
    const got = epic.scoreItem(item, answer) as unknown as EpicOutcome;
    const d = want.score_details;
    const label = `record ${i} (${want.key})`;
    assert.ok(close(got.score, want.score), `${label}: score ${got.score} vs ${want.score}`);
    assert.ok(close(got.components.localization, d.localization_score), `${label}: localization ${got.components.localization} vs ${d.localization_score}`);
    assert.ok(close(got.components.count, d.count_score), `${label}: count`);
    assert.ok(close(got.components.path, d.path_score), `${label}: path`);
    assert.ok(close(got.components.binary, d.binary_score), `${label}: binary`);
    assert.deepEqual([got.weights.localization, got.weights.count, got.weights.path, got.weights.binary], [d.weight_localization, d.weight_count, d.weight_path, d.weight_binary], label);
    assert.equal(got.error, want.error, `${label}: error`);
    assert.equal(got.invalid, want.invalid_response, `${label}: invalid`);
    // Where the official IoU was reached, the reply's mask has the official area.
    if (want.derived?.union !== undefined) assert.equal(got.maskPixels, want.derived.pred_mask_area, `${label}: mask pixels`);
  });
});

test("score epic reads a file of standard records end to end: each sample scored as the official record (the last of a repeated sample)", async () => {
  const root = path.join(FIXTURES, "conformance");
  const expected = readJsonl(path.join(FIXTURES, "mask", "expected", "std_mask.scores.jsonl"));
  const lastByKey = new Map(expected.map((r) => [r.key, r]));
  const out = mkdtempSync(path.join(os.tmpdir(), "epic-std-mask-"));
  try {
    const { results } = await executeScore({ benchmark: "epic", data: root, out, predictions: [path.join(FIXTURES, "mask", "std_mask.jsonl")], bootstrapResamples: 0, bootstrapSeed: 1 });
    const answered = results.filter((r) => r.answer?.status !== "missing");
    assert.equal(answered.length, lastByKey.size);
    for (const r of answered) {
      const want = lastByKey.get(r.id)!;
      assert.ok(close((r.detail as { score: number }).score, want.score), `${r.id}: ${(r.detail as { score: number }).score} vs ${want.score}`);
    }
    // The overlay draws the reply's mask: 0002's two RLEs are the truth's two 328-pixel boxes.
    const id = "EPIC_Bench/TargetLocalization/BasicAttributes/Category/0002_mask_rle.json";
    const item = loadEpic(root).items.find((i) => i.id === id)!;
    const { caption } = await epic.overlay!(item, results.find((r) => r.id === id)!);
    assert.equal(caption[1], "answer: mask (format_type mask): 2 RLEs of size 48 x 64, 656 px set; count 2");
    assert.equal(caption.at(-1), "mask reply on the target mask: 656 of 656 px (purple overlaps it, red misses)");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("a standard record's coordinate_system applies unless --coords is given (the official --coord-mode)", () => {
  const root = path.join(FIXTURES, "conformance");
  const item = loadEpic(root).items.find((i) => i.id === "EPIC_Bench/TargetLocalization/BasicAttributes/Category/0001_mask_rle.json")!;
  // The truth is 20 x 20 px at x 10-30, y 8-28 of a 64 x 48 image (the conformance set's 0001).
  const record = (system: string) => pyJsonLoads(JSON.stringify({ format_type: ["bbox"], coordinate_system: [system], formatted_response_localization: [[156.25, 166.667, 468.75, 583.334]], formatted_response_count: [1], formatted_response_path: ["Not Required"], formatted_response_binary: ["Not Required"] })) as PyDict;
  const localization = (benchmark: typeof epic, system: string) => (benchmark.scoreItem(item, benchmark.readPrediction(item, record(system))) as unknown as EpicOutcome).components.localization;
  // Read on the 0-1000 scale the box is x 10-30, y 8-28: the truth's own box.
  assert.equal(localization(epic, "normalized_0_1000"), 1);
  // Read as pixels it lies far outside the 64 x 48 picture: no overlap.
  assert.equal(localization(epic, "absolute"), 0);
  assert.equal(localization(epic.configure!({ coords: "absolute" }) as typeof epic, "normalized_0_1000"), 0);
});
