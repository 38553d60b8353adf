/**
 * scene.json back to a Scene (src/world/house/scene-from-json.ts): the inverse of sceneToJson on a
 * generated house and on the bundled VCN example (byte for byte), the same pictures from the
 * loaded house as from the original, and every malformed file reported by file and field.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { DataError } from "../../src/core/problems.js";
import { readLibraries, type Catalogue } from "../../src/world/assets/catalog.js";
import { ModelLibrary } from "../../src/world/assets/models.js";
import { sceneFromJson } from "../../src/world/house/scene-from-json.js";
import { generateHouse, sceneToJson } from "../../src/world/house/index.js";
import { sceneMeshes, TextureCache } from "../../src/world/meshes.js";
import { renderView } from "../../src/world/render/index.js";
import type { Scene } from "../../src/world/types.js";

const MINI = path.resolve(import.meta.dirname, "../../examples/vcn-mini/houses");

let catalogue: Catalogue;
let library: ModelLibrary;
let house: Scene;
before(async () => {
  catalogue = readLibraries();
  library = new ModelLibrary();
  house = await generateHouse({ catalogue, library, seed: 7, rooms: 4 });
});
after(() => library.close());

/** scene.json as a reader gets it: the text parsed again. */
const asRead = (scene: Scene): Record<string, unknown> => JSON.parse(JSON.stringify(sceneToJson(scene)));

test("sceneToJson(sceneFromJson(sceneToJson(s))) equals sceneToJson(s) for a generated house", () => {
  const json = asRead(house);
  const loaded = sceneFromJson(json, "scene.json");
  assert.deepEqual(asRead(loaded), json);
  assert.equal(loaded.objects.length, house.objects.length);
  assert.equal(loaded.walls.reduce((n, w) => n + w.openings.length, 0), house.walls.reduce((n, w) => n + w.openings.length, 0));
});

test("the bundled VCN example's scene.json files read back to the same bytes", () => {
  for (const id of ["house_001", "house_002"]) {
    const text = readFileSync(path.join(MINI, id, "scene.json"), "utf8");
    assert.equal(JSON.stringify(sceneToJson(sceneFromJson(JSON.parse(text), id)), null, 1) + "\n", text, id);
  }
});

test("the loaded house renders the original's picture but for edge pixels flipped by the 1e-4 m rounding", async () => {
  // Measured on 4-room houses of seeds 3, 7 and 11, two views per room (24 views, 192 x 192): mean
  // difference <= 0.0124 levels (max channel), at most 13 pixels (0.035 %) off by more than 8
  // levels, at most 1 pixel with another instance. The bounds below are about three times those.
  const textures = new TextureCache();
  const loaded = sceneFromJson(asRead(house), "scene.json");
  const original = await sceneMeshes(house, library, catalogue, { textures });
  const again = await sceneMeshes(loaded, library, catalogue, { textures });
  for (const room of house.rooms) {
    const xs = room.polygon.map((p) => p[0]), ys = room.polygon.map((p) => p[1]);
    const position: [number, number, number] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2, 1.41];
    for (const yaw of [0.4, 2.5]) {
      const camera = { position, yaw, pitch: -0.2, vfovDeg: 90, width: 192, height: 192 };
      const a = renderView(original, camera, { lights: house.lights, antialias: false });
      const b = renderView(again, camera, { lights: loaded.lights, antialias: false });
      let sum = 0, far = 0, other = 0;
      for (let i = 0; i < a.instance.length; i++) if (a.instance[i] !== b.instance[i]) other++;
      for (let i = 0; i < a.rgb.length; i += 3) {
        const d = Math.max(Math.abs(a.rgb[i]! - b.rgb[i]!), Math.abs(a.rgb[i + 1]! - b.rgb[i + 1]!), Math.abs(a.rgb[i + 2]! - b.rgb[i + 2]!));
        sum += d;
        if (d > 8) far++;
      }
      const pixels = a.rgb.length / 3;
      const where = `${room.id}, yaw ${yaw}`;
      assert.ok(sum / pixels <= 0.04, `${where}: mean difference ${(sum / pixels).toFixed(4)} levels`);
      assert.ok(far <= pixels * 0.001, `${where}: ${far} pixels differ by more than 8 levels`);
      assert.ok(other <= pixels * 0.0001, `${where}: ${other} pixels show another instance`);
    }
  }
});

test("keys other writers add beside the scene are ignored; objectId and modelName null mean absent", () => {
  const json = { ...asRead(house), occupancy: { file: "occupancy.png" }, names: { 1: "x" } };
  const loaded = sceneFromJson(json, "scene.json");
  assert.deepEqual(asRead(loaded), asRead(house));
  const withNulls = asRead(house) as { objects: Array<Record<string, unknown>> };
  withNulls.objects[0]!["modelName"] = null;
  assert.equal("modelName" in sceneFromJson(withNulls, "scene.json").objects[0]!, false);
});

