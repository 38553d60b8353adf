import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { loadReleaseOrThrow } from "../../../src/benchmarks/egopath/load.js";
import { egopath } from "../../../src/benchmarks/egopath/index.js";
import { buildMessages, loadTemplates, OFFICIAL_OUTPUT_INSTRUCTION, planImageSwap } from "../../../src/benchmarks/egopath/prompt.js";

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
  const target = `${routeItem.groundTruth["target_color_name"]} ${routeItem.groundTruth["target_category"]}`;
  assert.ok(routeItem.task === "c" || text.includes(target), text);
  assert.ok(!/\{[a-z_]+\}/.test(text), "every placeholder filled");
  assert.match(templates.hash, /^[0-9a-f]{64}$/);
});

test("text-only control sends no image", () => {
  const messages = buildMessages(routeItem, { source: "release", control: "text-only" });
  assert.deepEqual(messages[1]!.content.map((p) => p.type), ["text"]);
});

test("mismatched-overlay: another view's image with the same number of candidates, seeded", () => {
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
    assert.notEqual(`${partner.sceneId}/${partner.viewId}`, `${item.sceneId}/${item.viewId}`);
  }
  assert.ok(a.swap.size > items.length / 2);
  const { build } = egopath.preparePrompts(items, { source: "release", control: "mismatched-overlay", seed: 5 });
  for (const id of a.unpaired) assert.ok("error" in build(items.find((i) => i.id === id)!));
});

test("identical input gives identical request bytes", () => {
  const one = JSON.stringify(buildMessages(routeItem, { source: "release", control: "none" }));
  const two = JSON.stringify(buildMessages(routeItem, { source: "release", control: "none" }));
  assert.equal(one, two);
});
