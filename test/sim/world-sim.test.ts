/**
 * The built-in simulator (src/sim/world-sim.ts): the Environment conformance suite on
 * examples/vcn-mini, then what is particular to it: Habitat <-> plan conversion against
 * construct/habitat.ts, the start-snapping rule against a brute-force search of the grid, a
 * hand-made room with a partition wall where the stop point and the depth of every view are known
 * from the geometry, view reuse, and untrusted scene files.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { habitatFloor, habitatForward, headingQuaternion } from "../../src/benchmarks/vcn/construct/habitat.js";
import { DataError } from "../../src/core/problems.js";
import { decodeDepthPng16 } from "../../src/world/render/index.js";
import { cellCenter, isFreePoint } from "../../src/world/space/index.js";
import { HouseCache } from "../../src/sim/house-cache.js";
import { EnvironmentError, forwardOf, rotationOf, type EnvEpisode, type Vec3 } from "../../src/sim/types.js";
import { createWorldSimulator, planOfHabitat, planYawOfHeading, startHeading, verticalFovDeg } from "../../src/sim/world-sim.js";
import { environmentConformance, type PathCase } from "./conformance.js";

const MINI = path.resolve(import.meta.dirname, "../../examples/vcn-mini");

interface Released extends EnvEpisode {
  goals: Array<{ view_points: Array<{ agent_state: { position: Vec3 } }> }>;
  dist_to_goal: number;
}
const RELEASED: Released[] = JSON.parse(gunzipSync(readFileSync(path.join(MINI, "episodes.json.gz"))).toString("utf8")).episodes;
const episode = (id: string): Released => RELEASED.find((e) => e.episode_id === id)!;

/**
 * The release's dist_to_goal (construct/goals.ts) is the 8-neighbour grid length between cell
 * centres; the simulator's distance is that grid path pulled straight and run from the start point
 * itself. Pulling never lengthens a path; moving each end from its cell centre to the point changes
 * it by at most half a cell diagonal (0.0354 m). An 8-neighbour path is at most sqrt(4 - 2 sqrt 2)
 * = 1.0824 times a straight one.
 */
const END_SLACK_M = 2 * Math.SQRT1_2 * 0.05;
const OCTILE_OVER_EUCLID = Math.sqrt(4 - 2 * Math.SQRT2);
const PATHS: PathCase[] = RELEASED.map((e) => ({
  episode: e,
  targets: e.goals.flatMap((g) => g.view_points.map((v) => v.agent_state.position)),
  minM: e.dist_to_goal / OCTILE_OVER_EUCLID - END_SLACK_M,
  maxM: e.dist_to_goal + END_SLACK_M,
}));

// One cache for the conformance suite: each test makes its own simulator, the houses load once.
const shared = new HouseCache({ dataRoot: MINI });
after(() => shared.close());

environmentConformance("built-in world simulator on examples/vcn-mini", async () => ({
  env: createWorldSimulator({ dataRoot: MINI, houses: shared, maxActions: 40 }),
  episode: episode("vcn_0001"),
  paths: PATHS,
}));

test("Habitat <-> plan: the inverse of construct/habitat.ts for positions and headings, and the same forward direction", () => {
  const plans: Array<[number, number]> = [[5.5157, 6.6173], [0, 0], [-3.25, 11.05], [10.2251, -2.3749]];
  for (const p of plans) {
    const back = planOfHabitat(habitatFloor(p));
    assert.ok(Math.abs(back[0] - p[0]) <= 5e-5 && Math.abs(back[1] - p[1]) <= 5e-5, `${p} -> ${back}`);
  }
  for (let k = -12; k <= 12; k++) {
    const yaw = (k * Math.PI) / 6 + (k % 5) * 0.01;
    const heading = startHeading(headingQuaternion(yaw));
    const d = planYawOfHeading(heading) - yaw;
    assert.ok(Math.abs(Math.atan2(Math.sin(d), Math.cos(d))) <= 3e-6, `yaw ${yaw}: heading ${heading}`);
    // The contract's forward (x, z) is Habitat's forward of that yaw, and the plan direction (cos yaw, sin yaw).
    const [fx, fz] = forwardOf(heading);
    const [hx, hz] = habitatForward(yaw);
    assert.ok(Math.abs(fx - hx) <= 3e-6 && Math.abs(fz - hz) <= 3e-6);
    assert.ok(Math.abs(fx - Math.cos(yaw)) <= 3e-6 && Math.abs(-fz - Math.sin(yaw)) <= 3e-6);
  }
  assert.throws(() => startHeading([0.3, 0.1, 0, 0.9]), EnvironmentError);
  assert.throws(() => startHeading([0, 0, 0, 0]), EnvironmentError);
  assert.equal(verticalFovDeg(90, 384, 384), 90);
  assert.ok(Math.abs(verticalFovDeg(90, 640, 480) - (2 * Math.atan(0.75) * 180) / Math.PI) < 1e-12);
});

