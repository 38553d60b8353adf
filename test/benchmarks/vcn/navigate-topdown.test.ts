import assert from "node:assert/strict";
import { test } from "node:test";
import { topDownPicture, wallPieces, type TopDownInput } from "../../../src/benchmarks/vcn/navigate/topdown.js";
import { decodeRgb } from "../../../src/media/png.js";
import type { Vec3 } from "../../../src/sim/types.js";
import type { Scene, SceneObject } from "../../../src/world/types.js";
import { assertColour, type RGB } from "../../helpers/pixels.js";

/**
 * A one-room house drawn by hand: the bedroom [0, 4] x [0, 3] m inside 0.2 m walls on centre
 * lines 0.1 m outside it (bounds [-0.2, 4.2] x [-0.2, 3.2]), a door in the north wall at x 1.6-2.4,
 * a window in the east wall at y 1.0-2.0, one floor-standing box at x 0.2-0.6, y 0.2-0.5 and a rug.
 *
 * At 50 px/m the documented rule (topdown.ts) gives: margin 12 px, legend 22 px,
 *   width  = ceil(4.4 * 50) + 24 = 244,  height = ceil(3.4 * 50) + 24 + 22 = 216,
 *   pixel(x, y) = (12 + (x + 0.2) * 50, 12 + (3.2 - y) * 50).
 */
const furniture: SceneObject = {
  id: 1, name: "box_1", category: "table" as SceneObject["category"], catalogId: "test#box", room: "room_0", position: [0.4, 0.35, 0], yaw: 0,
  size: { width: 0.4, depth: 0.3, height: 0.7 }, bbox: { min: [0.2, 0.2, 0], max: [0.6, 0.5, 0.7] }, color: { name: "gray", rgb: [128, 128, 128] },
  materials: [], supportId: null, inWall: false,
};
/** A rug (0.01 m high) lies below the robot's obstacle band: it is not drawn as furniture. */
const rug: SceneObject = { ...furniture, id: 2, name: "rug_2", position: [2.8, 0.35, 0], bbox: { min: [2.6, 0.2, 0], max: [3.0, 0.5, 0.01] } };
const scene: Scene = {
  id: "house_test", seed: 1, ceilingHeight: 2.7,
  rooms: [{ id: "room_0", type: "bedroom", polygon: [[0, 0], [4, 0], [4, 3], [0, 3]], floorMaterial: "oak", wallMaterial: "plaster" }],
  walls: [
    { id: "wall_s", a: [-0.2, -0.1], b: [4.2, -0.1], thickness: 0.2, height: 2.7, rooms: ["room_0", null], openings: [] },
    { id: "wall_n", a: [-0.2, 3.1], b: [4.2, 3.1], thickness: 0.2, height: 2.7, rooms: [null, "room_0"], openings: [{ kind: "door", offset: 2.2, width: 0.8, bottom: 0, top: 2.1 }] },
    { id: "wall_w", a: [-0.1, -0.2], b: [-0.1, 3.2], thickness: 0.2, height: 2.7, rooms: [null, "room_0"], openings: [] },
    { id: "wall_e", a: [4.1, -0.2], b: [4.1, 3.2], thickness: 0.2, height: 2.7, rooms: ["room_0", null], openings: [{ kind: "window", offset: 1.7, width: 1.0, bottom: 0.9, top: 2.1 }] },
  ],
  doors: [{ id: "door_0", wallId: "wall_n", rooms: ["room_0", null], center: [2, 3.1], width: 0.8 }],
  objects: [furniture, rug],
  bounds: { min: [-0.2, -0.2], max: [4.2, 3.2] },
  lights: [],
};

/** Plan [x, y] -> Habitat [x, 0, -y]. */
const habitat = (x: number, y: number): Vec3 => [x, 0, -y];
const px = (x: number, y: number): [number, number] => [12 + (x + 0.2) * 50, 12 + (3.2 - y) * 50];

/** Start (1, 1) facing north, east to (3, 1), north to the final (3, 2); the view point (3.5, 2.5) is 0.707 m from it. */
function input(over: Partial<TopDownInput> = {}): TopDownInput {
  return {
    scene,
    episode: {
      start: habitat(1, 1),
      start_heading_deg: 0,
      goals: [{ view_points: [habitat(3.5, 2.5)], bbox: [[3.2, 0, -2.8], [3.8, 1, -2.2]] }],
      target_room: "region0",
    },
    path: [habitat(1, 1), habitat(2, 1), habitat(3, 1), habitat(3, 2)],
    collisions: [2],
    stop: true,
    ...over,
  };
}

const hex = (h: string): RGB => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
// The documented colours (TOPDOWN_COLOURS), written out here.
const WALL = hex("#1f2937"), WINDOW = hex("#93c5fd"), PAPER = hex("#ffffff"), BEDROOM = hex("#dbeafe"), FURNITURE = hex("#d1d5db");
const TARGET = hex("#f97316"), GOAL = hex("#c026d3"), GREEN = hex("#1a9850"), RED = hex("#d73027"), START = hex("#2563eb"), COLLISION = hex("#111827");

async function draw(over: Partial<TopDownInput> = {}, options = { pixelsPerMetre: 50 }) {
  return decodeRgb(await topDownPicture(input(over), options));
}

