import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { loadReleaseOrThrow } from "../../../src/benchmarks/egopath/load.js";
import { egopath } from "../../../src/benchmarks/egopath/index.js";
import { buildMessages, loadTemplates, OFFICIAL_OUTPUT_INSTRUCTION, planImageSwap, templateFields } from "../../../src/benchmarks/egopath/prompt.js";

const ROOT = path.resolve(import.meta.dirname, "../../../examples/egopath-mini");
const { items } = loadReleaseOrThrow(ROOT);
const routeItem = items.find((i) => i.kind === "route")!;

test("release prompts: the row's system and user prompt, the image first, then the official output instruction", () => {
  const messages = buildMessages(routeItem, { source: "release", control: "none" });
  assert.equal(messages.length, 2);
  assert.deepEqual(messages[0], { role: "system", content: [{ type: "text", text: routeItem.systemPrompt }] });
  const [image, text] = messages[1]!.content;
  assert.equal(image!.type, "image");
  assert.equal(image!.type === "image" && image!.base64, readFileSync(routeItem.imagePath).toString("base64"));
  assert.equal(image!.type === "image" && image!.mediaType, "image/png");
  assert.deepEqual(text, { type: "text", text: `${routeItem.userPrompt}\n${OFFICIAL_OUTPUT_INSTRUCTION}` });
  assert.equal(OFFICIAL_OUTPUT_INSTRUCTION, 'Return only a JSON object of the form {"display_ids":[...]} with no extra text.');
});

test("templates: our wording filled from the row's fields", () => {
  const templates = loadTemplates();
  const messages = buildMessages(routeItem, { source: "templates", control: "none", templates });
  const user = messages[1]!.content[1]!;
  assert.equal(user.type, "text");
  const text = user.type === "text" ? user.text : "";
  assert.ok(text.includes(`You start at waypoint ${routeItem.startId}.`));
  assert.ok(text.includes(`Waypoints shown: ${routeItem.displayed.join(", ")}.`));
  // A generated set names the target by the phrase that singles it out (its target_phrase).
  const target = String(routeItem.groundTruth["target_phrase"]);
  assert.ok(routeItem.task === "c" || text.includes(`to the ${target}.`), text);
  assert.ok(!/\{[a-z_]+\}/.test(text), "every placeholder filled");
  assert.match(templates.hash, /^[0-9a-f]{64}$/);
});

test("text-only control sends no image", () => {
  const messages = buildMessages(routeItem, { source: "release", control: "text-only" });
  assert.deepEqual(messages[1]!.content.map((p) => p.type), ["text"]);
});

test("mismatched-overlay: another view's image with the same number of candidates, seeded", async () => {
  const count = (i: (typeof items)[number]) => (i.kind === "set" ? i.candidates.length : i.displayed.length);
  const a = planImageSwap(items, 5);
  const b = planImageSwap(items, 5);
  assert.deepEqual([...a.swap], [...b.swap]);
  for (const item of items) {
    const image = a.swap.get(item.id);
    if (!image) {
      assert.ok(a.unpaired.includes(item.id));
      continue;
    }
    const partner = items.find((o) => o.imagePath === image)!;
    assert.equal(count(partner), count(item));
    assert.equal(partner.task, item.task, "a same-task partner exists for every paired item here");
    assert.notEqual(`${partner.sceneId}/${partner.viewId}`, `${item.sceneId}/${item.viewId}`);
  }
  // In the example set every a1/b1 image shows 80 candidates over 6 views, so all 12 pair; the six
  // route views show 51, 60, 52, 34, 33 and 37 waypoints (visible_waypoints_*.json), all different,
  // so none of the 29 route questions has a partner.
  const setIds = items.filter((i) => i.task === "a1" || i.task === "b1").map((i) => i.id);
  const routeIds = items.filter((i) => i.kind === "route").map((i) => i.id);
  assert.equal(setIds.length, 12);
  assert.equal(routeIds.length, 29);
  assert.deepEqual([...a.swap.keys()].sort(), [...setIds].sort());
  assert.deepEqual([...a.unpaired].sort(), [...routeIds].sort());
  const { build } = egopath.preparePrompts(items, { source: "release", control: "mismatched-overlay", seed: 5 });
  for (const id of a.unpaired) assert.ok("error" in build(items.find((i) => i.id === id)!));

  // Route pairing: show house_004 view 1 with 33 waypoints, as many as house_004 view 0. Its a2
  // questions then have exactly one same-task partner image (view 0's a2 overlay), and view 0's
  // two a2 questions have view 1's.
  const paired = structuredClone(items).map((i) =>
    i.kind === "route" && i.sceneId === "house_004" && i.viewId === "1" ? { ...i, displayed: i.displayed.slice(0, 33) } : i,
  );
  const overlay = (view: number) => path.join(ROOT, `assets/house_004/view_${view}/rgb_overlay_a2.png`);
  const swapped = planImageSwap(paired, 5);
  for (const id of ["house_004_v1_a2_00", "house_004_v1_a2_01"]) assert.equal(swapped.swap.get(id), overlay(0), id);
  for (const id of ["house_004_v0_a2_00", "house_004_v0_a2_01"]) assert.equal(swapped.swap.get(id), overlay(1), id);
  // Paired now: the 12 set questions and house_004's ten route questions (a2 2, b2 2, c 1 per view).
  assert.equal(swapped.swap.size, 12 + 10);
  const pairedBuild = egopath.preparePrompts(paired, { source: "release", control: "mismatched-overlay", seed: 5 }).build;
  const built = await pairedBuild(paired.find((i) => i.id === "house_004_v1_a2_00")!);
  assert.ok(!("error" in built) && built.info["image"] === overlay(0));
});

test("identical input gives identical request bytes", () => {
  const one = JSON.stringify(buildMessages(routeItem, { source: "release", control: "none" }));
  const two = JSON.stringify(buildMessages(routeItem, { source: "release", control: "none" }));
  assert.equal(one, two);
});

test("template fields: the target phrase of a generated set, else colour and category; the request from generated_question", () => {
  const base = { ...routeItem, groundTruth: { target_color_name: "red", target_category: "chair", robot_diameter_m: 0.6 } };
  assert.equal(templateFields(base).target, "red chair");
  assert.equal(templateFields({ ...base, groundTruth: { ...base.groundTruth, target_phrase: "leftmost chair" } }).target, "leftmost chair");
  assert.equal(templateFields({ ...base, groundTruth: { generated_question: "I want to sit down." } }).intent, "I want to sit down.");
  assert.equal(templateFields({ ...base, groundTruth: { intent_text: "A", generated_question: "B" } }).intent, "A");
});
