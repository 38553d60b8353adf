/**
 * Independent checks of every episode of examples/vcn-mini, written apart from the generator: the
 * house is rebuilt from scene.json's seed by the world engine, the robot grid (0.17 m) is made
 * here from its meshes, and each rule is re-derived from the paper's wording and the written
 * files (annotations, episodes, layout) — not by calling the rule code.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { before, test } from "node:test";
import { chanceLevels } from "../../../../src/benchmarks/vcn/chance.js";
import { vcn } from "../../../../src/benchmarks/vcn/index.js";
import { loadVcn } from "../../../../src/benchmarks/vcn/load.js";
import { readLibraries } from "../../../../src/world/assets/catalog.js";
import { ModelLibrary } from "../../../../src/world/assets/models.js";
import { generateHouse } from "../../../../src/world/house/index.js";
import { sceneMeshes } from "../../../../src/world/meshes.js";
import { renderInstanceCoverage, renderView } from "../../../../src/world/render/index.js";
import { cellCenter, geodesicDistances, inflate, isFreePoint, occupancyForScene, roomAt, worldToCell, type OccupancyGrid } from "../../../../src/world/space/index.js";
import type { Scene, Vec2 } from "../../../../src/world/types.js";

type Json = Record<string, any>;
const ROOT = path.resolve(import.meta.dirname, "../../../../examples/vcn-mini");
const items: Json[] = readFileSync(path.join(ROOT, "items.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const episodes: Json[] = JSON.parse(gunzipSync(readFileSync(path.join(ROOT, "episodes.json.gz"))).toString("utf8")).episodes;
const episodeById = new Map(episodes.map((e) => [e.episode_id, e]));

interface House {
  scene: Scene;
  grid: OccupancyGrid;
  meshes: Awaited<ReturnType<typeof sceneMeshes>>;
}
const houses = new Map<string, House>();
/** Habitat [x, y, z] -> plan [x, north]. */
const plan = (p: number[]): Vec2 => [p[0]!, -p[2]!];
/** "region3" -> the scene's room id (rooms are numbered by their position in scene.rooms). */
const roomId = (scene: Scene, region: string): string => scene.rooms[Number(region.replace("region", ""))]!.id;
const regionOf = (scene: Scene, room: string | null): string | null => (room === null ? null : `region${scene.rooms.findIndex((r) => r.id === room)}`);

before(async () => {
  const catalogue = readLibraries();
  const library = new ModelLibrary();
  for (const sceneId of [...new Set(items.map((i) => i.scene as string))].sort()) {
    const json = JSON.parse(readFileSync(path.join(ROOT, "houses", sceneId, "scene.json"), "utf8"));
    const scene = { ...(await generateHouse({ catalogue, library, seed: json.seed, rooms: json.rooms.length })), id: sceneId };
    assert.deepEqual(scene.objects.map((o) => o.name), json.objects.map((o: Json) => o.name), `${sceneId} rebuilt from its seed`);
    const meshes = await sceneMeshes(scene, library, catalogue);
    // Obstacles 0.10-1.4 m above the floor (rugs and towels never block), inflated by Stretch's radius.
    const point = occupancyForScene(scene, meshes, { cellSize: 0.05, zMin: 0.1, zMax: 1.4, skip: (m) => m.category === "floor" || m.category === "ceiling" || m.category === "rug" || m.category === "towel" });
    houses.set(sceneId, { scene, grid: inflate(point, 0.17), meshes });
  }
  library.close();
});

/** Visits from the annotations: runs of one camera room, frames with no room skipped. */
function visits(item: Json): string[] {
  const out: string[] = [];
  for (const a of item.annotations) if (a.room !== null && out[out.length - 1] !== a.room) out.push(a.room);
  return out;
}

const startRoom = (item: Json): string => regionOf(houses.get(item.scene)!.scene, roomAt(houses.get(item.scene)!.scene, plan(episodeById.get(item.id)!.start_position)))!;
const categoryOf = (item: Json, region: string): string => item.layout.rooms.find((r: Json) => r.id === region).category;

