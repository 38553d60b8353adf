import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import sharp from "sharp";
import YAML from "yaml";
import {
  buildEpicMessages,
  COORD_MODES,
  FAMILY_KEYS,
  familyOf,
  loadEpicTemplates,
  maskBox,
  normalizeReferenceObjects,
  normalizeTargetAreaDescription,
  onBoxBorder,
  OVERLAY_VARIANTS,
  REFERENCE_MASK,
  textFieldsOf,
  type CoordMode,
  type MaskLike,
  type OverlayVariant,
} from "../../../src/benchmarks/epic/prompt.js";
import { leafTask } from "../../../src/benchmarks/epic/taxonomy.js";
import { BitMask } from "../../../src/geometry/mask.js";
import { encodeRle } from "../../../src/geometry/rle.js";
import type { EpicItem, RleJson } from "../../../src/benchmarks/epic/types.js";
import { DataError, UsageError } from "../../../src/core/problems.js";
import type { Message, Part } from "../../../src/core/types.js";

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/epic/prompt");
const IMAGE = path.join(FIX, "0001_image.jpg");
const OVERLAY = path.join(FIX, "0001_reference_overlay.png");
const IMAGE_B = path.join(FIX, "0002_image.jpg");
const W = 16;
const H = 12;
const templates = loadEpicTemplates();

/** COCO uncompressed RLE of a predicate (column-major, first run counts zeros). */
function rleOf(inside: (x: number, y: number) => boolean, w = W, h = H): RleJson {
  const counts: number[] = [];
  let current = 0;
  let run = 0;
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      const v = inside(x, y) ? 1 : 0;
      if (v !== current) {
        counts.push(run);
        run = 0;
        current = v;
      }
      run++;
    }
  }
  counts.push(run);
  return { size: [h, w], counts };
}

/** The test's own decoder for list counts (independent of the project's). */
function decodeListRle(rle: RleJson): MaskLike {
  const [h, w] = rle.size;
  const flat = new Uint8Array(h * w);
  let at = 0;
  let value = 0;
  for (const n of rle.counts as number[]) {
    flat.fill(value, at, at + n);
    at += n;
    value = 1 - value;
  }
  return { width: w, height: h, get: (x, y) => flat[x * h + y]! };
}

