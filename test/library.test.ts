import assert from "node:assert/strict";
import { test } from "node:test";
import path from "node:path";

test('the package exports work by name: import { egopath, metrics, geometry } from "spatialprobe"', async () => {
  const lib = await import("spatialprobe");
  const { items, problems } = lib.egopath.loadRelease(path.resolve(import.meta.dirname, "../examples/egopath-mini"), { tasks: ["a2"] });
  assert.deepEqual(problems, []);
  const item = items[0]!;
  assert.equal(item.kind, "route");
  if (item.kind !== "route") return;
  const reply = lib.egopath.normalizeReply(`Route: ${JSON.stringify(item.referenceRoute.map(Number))}`);
  assert.ok(reply.ok);
  const outcome = lib.egopath.scoreItem(item, lib.egopath.parseStoredOutput(reply.output));
  assert.equal(outcome.kind === "route" && outcome.stage, "success");
  assert.equal(lib.metrics.pyRound(0.03125, 4), 0.0312);
  assert.equal(lib.metrics.egoPathScore({ a1: 1, b1: 1, a2: 1, b2: 1, c: 1 }), 1);
  assert.equal(lib.geometry.distance2({ x: 0, y: 0 }, { x: 3, y: 4 }), 5);
  assert.deepEqual(Object.keys(lib.BENCHMARKS), ["egopath", "patheval", "epic", "vcn", "egotl"]);
  assert.equal(lib.patheval.label(
    { "Minimum clearance": 1, "Maximum clearance": 1, "Average clearance": 1, "Path length": 10, "Smoothness": 0, "Sharp turns": 0, "Maximum angle": 0 },
    { "Minimum clearance": 1, "Maximum clearance": 1, "Average clearance": 1, "Path length": 70, "Smoothness": 0, "Sharp turns": 0, "Maximum angle": 0 },
    4,
  ), "Path 1");
});

test('import { patheval } from "spatialprobe": parseEnvironment, descriptors, label, parseAnswer', async () => {
  const { patheval } = await import("spatialprobe");
  const polygons = patheval.parseEnvironment("1\n4 0 0 2 0 2 2 0 2\n");
  const d = patheval.descriptors([[-1, -1], [3, -1], [3, 3]], polygons);
  assert.equal(d["Path length"], 8);
  assert.equal(d["Sharp turns"], 0);
  assert.equal(patheval.parseAnswer("Answer: Path 2\nExplanation: -", { mode: "official" }), "Path 2");
  assert.equal(patheval.parseAnswer("**Answer**: path 1"), "Path 1");
  assert.equal(patheval.SCENARIOS.length, 15);
});

test('import { epic } from "spatialprobe": formatter and scorer on the golden set', async () => {
  const { epic } = await import("spatialprobe");
  const { items, problems } = epic.loadEpic(path.resolve(import.meta.dirname, "fixtures/epic/conformance"), { tasks: ["Navigation/GroundDetection"] });
  assert.deepEqual(problems, []);
  const item = items[0]!;
  const formatted = epic.formatReply(item.leaf.leaf, '```json\n{"bounding_boxes": [[0, 0, 5, 5]]}\n```');
  assert.equal(formatted.status, "ok");
  assert.deepEqual(formatted.localization, [[0, 0, 5, 5]]);
  assert.equal(epic.LEAF_TASKS.length, 23);
});

test('import { metrics, egotl, vcn } from "spatialprobe": MRA, EgoTL parsers, VCN navigation', async () => {
  const { metrics, egotl, vcn } = await import("spatialprobe");
  // numpy.linspace(0.5, 0.95, 10)[8] is 0.8999999999999999, so |1.1 - 1.0| = 0.10000000000000009 passes at "0.9": 9 of 10.
  assert.equal(metrics.mra(1.1, 1.0), 0.9);
  assert.equal(metrics.mra(3, 3), 1);
  assert.equal(metrics.mra(0, 2), 0);
  assert.equal(typeof egotl.readAnswer, "function");
  // Twelve FORWARDs of 0.25 m straight to x = 3, STOP 0.5 m past the view point: success, SPL = 2.5 / max(2.5, 3).
  const episode = { episode_id: "e", start_position: [0, 0, 0], dist_to_goal: 2.5, goals: [{ position: [3, 0, 0], view_points: [[2.5, 0, 0]] }] };
  const nav = vcn.episodeMetrics(episode, { episode_id: "e", positions: Array.from({ length: 13 }, (_, k) => [k * 0.25, 0, 0]), stop: true });
  assert.equal(nav.success, 1);
  assert.equal(nav.spl, 2.5 / 3);
});

test('import { world } from "spatialprobe": a house from the installed furniture, its meshes, one rendered view with buffers', async () => {
  const { world } = await import("spatialprobe");
  const catalogue = world.readLibraries();
  const library = new world.ModelLibrary();
  try {
    const scene = await world.generateHouse({ catalogue, library, seed: 3, rooms: 2 });
    assert.equal(scene.rooms.length, 2);
    const meshes = await world.sceneMeshes(scene, library, catalogue);
    // A camera in the middle of the first room, 1.25 m high, looking straight down at the floor.
    const poly = scene.rooms[0]!.polygon;
    const cx = poly.reduce((s, p) => s + p[0], 0) / poly.length, cy = poly.reduce((s, p) => s + p[1], 0) / poly.length;
    const camera = { position: [cx, cy, 1.25] as [number, number, number], yaw: 0, pitch: -Math.PI / 2, vfovDeg: 30, width: 16, height: 16 };
    const view = world.renderView(meshes, camera, { lights: scene.lights });
    assert.equal(view.rgb.length, 16 * 16 * 3);
    // The pixel at the image centre looks straight down: on the floor its depth is the camera
    // height, 1.25 m, and its ids are the room's floor; anything standing there is nearer.
    const centre = 8 * 16 + 8;
    const id = view.instance[centre]!;
    if (id >= world.STRUCTURE_ID_BASE.floor && id < world.STRUCTURE_ID_BASE.wall) {
      assert.ok(Math.abs(view.depth[centre]! - 1.25) < 1e-4, `depth ${view.depth[centre]}`);
      assert.equal(view.category[centre], world.categoryId("floor"));
    } else {
      assert.ok(id > 0 && view.depth[centre]! > 0 && view.depth[centre]! < 1.25, `instance ${id} at depth ${view.depth[centre]}`);
    }
    const grid = world.gridForBounds(scene.bounds, 0.05);
    assert.equal(grid.cellSize, 0.05);
  } finally {
    library.close();
  }
});