test("the example has every task, loads, and the oracle answers every question", async () => {
  assert.deepEqual([...new Set(items.map((i) => i.task))].sort(), ["count", "distance", "instance", "order", "orientation"]);
  const { items: loaded, problems } = loadVcn(ROOT);
  assert.deepEqual(problems, []);
  assert.equal(loaded.length, items.length);
  for (const item of loaded) {
    const reply = vcn.baselines!["oracle"]!.reply(item, 0, {});
    const outcome = vcn.scoreItem(item, vcn.readReply(item, reply));
    assert.equal(outcome["success"], true, item.id);
  }
  // stats.json's chance levels are the exact expectations of chance.ts over every question.
  const stats = JSON.parse(readFileSync(path.join(ROOT, "stats.json"), "utf8"));
  const complete = loaded.map((i) => chanceLevels(i).complete);
  assert.equal(stats.chance.complete.mean, Math.round((complete.reduce((a, b) => a + b, 0) / complete.length) * 1e4) / 1e4);
  // Design principle iii: the target's category is also seen elsewhere, so the category chance is
  // below 1, except "order-types", which names the room by its category alone (App. B.4).
  for (const item of loaded) {
    const { category } = chanceLevels(item);
    if (item.meta?.["subclass"] === "order-types") assert.equal(category, 1, item.id);
    else assert.ok(category < 1, `${item.id}: category chance ${category}`);
  }
});

test("no two episodes share a prior video (tour and frame range) and a target", () => {
  const keys = items.map((i) => `${i.meta.tour}|${i.meta.prior_video.first}|${i.meta.prior_video.last}|${JSON.stringify(i.target)}`);
  assert.equal(new Set(keys).size, items.length);
});

test("starts: in the initial room, outside the target room, free for the robot, >= 3 m geodesic from the nearest view point", () => {
  for (const item of items) {
    const { scene, grid } = houses.get(item.scene)!;
    const e = episodeById.get(item.id)!;
    const start = plan(e.start_position);
    assert.ok(isFreePoint(grid, start), `${item.id} start free`);
    const targetRoom = item.target.room ?? item.layout.objects.find((o: Json) => o.id === item.target.object).room;
    assert.equal(e.target_room, targetRoom);
    assert.notEqual(startRoom(item), targetRoom, `${item.id} starts outside the target room`);
    assert.equal(regionOf(scene, roomAt(scene, [item.layout.start.position[0], item.layout.start.position[1]])), startRoom(item));
    // The start is a tour position of the prior video.
    const tour = JSON.parse(readFileSync(path.join(ROOT, "tours", item.meta.tour, "tour.json"), "utf8"));
    const frame = tour.frames[item.annotations[item.meta.start_frame].source_index];
    assert.ok(Math.hypot(frame.position[0] - start[0], frame.position[1] - start[1]) < 1e-3, `${item.id} start on the tour`);
    const d = geodesicDistances(grid, start);
    let best = Infinity;
    for (const g of instancesOf(e)) {
      for (const v of g.view_points) {
        const p = plan(v.agent_state.position);
        // App. C.1: within 0.6 m of the goal's box, in the goal's room, navigable.
        const [[x0, , z0], [x1, , z1]] = g.bbox;
        const gap = Math.hypot(Math.max(x0 - p[0], 0, p[0] - x1), Math.max(-z1 - p[1], 0, p[1] + z0));
        assert.ok(gap <= 0.6 + 1e-6 && isFreePoint(grid, p) && regionOf(scene, roomAt(scene, p)) === targetRoom, `${item.id} view point ${p}`);
        const [i, j] = worldToCell(grid, p);
        best = Math.min(best, d[j * grid.width + i]!);
      }
    }
    // dist_to_goal is the grid path pulled straight: no longer than the grid's 8-neighbour distance,
    // no shorter than that distance over its worst case (1 + (sqrt 2 - 1)^2 ... = 1.0824), and
    // never below the straight line to the nearest view point.
    const straight = Math.min(...e.goals.flatMap((g: Json) => g.view_points.map((v: Json) => Math.hypot(plan(v.agent_state.position)[0] - start[0], plan(v.agent_state.position)[1] - start[1]))));
    assert.ok(e.dist_to_goal <= best + 1e-3 && e.dist_to_goal >= best / 1.0824 - 0.071 && e.dist_to_goal >= straight - 0.071, `${item.id} dist_to_goal ${e.dist_to_goal} vs grid ${best}, straight ${straight}`);
    assert.ok(best >= 3, `${item.id} at least 3 m on the grid`);
  }
});