const rectRle = (x0: number, y0: number, x1: number, y1: number) => rleOf((x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1);

function rel(file: string): string {
  return `EPIC_Bench/fixture/${path.basename(file)}`;
}

function makeItem(leafName: string, text: Record<string, unknown>, masks: Record<string, RleJson[]> = {}): EpicItem {
  const leaf = leafTask(leafName);
  assert.ok(leaf, leafName);
  const family = familyOf(leaf);
  const images = family === "target_localization" || family === "ground_detection" ? [IMAGE] : family === "visual_matching" ? [IMAGE, OVERLAY, IMAGE_B] : [IMAGE, OVERLAY];
  return {
    id: `EPIC_Bench/${leaf.byType}/0001_mask_rle.json`,
    task: leaf.byType,
    cluster: "0001",
    leaf,
    images,
    imageRefs: images.map(rel),
    text,
    masks,
    height: H,
    width: W,
    gtFile: `/data/EPIC_Bench/${leaf.byType}/0001_mask_rle.json`,
  };
}

const REF = rectRle(5, 3, 10, 8);

/** One hand-made item per template family, with the text values the prompt must carry and the reply keys it must ask for. */
const CASES: Array<{ item: EpicItem; values: string[]; keys: string[]; absent: string[] }> = [
  { item: makeItem("Color", { text_label: ["the red mug on the left shelf"], count_target_instance: [1] }), values: ["the red mug on the left shelf"], keys: ["number_of_objects", "bounding_boxes"], absent: ["number_of_instances", "points", "placement_feasibility"] },
  { item: makeItem("GroundDetection", { scene_description_en: "a hallway" }), values: [], keys: ["bounding_boxes"], absent: ["number_of_", "points", "placement_feasibility", "a hallway"] },
  { item: makeItem("FeasiblePath_Ego", { text_label: "the kitchen doorway" }, { masklet_target_area: [REF] }), values: ["the kitchen doorway"], keys: ["points", "at least 3"], absent: ["bounding_boxes"] },
  { item: makeItem("FeasiblePath_Exo", { text_label: ["the sofa22the desk"] }, { masklet_target_area: [REF] }), values: ["the sofa, the desk"], keys: ["points", "at least 3"], absent: ["bounding_boxes"] },
  { item: makeItem("VisualMatching", { reference_area_description_en: ["the blue rug"] }, { masklet_reference_area: [REF] }), values: [], keys: ["number_of_instances", "bounding_boxes"], absent: ["number_of_objects", "points", "the blue rug"] },
  { item: makeItem("AffordanceRegion", { text_label: ["open the drawer"], reference_object_description_en: ["the top drawer"] }, { masklet_reference_area: [REF] }), values: ["open the drawer", "the top drawer"], keys: ["bounding_boxes"], absent: ["number_of_", "points", "placement_feasibility"] },
  { item: makeItem("ContactRelationship_TypeOne", { text_label: ["the 2 cups"] }, { masklet_reference_object: [REF] }), values: ["the 2 cups"], keys: ["number_of_instances", "bounding_boxes"], absent: ["number_of_objects", "points"] },
  { item: makeItem("ContactRelationship_TypeTwo", { text_label: ["the cup2the plate"] }, { masklet_reference_object: [REF] }), values: ["the cup, the plate", "all of the reference objects"], keys: ["number_of_instances", "bounding_boxes"], absent: ["number_of_objects", "points"] },
  { item: makeItem("ContactRelationship_TypeThree", { text_label: "the cup22the plate" }, { masklet_reference_object: [REF] }), values: ["the cup, the plate", "at least one of the reference"], keys: ["number_of_instances", "bounding_boxes"], absent: ["number_of_objects", "points"] },
  { item: makeItem("PlacementRegion", { reference_object_description_en: ["a laptop"], placement_region_description_en: ["the empty desk corner"], placement_feasible: [true] }, { masklet_reference_object: [REF] }), values: ["a laptop", "the empty desk corner"], keys: ["bounding_boxes", "placement_feasibility"], absent: ["number_of_", "points"] },
];

const imageParts = (messages: Message[]) => messages[1]!.content.filter((p): p is Extract<Part, { type: "image" }> => p.type === "image");
const userText = (messages: Message[]) => messages[1]!.content.filter((p): p is Extract<Part, { type: "text" }> => p.type === "text").map((p) => p.text).join("\n");
const b64 = (file: string) => readFileSync(file).toString("base64");

test("the default template file has every family, the coordinate modes, and a hash", () => {
  assert.equal(templates.name, "spatialprobe-epic-v1");
  assert.match(templates.hash, /^[0-9a-f]{64}$/);
  for (const key of FAMILY_KEYS) {
    assert.equal(typeof templates.families[key].system, "string", key);
    assert.equal(typeof templates.families[key].user, "string", key);
    if (REFERENCE_MASK[key]) for (const v of OVERLAY_VARIANTS) assert.equal(typeof templates.families[key].reference_hint?.[v], "string", `${key} ${v}`);
  }
  for (const mode of COORD_MODES) assert.ok(templates.coordinate_instructions[mode].length > 20);
  assert.equal(new Set(CASES.map((c) => familyOf(c.item.leaf))).size, FAMILY_KEYS.length);
});

test("mask-overlay: roles, images in the official order, filled text with the reply keys", async () => {
  for (const { item, values, keys, absent } of CASES) {
    for (const coordMode of COORD_MODES) {
      const messages = await buildEpicMessages(item, { templates, coordMode });
      const what = `${item.task} ${coordMode}`;
      assert.deepEqual(messages.map((m) => m.role), ["system", "user"], what);
      assert.equal(messages[0]!.content.length, 1);
      assert.ok(messages[0]!.content[0]!.type === "text" && messages[0]!.content[0]!.text.length > 0);
      const images = imageParts(messages);
      assert.deepEqual(images.map((p) => p.source), item.imageRefs, what);
      assert.deepEqual(images.map((p) => p.base64), item.images.map(b64), what);
      assert.deepEqual(images.map((p) => p.mediaType), item.images.map((f) => (f.endsWith(".png") ? "image/png" : "image/jpeg")), what);
      const all = messages.flatMap((m) => m.content).filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("\n");
      assert.doesNotMatch(all, /\{[a-z][a-z0-9_]*\}/, `${what}: unfilled placeholder`);
      const text = userText(messages);
      for (const v of values) assert.ok(text.includes(v), `${what}: lacks ${v}`);
      for (const k of keys) assert.ok(text.includes(k), `${what}: lacks ${k}`);
      for (const k of absent) assert.ok(!text.includes(k), `${what}: should not mention ${k}`);
      assert.ok(text.includes(templates.coordinate_instructions[coordMode as CoordMode].trim()), what);
      for (const other of COORD_MODES.filter((m) => m !== coordMode)) assert.ok(!text.includes(templates.coordinate_instructions[other].trim()), what);
    }
  }
});

test("the user message puts the images where the template's {images} marker is", async () => {
  const tl = await buildEpicMessages(CASES[0]!.item, { templates, coordMode: "absolute" });
  assert.deepEqual(tl[1]!.content.map((p) => p.type), ["image", "text"]);
  const fp = await buildEpicMessages(CASES[2]!.item, { templates, coordMode: "absolute" });
  assert.deepEqual(fp[1]!.content.map((p) => p.type), ["text", "image", "image", "text"]);
  assert.match((fp[1]!.content[0] as { text: string }).text, /highlighted/);
});

test("no-overlay drops exactly the overlay image and says so", async () => {
  for (const { item } of CASES) {
    const family = familyOf(item.leaf);
    if (!REFERENCE_MASK[family]) continue;
    const variant: OverlayVariant = "no-overlay";
    const messages = await buildEpicMessages(item, { templates, coordMode: "0-1000", variant });
    const expected = item.images.filter((f) => f !== OVERLAY);
    assert.equal(expected.length, item.images.length - 1);
    assert.deepEqual(imageParts(messages).map((p) => p.base64), expected.map(b64), item.task);
    assert.deepEqual(imageParts(messages).map((p) => p.source), expected.map(rel), item.task);
    const text = userText(messages);
    const hint = templates.families[family].reference_hint!["no-overlay"]!.trim().split("\n")[0]!;
    assert.ok(text.includes(hint), `${item.task}: no-overlay hint missing`);
    assert.ok(!/highlighted/.test(text), `${item.task}: still mentions the highlighted copy`);
    assert.doesNotMatch(text, /\{[a-z][a-z0-9_]*\}/);
  }
  const vm = CASES.find((c) => c.item.leaf.leaf === "VisualMatching")!.item;
  const vmText = userText(await buildEpicMessages(vm, { templates, coordMode: "0-1", variant: "no-overlay" }));
  assert.ok(vmText.includes("the blue rug"), "VM no-overlay describes the reference in words");
  // Without the words, VM no-overlay cannot describe the reference: a data error naming the field.
  const bare = { ...vm, text: {} };
  await assert.rejects(buildEpicMessages(bare, { templates, coordMode: "0-1", variant: "no-overlay" }), (e: unknown) => e instanceof DataError && /text_annotation\.reference_area_description_en/.test(e.message));
  // ...while the default variant does not need them (the official VM prompt carries no text field).
  await buildEpicMessages(bare, { templates, coordMode: "0-1" });
  // Families without an overlay are unchanged by the variant.
  for (const c of CASES.slice(0, 2)) {
    for (const variant of OVERLAY_VARIANTS) {
      assert.deepEqual(await buildEpicMessages(c.item, { templates, coordMode: "absolute", variant }), await buildEpicMessages(c.item, { templates, coordMode: "absolute" }));
    }
  }
});

async function rawRgb(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

test("box-overlay draws a red 3 px box on a copy of the scene, exactly on the reference mask's box border", async () => {
  const base = await rawRgb(readFileSync(IMAGE));
  assert.equal(base.channels, 3);
  // Two instances; the second touches the right and bottom edges (the stroke is clipped there).
  const instances = [rectRle(5, 3, 10, 8), rleOf((x, y) => (x === 13 && y === 10) || (x === 15 && y === 11) || (x === 14 && y === 10))];
  const boxes = instances.map((r) => maskBox(decodeListRle(r))!);
  assert.deepEqual(boxes, [{ x0: 5, y0: 3, x1: 10, y1: 8 }, { x0: 13, y0: 10, x1: 15, y1: 11 }]);
  for (const { item } of CASES) {
    const family = familyOf(item.leaf);
    const field = REFERENCE_MASK[family];
    if (!field) continue;
    const withMask = { ...item, masks: { [field]: instances } };
    const messages = await buildEpicMessages(withMask, { templates, coordMode: "absolute", variant: "box-overlay", decodeMask: decodeListRle });
    const images = imageParts(messages);
    assert.equal(images.length, item.images.length, item.task);
    assert.equal(images[0]!.base64, b64(IMAGE));
    if (family === "visual_matching") assert.equal(images[2]!.base64, b64(IMAGE_B));
    assert.equal(images[1]!.mediaType, "image/png");
    assert.equal(images[1]!.source, `${rel(IMAGE)}#box-overlay:${field}`);
    assert.match(userText(messages), /red box/);
    const drawn = await rawRgb(Buffer.from(images[1]!.base64, "base64"));
    assert.equal(drawn.width, W);
    assert.equal(drawn.height, H);
    let red = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 3;
        const got = [drawn.data[i], drawn.data[i + 1], drawn.data[i + 2]];
        if (boxes.some((b) => onBoxBorder(b, x, y))) {
          assert.deepEqual(got, [255, 0, 0], `${item.task} (${x},${y}) should be red`);
          red++;
        } else {
          assert.deepEqual(got, [base.data[i], base.data[i + 1], base.data[i + 2]], `${item.task} (${x},${y}) should be the scene`);
        }
      }
    }
    // Box 1 ring: outer 8x8 minus inner 2x2 (x 7..8, y 5..6) = 60; box 2: x 12..15, y 9..11 = 12, no interior.
    assert.equal(red, 60 + 12);
  }
});

