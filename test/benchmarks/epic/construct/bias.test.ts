/**
 * Bias pruning against constant replies (construct/bias.ts): which samples go, worked out by hand
 * from the rule (the best menu reply's mean, the sample it earns most on, the budget, small tasks
 * left whole), and the credits a house records being the menu credits of the sample as the loader
 * reads it back from the written annotation.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { menuCredits, menuOf, replyKind } from "../../../../src/benchmarks/epic/audit-menu.js";
import { pruneAgainstConstants } from "../../../../src/benchmarks/epic/construct/bias.js";
import { epicSettings, epicShared, generateEpicHouse, type EpicHouseRecord } from "../../../../src/benchmarks/epic/construct/index.js";
import { leafTask } from "../../../../src/benchmarks/epic/taxonomy.js";
import type { EpicItem } from "../../../../src/benchmarks/epic/types.js";

const GD = leafTask("GroundDetection")!;
const EGO = leafTask("FeasiblePath_Ego")!;
/** A Ground Detection credit row (17 shapes): "whole image" (entry 1) and "bottom half" (entry 3) earn, the rest 0. */
const gd = (whole: number, bottom: number) => ({ leaf: GD, credits: Array.from({ length: 17 }, (_, e) => (e === 1 ? whole : e === 3 ? bottom : 0)) });
const limits = { target: 0.35, budget: 0.5, minSamples: 4 };

test("the sample the best constant earns most on goes, until the best constant is within the target or half the task is gone", () => {
  assert.equal(menuOf(replyKind(GD))[1]!.name, "whole image");
  // Means: whole image 1.7 / 4 = 0.425, bottom half 1.6 / 4 = 0.4. The whole image is best and
  // earns 0.5 on samples 0 and 1: sample 0 goes (the first of equals); then 1.2 / 3 = 0.4, sample 1
  // goes; then 0.7 / 2 = 0.35, within the target, with the budget (2 of 4) spent at the same time.
  const samples = [gd(0.5, 0.9), gd(0.5, 0.6), gd(0.4, 0.1), gd(0.3, 0), gd(1, 1)];
  const kept = [true, true, true, true, false]; // the last was dropped by the balance: not counted
  const result = pruneAgainstConstants(samples, kept, limits);
  assert.deepEqual(kept, [false, false, true, true, false]);
  assert.deepEqual(result, { [GD.byType]: { n_before: 4, n_after: 2, best_before: { reply: "whole image", score: 0.425 }, best_after: { reply: "whole image", score: 0.35 }, outcome: "reached" } });
});

test("a task whose best constant stays above the target stops at the budget; a task under minSamples is left whole", () => {
  const samples = [gd(0, 0.9), gd(0, 0.8), gd(0, 0.7), gd(0, 0.6), gd(0, 0.5), ...Array.from({ length: 3 }, () => ({ leaf: EGO, credits: new Array<number>(10).fill(0.9) }))];
  const kept = samples.map(() => true);
  const result = pruneAgainstConstants(samples, kept, limits);
  // Budget floor(0.5 x 5) = 2: the two highest bottom-half credits go, 0.6 / 1.5 -> (0.7 + 0.6 + 0.5) / 3 = 0.6.
  assert.deepEqual(kept, [false, false, true, true, true, true, true, true]);
  assert.deepEqual(result[GD.byType], { n_before: 5, n_after: 3, best_before: { reply: "bottom half", score: 0.7 }, best_after: { reply: "bottom half", score: 0.6 }, outcome: "budget" });
  assert.deepEqual(result[EGO.byType], { n_before: 3, n_after: 3, best_before: { reply: "path straight up the middle", score: 0.9 }, best_after: { reply: "path straight up the middle", score: 0.9 }, outcome: "small" });
});

test("a house records, for each sample, the menu credits of the sample read back from its written annotation", { timeout: 120_000 }, async () => {
  const shared = epicShared();
  try {
    const settings = epicSettings({ viewsPerHouse: 2 });
    const made = await generateEpicHouse(9, 0, settings, shared);
    const record = JSON.parse(made.record) as EpicHouseRecord;
    assert.ok(record.samples.length >= 10, `${record.samples.length} samples`);
    const kinds = new Set<string>();
    for (const s of record.samples) {
      const leaf = leafTask(s.leaf)!;
      const annotation = JSON.parse(made.files.get(s.annotation)!.toString("utf8")) as { text_annotation: EpicItem["text"]; mask_annotation: EpicItem["masks"] };
      const item: EpicItem = { id: s.annotation, task: leaf.byType, cluster: leaf.category, leaf, images: [], imageRefs: [], text: annotation.text_annotation, masks: annotation.mask_annotation, height: settings.height, width: settings.width, gtFile: s.annotation };
      assert.deepEqual(s.credits, menuCredits(item, menuOf(replyKind(leaf))), s.leaf);
      kinds.add(replyKind(leaf));
    }
    assert.ok(kinds.has("counted") && kinds.has("boxes") && kinds.has("path"), [...kinds].join(", "));
  } finally {
    shared.library.close();
  }
});