/** The DataError's problems as "field: message" lines. */
function problemsOf(json: unknown): string[] {
  try {
    sceneFromJson(json, "houses/h/scene.json");
  } catch (error) {
    assert.ok(error instanceof DataError, `expected DataError, got ${error}`);
    for (const p of error.problems) assert.equal(p.file, "houses/h/scene.json");
    return error.problems.map((p) => `${p.field ?? ""}: ${p.message}`);
  }
  assert.fail("no DataError");
}

/** A copy of the house's scene.json changed by `edit`. */
function edited(edit: (j: any) => void): unknown {
  const j = asRead(house);
  edit(j);
  return j;
}

test("malformed files: a DataError naming the file and each bad field", () => {
  assert.match(problemsOf(null).join("\n"), /^: /);
  assert.match(problemsOf([]).join("\n"), /^: /);
  assert.deepEqual(problemsOf(edited((j) => delete j.rooms)).map((l) => l.split(":")[0]), ["rooms"]);
  assert.match(problemsOf(edited((j) => (j.rooms[0].type = "ballroom"))).join("\n"), /^rooms\[0\]\.type: /);
  assert.match(problemsOf(edited((j) => (j.objects[1].position = [1, "2", 0]))).join("\n"), /^objects\[1\]\.position\[1\]: /);
  assert.match(problemsOf(edited((j) => (j.objects[0].category = "spaceship"))).join("\n"), /^objects\[0\]\.category: /);
  assert.match(problemsOf(edited((j) => (j.walls[0].thickness = -0.1))).join("\n"), /^walls\[0\]\.thickness: /);
  assert.match(problemsOf(edited((j) => (j.rooms[0].polygon = [[0, 0], [1, 0]]))).join("\n"), /^rooms\[0\]\.polygon: /);
  assert.match(problemsOf(edited((j) => (j.lights[0].position[2] = Infinity))).join("\n"), /^lights\[0\]\.position\[2\]: /);
});

test("references: duplicate ids, unknown rooms, walls and objects, reversed boxes, all reported at once", () => {
  const json = asRead(house) as any;
  const referenced = new Set([...json.walls.flatMap((w: any) => w.openings.map((o: any) => o.objectId)), ...json.objects.map((o: any) => o.supportId)]);
  const k = json.objects.findIndex((o: any, i: number) => i >= 5 && !referenced.has(o.id));
  const lines = problemsOf(
    edited((j) => {
      j.objects[k].id = j.objects[0].id;
      j.objects[2].room = "room_99";
      j.objects[3].supportId = 9999;
      j.doors[0].wallId = "wall_x";
      j.walls[1].rooms = ["room_77", null];
      j.lights[0].room = "room_88";
      j.objects[4].bbox.min[0] = j.objects[4].bbox.max[0] + 1;
      j.bounds.min[0] = j.bounds.max[0] + 1;
    }),
  );
  assert.deepEqual(lines.map((l) => l.split(":")[0]).sort(), [
    "bounds",
    "doors[0].wallId",
    "lights[0].room",
    `objects[${k}].id`,
    "objects[2].room",
    "objects[3].supportId",
    "objects[4].bbox",
    "walls[1].rooms[0]",
  ].sort());
  assert.ok(lines.some((l) => /room_99.*not in rooms/.test(l)));
});

test("issue 25: coordinates beyond 10 km, a house wider than 100 m, negative or absurd sizes are refused before any grid is built", () => {
  assert.deepEqual(problemsOf(edited((j) => (j.walls[0].a = [1e16, 0]))), ["walls[0].a[0]: must be between -10000 and 10000 (metres)"]);
  assert.deepEqual(problemsOf(edited((j) => (j.objects[0].size.width = -1))), ["objects[0].size.width: must be above 0 and at most 100 (metres)"]);
  assert.deepEqual(problemsOf(edited((j) => (j.objects[0].yaw = 1e9))), [`objects[0].yaw: must be between ${-200 * Math.PI} and ${200 * Math.PI} (radians: 100 turns)`]);
  assert.deepEqual(problemsOf(edited((j) => (j.seed = 2 ** 53 + 2))), ["seed: must be a whole number within ±(2^53 - 1) (a safe integer)"]);
  // A 10 km wall inside a 10 km box would make a 200,000 x 200,000 plan grid (world/space/grid.ts).
  assert.deepEqual(problemsOf(edited((j) => (j.bounds = { min: [0, 0], max: [9000, 10] }))), ["bounds: spans 9000 m x 10 m; a scene spans at most 100 m each way"]);
});
