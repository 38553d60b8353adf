/**
 * Intents resolve uniquely among every shown object that serves the same request (paper §3
 * "Question text"; issue 27, item 5), on hand-made object lists at 1024 px (side cue margin 24 px,
 * distance cue margin 0.3 m).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { INTENT_FAMILIES, intentIdentity, REQUEST_SERVED_BY, servingCategories } from "../../../../src/benchmarks/egopath/construct/identity.js";
import type { ViewTarget } from "../../../../src/benchmarks/egopath/construct/types.js";
import type { SceneObject } from "../../../../src/world/types.js";

const SIDE = 1024;

function shown(id: number, category: string, screenX: number, distanceM: number, colour = "brown"): ViewTarget {
  const object = { id, category, color: { name: colour, rgb: [0, 0, 0] } } as unknown as SceneObject;
  return { object, distanceM, visiblePixels: 1000, visibleFraction: 1, box: [screenX - 10, 400, screenX + 10, 500], screenX, large: false, score: 0 };
}
const first = () => 0;

test("a dresser in view also takes a mug: the nightstand needs a cue, and without one the intent is dropped", () => {
  const nightstand = shown(1, "nightstand", 200, 3);
  const dresser = shown(2, "dresser", 700, 3);
  const chair = shown(3, "chair", 100, 1); // serves no surface request: not a rival
  assert.deepEqual(intentIdentity(nightstand, [nightstand, dresser, chair], SIDE, first), {
    family: "place_object",
    request: "I need a surface to set my mug on.",
    text: "I need a surface to set my mug on. The one farthest to the left.",
    residualCue: "side",
    ambiguityCount: 2,
  });
  // Side by side (20 px < 24 px apart), 0.1 m apart in depth (< 0.3 m), both brown: nothing tells them apart.
  const desk = shown(4, "desk", 220, 3.1);
  assert.equal(intentIdentity(nightstand, [nightstand, desk], SIDE, first), null);
  // Alone among the surfaces: the request alone.
  assert.deepEqual(intentIdentity(nightstand, [nightstand, chair], SIDE, () => 1), {
    family: "place_object", request: "Where can I put this plate down?", text: "Where can I put this plate down?", residualCue: "none", ambiguityCount: 1,
  });
});

test("one can sit on a bed: a chair beside a bed is named by its colour", () => {
  const chair = shown(1, "chair", 500, 4, "red");
  const bed = shown(2, "bed", 510, 4.1, "white");
  assert.deepEqual(intentIdentity(chair, [bed, chair], SIDE, first), {
    family: "sit_rest",
    request: "My feet hurt; I'd like to sit for a moment.",
    text: "My feet hurt; I'd like to sit for a moment. The red one.",
    residualCue: "color",
    ambiguityCount: 2,
  });
});

test("a request a rival also serves gives way to one only the target serves; a request never goes to a target it does not fit", () => {
  const bathtub = shown(1, "bathtub", 500, 3);
  const shower = shown(2, "shower", 505, 3.05);
  // "wash off after my run" (tried first) is served by both; "a long soak" by the bathtub alone.
  assert.deepEqual(intentIdentity(bathtub, [bathtub, shower], SIDE, first), {
    family: "bathe", request: "I'd like a long soak.", text: "I'd like a long soak.", residualCue: "none", ambiguityCount: 1,
  });
  // A shower cannot give a soak: its one request is ambiguous here, so no intent; pick sees one choice.
  const choices: number[] = [];
  assert.equal(intentIdentity(shower, [bathtub, shower], SIDE, (n) => (choices.push(n), 0)), null);
  assert.deepEqual(choices, [1]);
  assert.equal(intentIdentity(shown(3, "vase", 300, 3), [], SIDE, first), null);
});

test("every request has its serving categories, covering its family's targets, and names none of them", () => {
  const requests = INTENT_FAMILIES.flatMap((f) => f.requests);
  assert.deepEqual([...REQUEST_SERVED_BY.keys()].sort(), [...requests].sort());
  for (const family of INTENT_FAMILIES) {
    for (const category of family.categories) assert.ok(family.requests.some((r) => servingCategories(r).includes(category)), `${family.family}: ${category}`);
    for (const request of family.requests) {
      for (const category of servingCategories(request)) assert.ok(!new RegExp(`\\b${category}\\b`, "i").test(request), `"${request}" names ${category}`);
    }
  }
  assert.deepEqual(servingCategories("I'd like a long soak."), ["bathtub"]);
  assert.throws(() => servingCategories("Fetch me a unicorn."), /no serving categories/);
});