test("box-overlay's default decoder (src/geometry/rle.ts) reads compressed RLE strings to the same picture", async () => {
  const cr = CASES.find((c) => c.item.leaf.leaf === "ContactRelationship_TypeTwo")!.item;
  const bits = new BitMask(W, H);
  for (let y = 3; y <= 8; y++) for (let x = 5; x <= 10; x++) bits.set(x, y);
  const compressed = encodeRle(bits);
  assert.equal(typeof compressed.counts, "string");
  const viaDefault = await buildEpicMessages({ ...cr, masks: { masklet_reference_object: [compressed] } }, { templates, coordMode: "absolute", variant: "box-overlay" });
  const viaTest = await buildEpicMessages({ ...cr, masks: { masklet_reference_object: [REF] } }, { templates, coordMode: "absolute", variant: "box-overlay", decodeMask: decodeListRle });
  assert.equal(imageParts(viaDefault)[1]!.base64, imageParts(viaTest)[1]!.base64);
  // A malformed reference RLE is a data error naming the field and instance.
  const broken = { ...cr, masks: { masklet_reference_object: [REF, { size: [H, W], counts: [5, 3] } as RleJson] } };
  await assert.rejects(buildEpicMessages(broken, { templates, coordMode: "absolute", variant: "box-overlay" }), (e: unknown) => e instanceof DataError && /mask_annotation\.masklet_reference_object\[1\]/.test(e.message));
});

