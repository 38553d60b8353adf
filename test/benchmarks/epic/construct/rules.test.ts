/** The construction rules of the generated EPIC-Bench set, on hand-made cases with hand-worked answers. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { dominantMaterial } from "../../../../src/benchmarks/epic/construct/house.js";
import { placementFits } from "../../../../src/benchmarks/epic/construct/manipulation.js";
import { inFrontZone } from "../../../../src/benchmarks/epic/construct/navigation.js";
import { facingOf, personSide } from "../../../../src/benchmarks/epic/construct/targets.js";
import type { EpicView } from "../../../../src/benchmarks/epic/construct/view.js";
import { materialClass, partOf, plural } from "../../../../src/benchmarks/epic/construct/words.js";
import type { SceneObject } from "../../../../src/world/types.js";

function object(id: number, at: [number, number, number], yaw: number, size: { width: number; depth: number; height: number }, supportId: number | null = null): SceneObject {
  return {
    id, name: `o_${id}`, category: "table", catalogId: "x", room: "room_0", position: at, yaw, size, supportId, inWall: false, color: { name: "white", rgb: [255, 255, 255] }, materials: [],
    bbox: { min: [at[0] - size.width / 2, at[1] - size.depth / 2, at[2]], max: [at[0] + size.width / 2, at[1] + size.depth / 2, at[2] + size.height] },
  };
}

test("plural nouns", () => {
  assert.deepEqual(["chair", "bench", "shelf", "person", "trash can", "box", "tv"].map(plural), ["chairs", "benches", "shelves", "people", "trash cans", "boxes", "TVs"]);
});

test("a model's material class covers at least half of its surface", () => {
  assert.equal(dominantMaterial(["Oak_top", "chrome", "Material.001"], [2, 1, 1]), "wood"); // 2 of 4
  assert.equal(dominantMaterial(["oak", "chrome"], [1, 1.5]), "metal");
  assert.equal(dominantMaterial(["oak", "chrome", "glass"], [1, 1, 1.5]), null); // glass 1.5 of 3.5
  assert.equal(dominantMaterial(["Material.001"], [1]), null);
  // Bedding names fabric; "Sheet_metal" is metal, not a bed sheet; a texture file name counts (house.ts joins it to the material name).
  assert.deepEqual(["pillow", "sheet", "bed_sheet", "Sheet_metal", "Material.002 textures/oak_planks.jpg"].map(materialClass), ["fabric", "fabric", "fabric", "metal", "wood"]);
});

test("named parts come from mesh-group names, per category", () => {
  assert.equal(partOf("cabinet", "Metal-Handles")?.part, "handle");
  assert.equal(partOf("lamp", "Lamp_shade")?.part, "lampshade");
  assert.equal(partOf("chair", "Lamp_shade"), null);
  assert.equal(partOf("person", "hair_grey")?.part, "hair");
  assert.equal(partOf("person", "Metal-Handles"), null);
  assert.equal(partOf("sofa", "wooden_leg_wood_for_legs.jpg")?.part, "legs");
});

test("a person's own left and right (facing -y at yaw 0, so their left is +x), 0.3 m dead band", () => {
  const person = object(1, [0, 0, 0], 0, { width: 0.5, depth: 0.3, height: 1.7 });
  const at = (x: number, y: number) => object(2, [x, y, 0], 0, { width: 0.2, depth: 0.2, height: 0.2 });
  assert.equal(personSide(person, at(1, 0)), "left");
  assert.equal(personSide(person, at(-1, 2)), "right");
  assert.equal(personSide(person, at(0.2, -1)), null);
  // Turned half a circle (facing +y): sides swap.
  assert.equal(personSide({ ...person, yaw: Math.PI }, at(1, 0)), "right");
});

test("the goal area in front of an object: from its front face 0.8 m out, half its width plus 0.1 m to each side", () => {
  const o = object(1, [0, 0, 0], 0, { width: 1, depth: 0.5, height: 0.8 }); // front faces -y, front face at y = -0.25
  assert.equal(inFrontZone(o, [0, -0.5]), true);
  assert.equal(inFrontZone(o, [0, -1.04]), true);
  assert.equal(inFrontZone(o, [0, -1.06]), false);
  assert.equal(inFrontZone(o, [0.55, -0.5]), true);
  assert.equal(inFrontZone(o, [0.65, -0.5]), false);
  assert.equal(inFrontZone(o, [0, 0.5]), false); // behind
});

test("facing as the camera sees it", () => {
  // Camera 3 m south of the object, looking north (+y): its right is +x.
  const view = { camera: { position: [0, -3, 1.5], yaw: Math.PI / 2, pitch: 0, vfovDeg: 60, width: 100, height: 100 } } as unknown as EpicView;
  const at = (yaw: number) => object(1, [0, 0, 0], yaw, { width: 0.5, depth: 0.5, height: 1 });
  assert.equal(facingOf({ view }, at(0)), "camera"); // front -y, towards the camera
  assert.equal(facingOf({ view }, at(Math.PI)), "away");
  assert.equal(facingOf({ view }, at(Math.PI / 2)), "right"); // front (sin, -cos) = +x
  assert.equal(facingOf({ view }, at(-Math.PI / 2)), "left");
  assert.equal(facingOf({ view }, at((45 * Math.PI) / 180)), null); // 45 degrees: between the bins
});

test("placement feasibility: the footprint with a 1 cm margin fits the part of the top left free", () => {
  const table = object(1, [0.5, 0.25, 0], 0, { width: 1, depth: 0.5, height: 0.75 }); // top x 0..1, y 0..0.5
  const onIt = object(2, [0.3, 0.25, 0.75], 0, { width: 0.6, depth: 0.5, height: 0.1 }, 1); // covers x 0..0.6: free 0.4 x 0.5
  const scene = { objects: [table, onIt] };
  const item = (w: number, d: number, h = 0.1) => ({ id: 9, size: { width: w, depth: d, height: h } });
  assert.equal(placementFits(scene, table, 0.75, item(0.3, 0.3)), true); // 0.32 x 0.32 in 0.4 x 0.5
  assert.equal(placementFits(scene, table, 0.75, item(0.45, 0.2)), true); // turned: 0.22 x 0.47
  assert.equal(placementFits(scene, table, 0.75, item(0.45, 0.45)), false); // 0.47 x 0.47
  // A cabinet hanging 0.3 m above the free part blocks items taller than that.
  const above = object(3, [0.8, 0.25, 1.05], 0, { width: 0.4, depth: 0.5, height: 0.5 });
  assert.equal(placementFits({ objects: [table, onIt, above] }, table, 0.75, item(0.3, 0.3, 0.2)), true);
  assert.equal(placementFits({ objects: [table, onIt, above] }, table, 0.75, item(0.3, 0.3, 0.4)), false);
});
