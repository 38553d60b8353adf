import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import sharp from "sharp";
import { promptText } from "../../../src/benchmarks/epic/check.js";
import { loadEpic } from "../../../src/benchmarks/epic/load.js";
import { buildEpicMessages, loadEpicTemplates, textFieldsOf } from "../../../src/benchmarks/epic/prompt.js";
import { leafTask } from "../../../src/benchmarks/epic/taxonomy.js";

const CONFORMANCE = path.resolve(import.meta.dirname, "../../fixtures/epic/conformance/EPIC_Bench");
const templates = loadEpicTemplates();

const leaf = (name: string) => leafTask(name)!;

test("promptText: text_label from text_annotation, else the top level (TL, FP, CR converters: absent or null falls back)", () => {
  for (const name of ["Category", "FeasiblePath_Ego", "ContactRelationship_TypeTwo"]) {
    assert.deepEqual(promptText({ text_annotation: { n: 1 }, text_label: ["top"] }, leaf(name)), { n: 1, text_label: ["top"] }, name);
    assert.deepEqual(promptText({ text_annotation: { text_label: null }, text_label: "top" }, leaf(name)), { text_label: "top" }, name);
    assert.deepEqual(promptText({ text_annotation: { text_label: "inner" }, text_label: "top" }, leaf(name)), { text_label: "inner" }, name);
    // An empty list is not None: the converter keeps it (and then refuses it as empty).
    assert.deepEqual(promptText({ text_annotation: { text_label: [] }, text_label: "top" }, leaf(name)), { text_label: [] }, name);
    assert.deepEqual(promptText({ text_annotation: {} }, leaf(name)), {}, name);
  }
});

test("promptText: Affordance Region's `or` chains and Placement Region's mask_annotation fallbacks", () => {
  const ar = leaf("AffordanceRegion");
  // The task: text_label or task_description_en (non-empty), else a non-empty top-level text_label.
  assert.deepEqual(promptText({ text_annotation: { text_label: "" }, text_label: "pour" }, ar), { text_label: "pour" });
  assert.deepEqual(promptText({ text_annotation: { task_description_en: "open it" }, text_label: "pour" }, ar), { task_description_en: "open it" });
  assert.deepEqual(promptText({ text_annotation: {}, text_label: [] }, ar), {});
  // The reference object: text_annotation's, else a non-empty mask_annotation.target_en.
  assert.deepEqual(promptText({ text_annotation: { reference_object_description_en: [] }, mask_annotation: { target_en: ["the kettle"] } }, ar), { reference_object_description_en: ["the kettle"] });
  const pr = leaf("PlacementRegion");
  assert.deepEqual(
    promptText({ text_annotation: {}, mask_annotation: { target_en: "cup", placement_region_en: "table" } }, pr),
    { reference_object_description_en: "cup", placement_region_description_en: "table" },
  );
  // Only absent or null falls back here (the converter tests `is None`).
  assert.deepEqual(promptText({ text_annotation: { reference_object_description_en: "" }, mask_annotation: { target_en: "cup" } }, pr), { reference_object_description_en: "" });
  // Tasks whose prompt reads no text_label take nothing from the top level.
  assert.deepEqual(promptText({ text_annotation: {}, text_label: "x" }, leaf("GroundDetection")), {});
  assert.deepEqual(promptText({ text_annotation: {}, text_label: "x" }, leaf("VisualMatching")), {});
});

/** A data root holding copies of the given task folders of the conformance set. */
function copyTasks(...folders: string[]): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-epic-check-"));
  for (const folder of folders) cpSync(path.join(CONFORMANCE, folder), path.join(root, "EPIC_Bench", folder), { recursive: true });
  return root;
}

function editJson(file: string, edit: (json: Record<string, any>) => void): void {
  const json = JSON.parse(readFileSync(file, "utf8"));
  edit(json);
  writeFileSync(file, JSON.stringify(json));
}

const CATEGORY = "TargetLocalization/BasicAttributes/Category";
const gt = (root: string, folder: string, name: string) => path.join(root, "EPIC_Bench", folder, name);

