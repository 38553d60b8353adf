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
    // A partner of the same task when one exists (another view, as many markers).
    const sameTask = items.some((o) => o.task === item.task && `${o.sceneId}/${o.viewId}` !== `${item.sceneId}/${item.viewId}` && count(o) === count(item));
    if (sameTask) assert.equal(partner.task, item.task, item.id);
    assert.notEqual(`${partner.sceneId}/${partner.viewId}`, `${item.sceneId}/${item.viewId}`);
  }
  // Which questions can pair, from the visible-waypoints files alone: a question pairs when a
  // question of another view shows as many markers. In the example set the a1/b1 sheets show 18
  // markers on two views, 8 on three, 15 and 7 on one each; the route sheets show 38 and 20 on two
  // views each, and 36, 27, 32 and 37 on one each.
  const markers = (i: (typeof items)[number]) => i.waypoints.length;
  const view = (i: (typeof items)[number]) => `${i.sceneId}/${i.viewId}`;
  const pairs = (i: (typeof items)[number]) => items.some((o) => view(o) !== view(i) && markers(o) === markers(i));
  assert.deepEqual([...new Set(items.filter((i) => i.kind === "set").map(markers))].sort((x, y) => x - y), [7, 8, 15, 18]);
  const expectedPaired = items.filter(pairs).map((i) => i.id).sort();
  // The 4 set questions of the 18-marker views and the 6 of the 8-marker views; the route
  // questions of the 38-marker views (a2 2 + 2, b2 2 + 2, c 2 + 2) and the 20-marker views (a2 2 + 1, b2 2 + 1, c 2 + 1).
  assert.equal(expectedPaired.length, 4 + 6 + 12 + 9);
  assert.deepEqual([...a.swap.keys()].sort(), expectedPaired);
  assert.deepEqual([...a.unpaired].sort(), items.filter((i) => !pairs(i)).map((i) => i.id).sort());
  const { build } = egopath.preparePrompts(items, { source: "release", control: "mismatched-overlay", seed: 5 });
  for (const id of a.unpaired) assert.ok("error" in build(items.find((i) => i.id === id)!));

  // Route pairing: show house_001 view 1 with 27 waypoints, as many as house_001 view 2. Its a2
  // questions then have exactly one same-task partner image (view 2's a2 overlay), and view 2's
  // two a2 questions have view 1's.
  const paired = structuredClone(items).map((i) =>
    i.kind === "route" && i.sceneId === "house_001" && i.viewId === "1" ? { ...i, displayed: i.displayed.slice(0, 27) } : i,
  );
  const overlay = (v: number) => path.join(ROOT, `assets/house_001/view_${v}/rgb_overlay_a2.png`);
  const swapped = planImageSwap(paired, 5);
  for (const id of ["house_001_v1_a2_00", "house_001_v1_a2_01"]) assert.equal(swapped.swap.get(id), overlay(2), id);
  for (const id of ["house_001_v2_a2_00", "house_001_v2_a2_01"]) assert.equal(swapped.swap.get(id), overlay(1), id);
  // Paired now besides those above: the eleven route questions of the two views (a2 2 + 2, b2 2 + 2, c 2 + 1).
  assert.equal(swapped.swap.size, expectedPaired.length + 11);
  const pairedBuild = egopath.preparePrompts(paired, { source: "release", control: "mismatched-overlay", seed: 5 }).build;
  const built = await pairedBuild(paired.find((i) => i.id === "house_001_v1_a2_00")!);
  assert.ok(!("error" in built) && built.info["image"] === overlay(2));
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