test("top-down picture: walls, door gap, window, rooms, furniture, target room, goal, path, collision, start and end at their computed pixels", async () => {
  const image = await draw();
  assert.deepEqual([image.width, image.height], [244, 216]);
  const at = (what: string, [x, y]: [number, number], colour: RGB) => assertColour(image, Math.floor(x), Math.floor(y), colour, what);
  at("south wall, centre line at x 2", px(2, -0.1), WALL);
  at("north wall at the door (x 2): a gap", px(2, 3.1), PAPER);
  at("north wall beside the door (x 1)", px(1, 3.1), WALL);
  at("east wall at the window (y 1.5)", px(4.1, 1.5), WINDOW);
  at("east wall beside the window (y 0.5)", px(4.1, 0.5), WALL);
  at("bedroom floor (0.5, 2.5)", px(0.5, 2.5), BEDROOM);
  at("furniture footprint (0.4, 0.3)", px(0.4, 0.3), FURNITURE);
  at("rug (2.8, 0.35): floor", px(2.8, 0.35), BEDROOM);
  at("target room outline on its west face (0, 2)", px(0, 2), TARGET);
  at("goal box west edge (3.2, 2.65)", px(3.2, 2.65), GOAL);
  at("nearest view point (3.5, 2.5)", px(3.5, 2.5), GOAL);
  at("path between (2, 1) and (3, 1)", px(2.5, 1), GREEN);
  at("collision at path[2] (3, 1)", px(3, 1), COLLISION);
  at("start (1, 1)", px(1, 1), START);
  at("start triangle points north: 0.2 m ahead is start-coloured", px(1, 1.2), START);
  at("start triangle: 0.2 m behind is not", px(1, 0.75), BEDROOM);
  at("final position (3, 2): success", px(3, 2), GREEN);
  at("1 m scale bar in the legend (x 12-62, y 204)", [37, 204], WALL);
});

test("top-down picture: a failure draws the path and the end red; success follows the rule when not given", async () => {
  const failed = await draw({ success: false });
  assertColour(failed, 147, 122, RED, "path, success false");
  assertColour(failed, 172, 72, RED, "final, success false");
  const noStop = await draw({ stop: false });
  assertColour(noStop, 172, 72, RED, "no STOP: not a success by the rule");
  // The end (3, 2) is sqrt(0.5^2 + 1.7^2) = 1.77 m from the only view point (3.5, 0.3): beyond 1 m, a failure.
  const far = await draw({ episode: { ...input().episode, goals: [{ view_points: [habitat(3.5, 0.3)] }] } });
  assertColour(far, 172, 72, RED, "STOP 1.77 m from the view point");
  // Without a known target room, the west face is plain floor.
  const noTarget = await draw({ episode: { ...input().episode, target_room: "region9" } });
  assertColour(noTarget, 22, 72, BEDROOM, "no outline for an unknown room");
  assertColour(noTarget, 72, 122, START, "start");
});

test("top-down picture: the size rule (scale, maxSide, points outside the bounds)", async () => {
  const size = async (over: Partial<TopDownInput>, options: object) => {
    const image = await decodeRgb(await topDownPicture(input(over), options));
    return [image.width, image.height];
  };
  // Default 48 px/m: ceil(4.4 * 48 = 211.2) + 24 = 236; ceil(3.4 * 48 = 163.2) + 46 = 210.
  assert.deepEqual(await size({}, {}), [236, 210]);
  // maxSide 150: scale min(48, 126 / 4.4, 104 / 3.4) = 28.636...; width 126 + 24 = 150; ceil(97.36) + 46 = 144.
  assert.deepEqual(await size({}, { maxSide: 150 }), [150, 144]);
  // A path point at x 6 widens the plan to 6.2 m: 310 + 24 = 334 at 50 px/m.
  assert.deepEqual(await size({ path: [habitat(1, 1), habitat(6, 1)] }, { pixelsPerMetre: 50 }), [334, 216]);
});

test("top-down picture: a non-finite position is a clear error", async () => {
  await assert.rejects(topDownPicture(input({ path: [habitat(1, 1), [Number.NaN, 0, 1]] })), /path\[1\] must be a finite \[x, y, z\] position/);
  await assert.rejects(topDownPicture(input(), { pixelsPerMetre: -1 }), /pixelsPerMetre must be a positive number/);
});

test("wall pieces: doors cut gaps, windows are drawn apart, stretches in order", () => {
  const pieces = wallPieces(4.2, [{ kind: "door", offset: 2.9, width: 0.8 }, { kind: "window", offset: 1, width: 0.6 }]);
  const round = (list: Array<[number, number]>) => list.map(([a, b]) => [Math.round(a * 1e9) / 1e9, Math.round(b * 1e9) / 1e9]);
  assert.deepEqual(round(pieces.solid), [[0, 0.7], [1.3, 2.5], [3.3, 4.2]]);
  assert.deepEqual(round(pieces.windows), [[0.7, 1.3]]);
  // An opening past the wall's end is clipped to it.
  assert.deepEqual(round(wallPieces(2, [{ kind: "door", offset: 1.9, width: 0.6 }]).solid), [[0, 1.6]]);
});