test("the 3 px border: one pixel outside the mask's box, its edge, one pixel inside", () => {
  const box = { x0: 5, y0: 3, x1: 10, y1: 8 };
  const row = (y: number) => Array.from({ length: W }, (_, x) => (onBoxBorder(box, x, y) ? "#" : ".")).join("");
  assert.equal(row(1), "................");
  assert.equal(row(2), "....########....");
  assert.equal(row(4), "....########....");
  assert.equal(row(5), "....###..###....");
  assert.equal(row(9), "....########....");
  assert.equal(row(10), "................");
});

test("box-overlay errors name the task and the mask field", async () => {
  const ar = CASES.find((c) => c.item.leaf.leaf === "AffordanceRegion")!.item;
  const noMask = { ...ar, masks: { masklet_affordance_region: [REF] } };
  await assert.rejects(
    buildEpicMessages(noMask, { templates, coordMode: "absolute", variant: "box-overlay", decodeMask: decodeListRle }),
    (e: unknown) => e instanceof DataError && /mask_annotation\.masklet_reference_area/.test(e.message) && /Manipulation\/AffordanceRegion/.test(e.message),
  );
  const empty = { ...ar, masks: { masklet_reference_area: [] } };
  await assert.rejects(buildEpicMessages(empty, { templates, coordMode: "absolute", variant: "box-overlay", decodeMask: decodeListRle }), /empty/);
  const blank = { ...ar, masks: { masklet_reference_area: [rleOf(() => false)] } };
  await assert.rejects(buildEpicMessages(blank, { templates, coordMode: "absolute", variant: "box-overlay", decodeMask: decodeListRle }), /no set pixels/);
  const wrongSize = { ...ar, masks: { masklet_reference_area: [rleOf(() => true, 8, 8)] } };
  await assert.rejects(buildEpicMessages(wrongSize, { templates, coordMode: "absolute", variant: "box-overlay", decodeMask: decodeListRle }), /8x8 but .* is 16x12/);
});

test("same input, same bytes (box-overlay PNG included)", async () => {
  for (const { item } of CASES) {
    const field = REFERENCE_MASK[familyOf(item.leaf)];
    for (const variant of OVERLAY_VARIANTS) {
      if (variant === "box-overlay" && !field) continue;
      const a = await buildEpicMessages(item, { templates, coordMode: "0-1", variant, decodeMask: decodeListRle });
      const b = await buildEpicMessages(structuredClone(item), { templates: loadEpicTemplates(), coordMode: "0-1", variant, decodeMask: decodeListRle });
      assert.equal(JSON.stringify(a), JSON.stringify(b), `${item.task} ${variant}`);
    }
  }
});