test("info: the robot, the camera and the action space", async () => {
  const sim = createWorldSimulator({ dataRoot: MINI, houses: shared, depth: true, hfovDeg: 79, pitchDeg: -10, cameraHeightM: 1.2 });
  assert.deepEqual(sim.info, {
    simulator: "spatialprobe-world",
    forward_step_m: 0.25,
    turn_step_deg: 30,
    max_actions: 1000,
    robot: { height_m: 1.41, radius_m: 0.17 },
    camera: { height_m: 1.2, hfov_deg: 79, width: 384, height: 384, pitch_deg: -10 },
    views: ["front", "left", "back", "right"],
    depth: true,
  });
  assert.throws(() => createWorldSimulator({ dataRoot: MINI, houses: shared, width: 0 }), RangeError);
  assert.throws(() => createWorldSimulator({ dataRoot: MINI, houses: shared, hfovDeg: 180 }), RangeError);
  assert.throws(() => createWorldSimulator({ dataRoot: MINI, houses: shared, maxActions: 0 }), RangeError);
  await sim.close();
});

test("a start off free floor moves to the nearest free cell centre within 0.5 m (found here by scanning every cell); farther is refused", async () => {
  const house = await shared.get("house_001");
  const { grid } = house;
  const notes: string[] = [];
  const sim = createWorldSimulator({ dataRoot: MINI, houses: shared, log: (l) => notes.push(l) });
  // An occupied point near free floor: 0.12 m behind the first occupied cell west of vcn_0001's start.
  const [sx, sy] = planOfHabitat(episode("vcn_0001").start_position);
  let x = sx;
  while (isFreePoint(grid, [x, sy])) x -= 0.01;
  const p: [number, number] = [x - 0.12, sy + 0.013];
  assert.equal(isFreePoint(grid, p), false, "test setup: the point is not occupied");
  let best = { d: Infinity, c: [0, 0] as [number, number] };
  for (let j = 0; j < grid.height; j++) {
    for (let i = 0; i < grid.width; i++) {
      if (grid.occupied[j * grid.width + i]) continue;
      const c = cellCenter(grid, i, j);
      const d = Math.hypot(c[0] - p[0], c[1] - p[1]);
      if (d < best.d) best = { d, c };
    }
  }
  assert.ok(best.d > 0 && best.d <= 0.5, `test setup: nearest free centre ${best.d} m away`);
  const o = await sim.reset({ episode_id: "snap", scene_id: "house_001", start_position: [p[0], 0, -p[1]], start_rotation: [0, 0, 0, 1] }, { render: false });
  assert.deepEqual(o.pose.position, [best.c[0], 0, -best.c[1]]);
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /episode snap: the start is not free .* moved 0\.\d{3} m/);
  const far: Vec3 = [grid.origin[0] - 1, 0, -(grid.origin[1] - 1)];
  await assert.rejects(sim.reset({ episode_id: "far", scene_id: "house_001", start_position: far, start_rotation: [0, 0, 0, 1] }, { render: false }), /farther than 0\.5 m from free floor/);
  await sim.close();
});