test("a Target Localization row needs text_label in text_annotation or at the top level; the prompt then reads it", async () => {
  const root = copyTasks(CATEGORY);
  const rel = `EPIC_Bench/${CATEGORY}/0001_mask_rle.json`;
  for (const name of ["0002_mask_rle.json", "0003_mask_rle.json"]) editJson(gt(root, CATEGORY, name), (j) => (j.text_annotation.text_label = ["a red mug"]));
  editJson(gt(root, CATEGORY, "0001_mask_rle.json"), (j) => {
    delete j.text_annotation.text_label;
    delete j.text_label;
  });
  const requests = { source: "mask-overlay" };
  assert.deepEqual(loadEpic(root, { requests }).problems, [
    { file: rel, field: "text_annotation.text_label", message: `missing, and so is the top-level text_label; the prompt needs it (${CATEGORY})` },
  ]);
  // Scoring needs no text_label: without the request checks the set is clean.
  assert.deepEqual(loadEpic(root).problems, []);

  editJson(gt(root, CATEGORY, "0001_mask_rle.json"), (j) => (j.text_label = ["the mug on the left"]));
  const { items, problems } = loadEpic(root, { requests });
  assert.deepEqual(problems, []);
  const item = items.find((i) => i.id === rel)!;
  assert.deepEqual(textFieldsOf(item), { target_object_description: "the mug on the left" });
  const messages = await buildEpicMessages(item, { templates, coordMode: "absolute" });
  assert.ok(JSON.stringify(messages).includes("the mug on the left"));
});

const AFFORDANCE = "Manipulation/AffordanceRegion";
const AR_REL = `EPIC_Bench/${AFFORDANCE}/0701_mask_rle.json`;
const AR_IMAGE = `EPIC_Bench/${AFFORDANCE}/0701_image.jpg`;

test("box-overlay needs the reference mask: present, non-empty, the image's size, with pixels; the other variants do not", async () => {
  const root = copyTasks(AFFORDANCE);
  const file = gt(root, AFFORDANCE, "0701_mask_rle.json");
  const others = ["0702_mask_rle.json", "0703_mask_rle.json"];
  // The image is 64x48 (H 48, W 64): 100 zeros, 50 set pixels, then zeros up to 48 x 64 = 3072.
  const good = { size: [48, 64], counts: [100, 50, 2922] };
  // The other samples get a reference mask covering their whole image (its size as sharp reads it).
  for (const name of others) {
    const { width, height } = await sharp(gt(root, AFFORDANCE, name.replace("_mask_rle.json", "_image.jpg"))).metadata();
    editJson(gt(root, AFFORDANCE, name), (j) => (j.mask_annotation.masklet_reference_area = [{ size: [height, width], counts: [0, height! * width!] }]));
  }
  const box = { source: "box-overlay" };
  const task = AFFORDANCE;
  const cases: Array<[unknown, Array<{ field: string; message: string }>]> = [
    [undefined, [{ field: "mask_annotation.masklet_reference_area", message: `box-overlay for ${task}: the reference mask masklet_reference_area is not in mask_annotation, so no box can be drawn (use mask-overlay or no-overlay)` }]],
    [[], [{ field: "mask_annotation.masklet_reference_area", message: `box-overlay for ${task}: the reference mask masklet_reference_area is empty, so no box can be drawn` }]],
    [[good, { size: [32, 32], counts: [0, 1024] }], [{ field: "mask_annotation.masklet_reference_area[1]", message: `box-overlay for ${task}: mask is 32x32 but ${AR_IMAGE} is 64x48` }]],
    [[{ size: [48, 64], counts: [3072] }], [{ field: "mask_annotation.masklet_reference_area", message: `box-overlay for ${task}: the reference mask has no set pixels, so no box can be drawn` }]],
    [[good], []],
  ];
  for (const [mask, expected] of cases) {
    editJson(file, (j) => {
      if (mask === undefined) delete j.mask_annotation.masklet_reference_area;
      else j.mask_annotation.masklet_reference_area = mask;
    });
    assert.deepEqual(loadEpic(root, { requests: box }).problems, expected.map((p) => ({ file: AR_REL, ...p })), JSON.stringify(mask));
    assert.deepEqual(loadEpic(root, { requests: { source: "mask-overlay" } }).problems, [], JSON.stringify(mask));
    assert.deepEqual(loadEpic(root, { requests: { source: "no-overlay" } }).problems, [], JSON.stringify(mask));
    // What validate accepts, the prompt builder builds.
    const item = loadEpic(root).items.find((i) => i.id === AR_REL)!;
    const built = buildEpicMessages(item, { templates, coordMode: "absolute", variant: "box-overlay" });
    if (expected.length === 0) await built;
    else await assert.rejects(built);
  }
});