/**
 * Each goal instance with its box and view points: a goal entry's `instances` slices of its view
 * points (one entry for every instance, construct/release.ts releasedGoals), else each entry.
 */
function instancesOf(e: Json): Array<{ bbox: number[][]; view_points: Json[] }> {
  return e.goals.flatMap((g: Json) => (g.instances ? g.instances.map((i: Json) => ({ bbox: i.bbox, view_points: g.view_points.slice(i.view_point_range[0], i.view_point_range[1]) })) : [g]));
}

/** Nearest free cell of a room to its centroid (the rooms are rectangles: the box centre). */
function centrePoint(house: House, region: string): Vec2 {
  const room = house.scene.rooms.find((r) => r.id === roomId(house.scene, region))!;
  const xs = room.polygon.map((p) => p[0]), ys = room.polygon.map((p) => p[1]);
  const c: Vec2 = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  let best: Vec2 = c, bestD = Infinity;
  for (let j = 0; j < house.grid.height; j++) {
    for (let i = 0; i < house.grid.width; i++) {
      if (house.grid.occupied[j * house.grid.width + i]) continue;
      const p = cellCenter(house.grid, i, j);
      const dd = Math.hypot(p[0] - c[0], p[1] - c[1]);
      if (dd < bestD && roomAt(house.scene, p) === room.id) { best = p; bestD = dd; }
    }
  }
  return best;
}

test("Distance: the target beats every other visited room of its category by >= 5 m geodesic from the start", () => {
  const list = items.filter((i) => i.task === "distance");
  assert.ok(list.length > 0);
  for (const item of list) {
    const house = houses.get(item.scene)!;
    const m = /^Proceed to the (.+) that is (farthest from|nearest to) the current position among the rooms visited in the video\. Locate the (.+)\.$/.exec(item.instruction)!;
    assert.ok(m, item.instruction);
    const rooms = [...new Set(visits(item))].filter((r) => categoryOf(item, r) === m[1]);
    const d = geodesicDistances(house.grid, plan(episodeById.get(item.id)!.start_position));
    const at = (region: string) => { const [i, j] = worldToCell(house.grid, centrePoint(house, region)); return d[j * house.grid.width + i]!; };
    const target = at(item.target.room);
    for (const r of rooms) if (r !== item.target.room) assert.ok(m[2] === "farthest from" ? target >= at(r) + 5 : target + 5 <= at(r), `${item.id}: ${item.target.room} ${target} vs ${r} ${at(r)}`);
    assert.ok(rooms.length >= 2);
    // The distances the item records for re-checking the margin (meta.room_distances) are these, to a grid cell or so.
    assert.deepEqual(Object.keys(item.meta.room_distances).sort(), [...rooms].sort(), item.id);
    for (const r of rooms) assert.ok(Math.abs(item.meta.room_distances[r] - at(r)) <= 0.15, `${item.id} ${r}: recorded ${item.meta.room_distances[r]}, here ${at(r)}`);
  }
});