test("issue 25: a start or a shortest-path point beyond 10 km is refused at once (1e16 once hung snapToFree); one outside the house is refused as off the floor", async () => {
  const sim = createWorldSimulator({ dataRoot: MINI, houses: shared });
  const rotation: [number, number, number, number] = [0, 0, 0, 1];
  await sim.reset(episode("vcn_0001"), { render: false }); // loads the house, so the time below is the refusals'
  const started = performance.now();
  await assert.rejects(
    sim.reset({ episode_id: "far", scene_id: "house_001", start_position: [1e16, 0, 1e16], start_rotation: rotation }, { render: false }),
    (error: unknown) => error instanceof EnvironmentError && error.message === "episode far: start_position [10000000000000000, 0, 10000000000000000] must be within 10000 m of the origin",
  );
  await assert.rejects(
    sim.reset({ episode_id: "outside", scene_id: "house_001", start_position: [9999, 0, -9999], start_rotation: rotation }, { render: false }),
    /episode outside: the start \[9999, 0, -9999\] is farther than 0\.5 m from free floor of house_001/,
  );
  await sim.reset(episode("vcn_0001"), { render: false });
  await assert.rejects(sim.shortestPath([0, 0, 0], [[1e16, 0, 0]]), /targets\[0\] \[10000000000000000, 0, 0\] must be within 10000 m of the origin/);
  assert.equal(await sim.shortestPath([9999, 0, 9999], [[0, 0, 0]]), null, "a start far off the house has no path");
  assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
  await sim.close();
});

test("turning by 90 degrees reuses the four pictures of the position, byte for byte, and they match fresh renders", async () => {
  const e = episode("vcn_0003");
  const a = createWorldSimulator({ dataRoot: MINI, houses: shared });
  const o0 = await a.reset(e);
  assert.deepEqual([a.timings.rendered, a.timings.reused], [4, 0]);
  await a.step("TURN_LEFT", { render: false });
  await a.step("TURN_LEFT", { render: false });
  const o3 = (await a.step("TURN_LEFT")).observation;
  assert.deepEqual([a.timings.rendered, a.timings.reused], [4, 4], "after 90 degrees the views look where the start's views looked");
  // Front now looks where left looked, left where back looked, and so on round.
  assert.deepEqual(o3.views.map((v) => v.data), [o0.views[1]!.data, o0.views[2]!.data, o0.views[3]!.data, o0.views[0]!.data]);
  const o4 = (await a.step("TURN_LEFT")).observation;
  assert.deepEqual([a.timings.rendered, a.timings.reused], [8, 4], "30 degrees more: four new directions");
  const b = createWorldSimulator({ dataRoot: MINI, houses: shared });
  await b.reset(e, { render: false });
  for (let k = 0; k < 3; k++) await b.step("TURN_LEFT", { render: false });
  assert.deepEqual((await b.step("TURN_LEFT", { render: false })).observation.views, []);
  assert.equal(b.timings.rendered, 0, "render: false renders nothing");
  await b.reset(e, { render: false });
  for (let k = 0; k < 2; k++) await b.step("TURN_LEFT", { render: false });
  const fresh = (await b.step("TURN_LEFT")).observation;
  assert.deepEqual([b.timings.rendered, b.timings.reused], [4, 0]);
  assert.deepEqual(fresh, o3);
  assert.notDeepEqual(o4.views[0]!.data, o3.views[0]!.data);
  await a.close();
  await b.close();
});

// ------------------------------------------------------------------------------------------------
// A hand-made room: 4 x 4 m (inner faces at x, y = 0 and 4), a free-standing partition wall with
// faces at x = 2.425 and 2.525 from y = 1 to 3, no furniture, one ceiling light.
// ------------------------------------------------------------------------------------------------

function wall(id: string, a: [number, number], b: [number, number]) {
  return { id, a, b, thickness: 0.1, height: 2.5, rooms: ["room_0", null], openings: [] };
}

const HANDMADE = {
  id: "wall_room",
  seed: 0,
  ceilingHeight: 2.5,
  bounds: { min: [-0.1, -0.1], max: [4.1, 4.1] },
  rooms: [{ id: "room_0", type: "living room", polygon: [[0, 0], [4, 0], [4, 4], [0, 4]], floorMaterial: "walnut planks", wallMaterial: "painted plaster pale blue" }],
  walls: [
    wall("south", [-0.1, -0.05], [4.1, -0.05]),
    wall("east", [4.05, -0.1], [4.05, 4.1]),
    wall("north", [4.1, 4.05], [-0.1, 4.05]),
    wall("west", [-0.05, 4.1], [-0.05, -0.1]),
    { ...wall("partition", [2.475, 1], [2.475, 3]), rooms: ["room_0", "room_0"] },
  ],
  doors: [],
  objects: [],
  lights: [{ position: [1, 2, 2.45], color: [1, 0.95, 0.88], room: "room_0" }],
};