test("a missing overlay image is a problem for every variant (the loader needs it next to the ground truth)", () => {
  const root = copyTasks(AFFORDANCE);
  rmSync(gt(root, AFFORDANCE, "0701_reference_area_overlay.png"));
  const expected = [{ file: AR_REL, field: "images", message: "missing 0701_reference_area_overlay.png next to the ground truth" }];
  assert.deepEqual(loadEpic(root).problems, expected);
  assert.deepEqual(loadEpic(root, { requests: { source: "mask-overlay" } }).problems, expected);
});

test("no-overlay Visual Matching describes the reference in words: reference_area_description_en is needed then only", () => {
  const folder = "Navigation/VisualMatching";
  const root = copyTasks(folder);
  const names = ["0201__0202_mask_rle.json", "0203__0204_mask_rle.json", "0205__0206_mask_rle.json"];
  editJson(gt(root, folder, names[0]!), (j) => delete j.text_annotation.reference_area_description_en);
  editJson(gt(root, folder, names[1]!), (j) => (j.text_annotation.reference_area_description_en = ["the blue rug"]));
  editJson(gt(root, folder, names[2]!), (j) => (j.text_annotation.reference_area_description_en = "the door"));
  assert.deepEqual(loadEpic(root, { requests: { source: "mask-overlay" } }).problems, []);
  assert.deepEqual(loadEpic(root, { requests: { source: "no-overlay" } }).problems, [
    { file: `EPIC_Bench/${folder}/${names[0]}`, field: "text_annotation.reference_area_description_en", message: `missing; the prompt needs it (${folder})` },
  ]);
});

test("issue 25: a mask of more than 16 megapixels is a bad RLE on its field, before scoring would unpack it", () => {
  const root = copyTasks(CATEGORY);
  const maskOf = (height: number, width: number) =>
    editJson(gt(root, CATEGORY, "0001_mask_rle.json"), (j) => {
      const field = Object.keys(j.mask_annotation).find((k) => k.startsWith("masklet_"))!;
      j.mask_annotation[field] = [{ size: [height, width], counts: [height * width] }];
    });
  maskOf(20_000, 20_000);
  const problems = loadEpic(root).problems;
  assert.equal(problems.length, 1);
  assert.match(problems[0]!.field!, /^mask_annotation\.masklet_\w+\[0\]$/);
  assert.equal(problems[0]!.message, "bad RLE: size [20000, 20000] is more than the 16777216 pixels a mask may have");
  // 4097 x 4096 is one row over the limit; 4096 x 4096 is within it (its only problem is the size of its picture).
  maskOf(4097, 4096);
  assert.equal(loadEpic(root).problems[0]!.message, "bad RLE: size [4097, 4096] is more than the 16777216 pixels a mask may have");
  maskOf(4096, 4096);
  assert.ok(!loadEpic(root).problems.some((p) => p.message.includes("a mask may have")));
});

test("issue 25: a mask list longer than 256 masks, or masks over 64 megapixels in one sample, is refused before anything is unpacked", () => {
  const root = copyTasks(CATEGORY);
  const setMasks = (masks: Array<{ size: [number, number]; counts: number[] }>) =>
    editJson(gt(root, CATEGORY, "0001_mask_rle.json"), (j) => {
      const field = Object.keys(j.mask_annotation).find((k) => k.startsWith("masklet_"))!;
      j.mask_annotation[field] = masks;
    });
  setMasks(Array.from({ length: 257 }, () => ({ size: [384, 512], counts: [384 * 512] })));
  let problems = loadEpic(root).problems;
  assert.deepEqual(problems.map((p) => p.message), ["holds 257 masks; a field may hold at most 256"]);
  assert.match(problems[0]!.field!, /^mask_annotation\.masklet_\w+$/);
  // Five masks of 16 megapixels: the fifth crosses the 67,108,864-pixel budget, said once.
  setMasks(Array.from({ length: 5 }, () => ({ size: [4096, 4096], counts: [4096 * 4096] })));
  problems = loadEpic(root).problems.filter((p) => /pixels together/.test(p.message));
  assert.deepEqual(problems.map((p) => [p.field!.replace(/masklet_\w+/, "masklet"), p.message]), [["mask_annotation.masklet[4]", "the sample's masks hold more than 67108864 pixels together, the most one sample may unpack"]]);
});