test("Orientation: the target is extreme by the 5 m band rule in Habitat axes, the only one of its category, not in a corner", () => {
  const list = items.filter((i) => i.task === "orientation");
  assert.ok(list.length > 0);
  for (const item of list) {
    const { scene } = houses.get(item.scene)!;
    const m = /^Now facing (north|south|east|west)\. Go to the (north|south|east|west)ernmost (.+) that was visited in the video\. Locate the (.+)\.$/.exec(item.instruction)!;
    assert.ok(m, item.instruction);
    // The stated facing is the start rotation: identity faces -Z (north); yaw about +Y.
    const q = episodeById.get(item.id)!.start_rotation;
    const phi = 2 * Math.atan2(q[1], q[3]);
    const forward = [-Math.sin(phi), -Math.cos(phi)]; // Habitat (x, z)
    const facing = Math.abs(forward[0]!) > 0.99 ? (forward[0]! > 0 ? "east" : "west") : forward[1]! > 0 ? "south" : "north";
    assert.equal(facing, m[1]);
    // Habitat boxes [xmin, xmax, zmin, zmax] of the rooms the prior video visits (z = -north).
    const boxes = [...new Set(visits(item))].map((region) => {
      const r = scene.rooms.find((x) => x.id === roomId(scene, region))!;
      const xs = r.polygon.map((p) => p[0]), zs = r.polygon.map((p) => -p[1]);
      return { region, xmin: Math.min(...xs), xmax: Math.max(...xs), zmin: Math.min(...zs), zmax: Math.max(...zs) };
    });
    const extreme = (dir: string): string[] => {
      // Along the direction: s(v) grows toward it; the across axis is the other one.
      const along = (b: typeof boxes[number]) => ({ east: b.xmax, west: -b.xmin, south: b.zmax, north: -b.zmin })[dir]!;
      const centre = (b: typeof boxes[number]) => ({ east: (b.xmin + b.xmax) / 2, west: -(b.xmin + b.xmax) / 2, south: (b.zmin + b.zmax) / 2, north: -(b.zmin + b.zmax) / 2 })[dir]!;
      const acrossLo = (b: typeof boxes[number]) => (dir === "east" || dir === "west" ? b.zmin : b.xmin);
      const acrossHi = (b: typeof boxes[number]) => (dir === "east" || dir === "west" ? b.zmax : b.xmax);
      const acrossC = (b: typeof boxes[number]) => (dir === "east" || dir === "west" ? (b.zmin + b.zmax) / 2 : (b.xmin + b.xmax) / 2);
      const top = Math.max(...boxes.map(along));
      return boxes.filter((b) => along(b) > top - 5 && along(b) <= top && !boxes.some((o) => o !== b && acrossC(o) >= acrossLo(b) && acrossC(o) <= acrossHi(b) && centre(o) > centre(b))).map((b) => b.region);
    };
    const dir = m[2]!;
    const ofCategory = boxes.filter((b) => categoryOf(item, b.region) === m[3]).map((b) => b.region);
    assert.ok(ofCategory.length >= 2, `${item.id} two rooms of the category`);
    assert.deepEqual(ofCategory.filter((r) => extreme(dir).includes(r)), [item.target.room]);
    const perpendicular = dir === "east" || dir === "west" ? ["north", "south"] : ["east", "west"];
    for (const p of perpendicular) assert.ok(!extreme(p).includes(item.target.room), `${item.id} not in a ${p} corner`);
  }
});

test("Order and Count: the facts the instruction relies on hold in the prior video's visit sequence", () => {
  const ordinal: Record<string, (n: number) => number> = { first: () => 0, second: () => 1, last: (n) => n - 1, "second-to-last": (n) => n - 2 };
  const words = ["first", "second", "third", "fourth", "fifth", "sixth"];
  let checked = 0;
  for (const item of items.filter((i) => i.task === "order" || i.task === "count")) {
    const seq = visits(item);
    const initial = startRoom(item);
    const target = item.target.room as string;
    const count = (r: string) => seq.filter((x) => x === r).length;
    let m: RegExpExecArray | null;
    if ((m = /^Proceed to the (first|second|last|second-to-last) (.+) that was visited in the video\./.exec(item.instruction))) {
      const sub = seq.filter((r) => categoryOf(item, r) === m![2]);
      const order = [...new Set(sub)];
      // Clear order: each room's visits are consecutive within the visits to rooms of the category.
      assert.equal(sub.filter((r, k) => k === 0 || sub[k - 1] !== r).length, order.length, `${item.id} clear order`);
      assert.ok(order.length >= 2);
      assert.equal(order[ordinal[m[1]!]!(order.length)], target, item.id);
    } else if ((m = /^Go to the room visited immediately after the (\w+) entry into the current room in the video\./.exec(item.instruction))) {
      const k = words.indexOf(m[1]!);
      const at = seq.map((r, i) => (r === initial ? i : -1)).filter((i) => i >= 0);
      assert.ok(at.length >= 2 && seq[0] !== initial, `${item.id} initial room entered at least twice`);
      assert.equal(seq[at[k]! + 1], target, item.id);
    } else if ((m = /^Go to the room that was visited (before|after) arriving at the current room in the video: ([^,]+), ([^.]+)\. Locate the /.exec(item.instruction))) {
      assert.equal(count(initial), 1, `${item.id} initial room visited once`);
      const pos = seq.indexOf(initial);
      for (const category of [m[2]!, m[3]!]) assert.equal(new Set(seq.filter((r) => categoryOf(item, r) === category)).size, 1, `${item.id} one ${category}`);
      const before = (r: string) => seq.slice(0, pos).includes(r), after = (r: string) => seq.slice(pos + 1).includes(r);
      assert.ok(m[1] === "before" ? before(target) && !after(target) : after(target) && !before(target), item.id);
      const other = [...new Set(seq)].find((r) => r !== target && [m![2], m![3]].includes(categoryOf(item, r)))!;
      assert.ok(m[1] === "before" ? after(other) && !before(other) : before(other) && !after(other), `${item.id} the other listed room`);
    } else if ((m = /^Go to the (.+) that was visited (before|after) reaching the current room in the video\./.exec(item.instruction))) {
      assert.equal(count(initial), 1, `${item.id} initial room visited once`);
      const pos = seq.indexOf(initial);
      const rooms = [...new Set(seq.filter((r) => categoryOf(item, r) === m![1]))];
      assert.ok(rooms.length >= 2);
      const side = (r: string) => (m![2] === "before" ? seq.slice(0, pos).includes(r) : seq.slice(pos + 1).includes(r));
      const otherSide = (r: string) => (m![2] === "before" ? seq.slice(pos + 1).includes(r) : seq.slice(0, pos).includes(r));
      assert.deepEqual(rooms.filter(side), [target], item.id);
      assert.ok(!otherSide(target), item.id);
    } else assert.fail(`unrecognised instruction ${item.instruction}`);
    checked++;
  }
  assert.ok(checked > 0);
});