const tmp = mkdtempSync(path.join(os.tmpdir(), "world-sim-"));
mkdirSync(path.join(tmp, "houses/wall_room"), { recursive: true });
writeFileSync(path.join(tmp, "houses/wall_room/scene.json"), JSON.stringify(HANDMADE));
mkdirSync(path.join(tmp, "houses/broken"), { recursive: true });
writeFileSync(path.join(tmp, "houses/broken/scene.json"), JSON.stringify({ ...HANDMADE, rooms: [{ ...HANDMADE.rooms[0], type: "ballroom" }] }));
const outside = mkdtempSync(path.join(os.tmpdir(), "world-sim-outside-"));
mkdirSync(path.join(outside, "elsewhere"));
writeFileSync(path.join(outside, "elsewhere/scene.json"), JSON.stringify(HANDMADE));
symlinkSync(path.join(outside, "elsewhere"), path.join(tmp, "houses/linked"));
after(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

test("hand-made partition: FORWARDs east from (1.01, 1.8) stop at 2.235 m, the last free increment before the inflated wall; views see it at the known depths", async () => {
  // The partition's face at x = 2.425 lies inside the cell [2.40, 2.45] (edges at -0.1 + 0.05 i), so
  // that cell is occupied; inflation by 0.17 m occupies cells whose centre is nearer than 0.17 m
  // to it: the centre 2.275 (0.125 m) is occupied, 2.225 (0.175 m) stays free. Free floor ends at
  // x = 2.25. From 2.01, the 0.025 m increments reach 2.235 (free) and then 2.26 (occupied).
  const sim = createWorldSimulator({ dataRoot: tmp, depth: true, maxActions: 20 });
  const east = rotationOf(-Math.PI / 2);
  const o = await sim.reset({ episode_id: "wall", scene_id: "wall_room", start_position: [1.01, 0, -1.8], start_rotation: east }, { render: false });
  assert.deepEqual(o.pose.position, [1.01, 0, -1.8]);
  const xs: number[] = [];
  const hits: boolean[] = [];
  for (let k = 0; k < 6; k++) {
    const r = await sim.step("FORWARD", { render: k === 5 });
    xs.push(r.observation.pose.position[0]);
    hits.push(r.observation.collided);
    assert.equal(r.observation.pose.position[2], -1.8);
    if (k === 5) {
      // Depth along each view's axis to the plane it faces (the same at every pixel on that plane).
      const expected = { front: 2.425 - 2.235, left: 4 - 1.8, back: 2.235, right: 1.8 };
      for (const v of r.observation.views) {
        const d = await decodeDepthPng16(v.depthPng!);
        assert.equal(d.millimetres[192 * 384 + 192], Math.round(expected[v.name] * 1000), `${v.name} view depth`);
      }
    }
  }
  const want = [1.26, 1.51, 1.76, 2.01, 2.235, 2.235];
  xs.forEach((x, k) => assert.ok(Math.abs(x - want[k]!) <= 1e-9, `FORWARD ${k + 1}: x = ${x}, expected ${want[k]}`));
  assert.deepEqual(hits, [false, false, false, false, true, true]);
  await sim.close();
});

test("untrusted scenes: unknown and non-plain scene ids, a malformed scene.json, a link out of the data root", async () => {
  const sim = createWorldSimulator({ dataRoot: tmp });
  const at = (scene_id: string): EnvEpisode => ({ episode_id: "e", scene_id, start_position: [1, 0, -1], start_rotation: [0, 0, 0, 1] });
  await assert.rejects(sim.reset(at("no_such_house")), (e: Error) => e instanceof EnvironmentError && /unknown scene no_such_house/.test(e.message));
  for (const id of ["..", "../etc", "a/b", "a\\b", ""]) await assert.rejects(sim.reset(at(id)), EnvironmentError, id);
  await assert.rejects(sim.reset(at("broken")), (e: Error) => e instanceof DataError && /houses\/broken\/scene\.json, field rooms\[0\]\.type/.test(e.message));
  await assert.rejects(sim.reset(at("linked")), (e: Error) => e instanceof DataError && /outside the dataset root/.test(e.message));
  await assert.rejects(sim.step("FORWARD"), EnvironmentError);
  await sim.close();
  await assert.rejects(sim.reset(at("wall_room")), /closed/);
});
