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
  // One step of 3 m straight to the goal, STOP at 0.5 m: success, SPL = 2.5 / max(2.5, 3).
  const episode = { episode_id: "e", start_position: [0, 0, 0], goals: [{ position: [3, 0, 0], view_points: [[2.5, 0, 0]] }] };
  const nav = vcn.episodeMetrics(episode, { episode_id: "e", positions: [[0, 0, 0], [3, 0, 0]], stop: true });
  assert.equal(nav.success, 1);
  assert.equal(nav.spl, 2.5 / 3);
});