test("R2O goals: every object of the named category in the target room, a category seen there in the prior video", () => {
  for (const item of items.filter((i) => i.task !== "instance")) {
    const e = episodeById.get(item.id)!;
    const category = /Locate the (.+)\.$/.exec(item.instruction)![1];
    assert.equal(e.object_category, category);
    const inRoom = item.layout.objects.filter((o: Json) => o.room === item.target.room && o.category === category).map((o: Json) => `${item.scene}_${item.target.room}/${o.id}`);
    assert.deepEqual([...e.instruction.instance_id].sort(), inRoom.sort(), item.id);
    const seen = item.annotations.some((a: Json) => a.objects.some((o: Json) => o.category === category && item.layout.objects.find((x: Json) => x.id === o.id).room === item.target.room));
    assert.ok(seen, `${item.id} ${category} seen in the target room`);
  }
});

test("B.3: objects annotated in sampled frames are within 3 m, >= 2500 visible pixels and mostly unoccluded", () => {
  const item = items[0]!;
  const house = houses.get(item.scene)!;
  const tour = JSON.parse(readFileSync(path.join(ROOT, "tours", item.meta.tour, "tour.json"), "utf8"));
  const byName = new Map(house.scene.objects.map((o) => [o.name, o]));
  let checked = 0;
  for (const frame of tour.frames.filter((f: Json) => f.objects.length > 0).slice(0, 3)) {
    const camera = { position: frame.position, yaw: frame.yaw, pitch: frame.pitch, vfovDeg: tour.camera.vfovDeg, width: tour.camera.width, height: tour.camera.height };
    const buffers = renderView(house.meshes, camera, { shading: "unlit", antialias: false });
    const ids = frame.objects.map((o: Json) => byName.get(o.name)!.id);
    const amodal = renderInstanceCoverage(house.meshes, camera, ids);
    for (const o of frame.objects) {
      const object = byName.get(o.name)!;
      let visible = 0;
      for (const v of buffers.instance) if (v === object.id) visible++;
      // Horizontal distance to the box is a lower bound of the distance to the surface.
      const b = object.bbox;
      const gap = Math.hypot(Math.max(b.min[0] - frame.position[0], 0, frame.position[0] - b.max[0]), Math.max(b.min[1] - frame.position[1], 0, frame.position[1] - b.max[1]));
      assert.ok(gap <= 3, `${o.name} within 3 m`);
      assert.ok(visible >= 2500 * 0.95, `${o.name}: ${visible} visible pixels`);
      assert.ok(visible / amodal.get(object.id)! > 0.55, `${o.name}: ${visible} of ${amodal.get(object.id)} unoccluded`);
      checked++;
    }
  }
  assert.ok(checked > 0);
});
