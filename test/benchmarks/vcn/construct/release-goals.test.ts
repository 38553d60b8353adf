/**
 * Released goal entries a goals[0]-only reader can use (construct/release.ts releasedGoals): one
 * entry holding every instance's view points, the per-instance detail in `instances`; our loader
 * reads the same success region from it as from one entry per instance.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import { releasedGoals, type ReleasedInstance } from "../../../../src/benchmarks/vcn/construct/release.js";
import { parseEpisodes } from "../../../../src/benchmarks/vcn/episodes.js";
import { distanceToGoal } from "../../../../src/benchmarks/vcn/navigation.js";

type Json = Record<string, any>;
const at = (x: number, z: number) => ({ agent_state: { position: [x, 0, z] } });

test("two instances: one goal entry, the first instance's centre and box, view points of both in order, each instance's slice", () => {
  const a: ReleasedInstance = { instance_id: "h_region2/bed_1", position: [1, 0.5, -1], view_points: [at(0.5, -1)], bbox: [[0.8, 0, -1.2], [1.2, 1, -0.8]] };
  const b: ReleasedInstance = { instance_id: "h_region2/bed_2", position: [4, 0.5, -1], view_points: [at(3.5, -1), at(4.5, -1)], bbox: [[3.8, 0, -1.2], [4.2, 1, -0.8]] };
  assert.deepEqual(releasedGoals([a, b]), [{
    position: [1, 0.5, -1],
    view_points: [at(0.5, -1), at(3.5, -1), at(4.5, -1)],
    bbox: [[0.8, 0, -1.2], [1.2, 1, -0.8]],
    instances: [
      { instance_id: "h_region2/bed_1", position: [1, 0.5, -1], bbox: [[0.8, 0, -1.2], [1.2, 1, -0.8]], view_point_range: [0, 1] },
      { instance_id: "h_region2/bed_2", position: [4, 0.5, -1], bbox: [[3.8, 0, -1.2], [4.2, 1, -0.8]], view_point_range: [1, 3] },
    ],
  }]);
  assert.throws(() => releasedGoals([]), /needs a goal instance/);
});

/**
 * A written episode's instances, whichever form it has: the slices of a goal entry's `instances`,
 * else one goal entry per instance (the form examples/vcn-mini was written in before).
 */
function instancesOf(e: Json): ReleasedInstance[] {
  return e.goals.flatMap((g: Json, k: number) => (g.instances
    ? g.instances.map((i: Json) => ({ instance_id: i.instance_id, position: i.position, bbox: i.bbox, view_points: g.view_points.slice(i.view_point_range[0], i.view_point_range[1]) }))
    : [{ instance_id: e.instruction.instance_id[k], position: g.position, view_points: g.view_points, bbox: g.bbox }]));
}

test("the first generated episode of examples/vcn-mini with two goal instances: goals[0] of its entry carries every instance's view points; loading it gives the same view points and distances as one entry per instance", () => {
  const file = path.resolve(import.meta.dirname, "../../../../examples/vcn-mini/episodes.json.gz");
  const episode = (JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")).episodes as Json[]).find((e) => instancesOf(e).length >= 2)!;
  assert.ok(episode, "the example has an episode with two goal instances");
  const instances = instancesOf(episode);
  assert.deepEqual(instances.map((i) => i.instance_id), episode.instruction.instance_id);
  const counts = instances.map((i) => i.view_points.length);
  const written = { ...episode, goals: releasedGoals(instances) };
  const perInstance = { ...episode, goals: instances.map((i) => ({ position: i.position, view_points: i.view_points, bbox: i.bbox })) };
  // What a goals[0]-only reader sees: every view point of every instance, in instance order.
  const first = written.goals[0] as Json;
  assert.equal(written.goals.length, 1);
  assert.equal(first.view_points.length, counts.reduce((a, b) => a + b, 0));
  assert.deepEqual(first.view_points, instances.flatMap((i) => i.view_points));
  assert.deepEqual(first.instances.map((i: Json) => i.view_point_range[1] - i.view_point_range[0]), counts);
  // Our loader: the same points from either form, the same distances from anywhere.
  const load = (e: Json) => {
    const { episodes, problems } = parseEpisodes({ episodes: [e] }, "episodes.json.gz");
    assert.deepEqual(problems, []);
    return episodes[0]!;
  };
  const [before, after] = [load(perInstance), load(written)];
  assert.equal(before.goals.length, instances.length);
  assert.equal(after.goals.length, 1);
  const key = (p: number[]) => p.join(",");
  assert.deepEqual(after.goals[0]!.view_points.map(key), before.goals.flatMap((g) => g.view_points).map(key));
  for (const probe of [episode.start_position, ...instances.map((i) => i.position), [0, 0, 0]]) {
    assert.equal(distanceToGoal(probe, after), distanceToGoal(probe, before));
  }
});