test("textFieldsOf reads scalars and 1-element lists, applies the converters' clean-ups, and names missing fields", () => {
  const tl = (text: Record<string, unknown>) => makeItem("Material", text);
  assert.deepEqual(textFieldsOf(tl({ text_label: "a wooden chair" })), { target_object_description: "a wooden chair" });
  assert.deepEqual(textFieldsOf(tl({ text_label: ["a wooden chair", "ignored"] })), { target_object_description: "a wooden chair" });
  assert.throws(() => textFieldsOf(tl({ target_object_description_en: ["x"] })), (e: unknown) => e instanceof DataError && /text_annotation\.text_label/.test(e.message) && /missing/.test(e.message));
  assert.throws(() => textFieldsOf(tl({ text_label: [] })), /text_annotation\.text_label.*empty list/);
  // Affordance: text_label, else task_description_en (the converter's `or`).
  const ar = (text: Record<string, unknown>) => makeItem("AffordanceRegion", text);
  assert.deepEqual(textFieldsOf(ar({ text_label: [], task_description_en: ["pour water"], reference_object_description_en: "the kettle" })), { reference_object_description: "the kettle", task_description: "pour water" });
  assert.throws(() => textFieldsOf(ar({ reference_object_description_en: "the kettle" })), /text_label.*task_description_en/);
  assert.throws(() => textFieldsOf(ar({ text_label: "pour" })), /reference_object_description_en/);
  // Placement region needs both descriptions.
  assert.throws(() => textFieldsOf(makeItem("PlacementRegion", { reference_object_description_en: "a box" })), /placement_region_description_en/);
  // Ground detection and visual matching use no text field.
  assert.deepEqual(textFieldsOf(makeItem("GroundDetection", {})), {});
  assert.deepEqual(textFieldsOf(makeItem("VisualMatching", {})), {});
  // Clean-ups of the official converters.
  assert.equal(normalizeTargetAreaDescription(" the sofa 22 the desk 222 "), "the sofa, the desk");
  assert.equal(normalizeTargetAreaDescription("room 2 and room 12"), "room 2 and room 12");
  assert.equal(normalizeReferenceObjects("the cup2the plate22 the fork"), "the cup, the plate, the fork");
  assert.deepEqual(textFieldsOf(makeItem("ContactRelationship_TypeOne", { text_label: "cup2plate" })), { reference_object_description: "cup2plate" });
});

test("a template file with other wording and the same keys can be passed; gaps are reported", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-epic-prompt-"));
  const data = YAML.parse(readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../templates/epic.yaml"), "utf8")) as Record<string, any>;
  data.name = "official-like";
  data.feasible_path_ego = { system: "Route helper.", user: "Two images: scene and overlay.\n{images}\nTarget Area Description: {target_area_description}.\n{coordinate_instruction}\nReturn {\"points\": [...]}" };
  const file = path.join(dir, "custom.yaml");
  writeFileSync(file, YAML.stringify(data));
  const custom = loadEpicTemplates(file);
  assert.equal(custom.name, "official-like");
  assert.notEqual(custom.hash, templates.hash);
  const fp = CASES[2]!.item;
  const messages = await buildEpicMessages(fp, { templates: custom, coordMode: "absolute" });
  assert.deepEqual(messages[0]!.content, [{ type: "text", text: "Route helper." }]);
  assert.match(userText(messages), /Target Area Description: the kitchen doorway\./);
  // Without {reference_hint} the text cannot say the overlay changed: refuse the other variants.
  await assert.rejects(buildEpicMessages(fp, { templates: custom, coordMode: "absolute", variant: "no-overlay" }), (e: unknown) => e instanceof UsageError && /reference_hint/.test(e.message));
  // Unknown placeholders are an error naming the template entry.
  data.ground_detection = { system: "x", user: "{images} {scene_description}" };
  writeFileSync(file, YAML.stringify(data));
  await assert.rejects(buildEpicMessages(CASES[1]!.item, { templates: loadEpicTemplates(file), coordMode: "absolute" }), /ground_detection\.user .*\{scene_description\}/);
  // Missing entries are listed.
  delete data.placement_region;
  delete data.contact_relationship.type_two;
  delete data.coordinate_instructions["0-1000"];
  writeFileSync(file, YAML.stringify(data));
  assert.throws(() => loadEpicTemplates(file), (e: unknown) => e instanceof UsageError && /placement_region/.test(e.message) && /contact_relationship\.type_two/.test(e.message) && /coordinate_instructions\.0-1000/.test(e.message));
});
