/**
 * The start of a generated episode: of the first 12 positions tried, the farthest from the goal
 * that is at least 3 m from it (§3.3's filter; the farthest so routes approach §3.4's 122.1 steps).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { farthestStart, type StartTry } from "../../../../src/benchmarks/vcn/construct/episode.js";

const tries = (distances: ReadonlyArray<number | null>): { list: StartTry[]; nearestOf: (frame: number) => { point: [number, number]; distance: number } | null } => ({
  list: distances.map((_, k) => ({ room: `r${k % 2}`, frame: 5 * k })),
  nearestOf: (frame) => {
    const d = distances[frame / 5];
    return d === null || d === undefined ? null : { point: [frame, 0], distance: d };
  },
});

test("the farthest try wins, ties go to the earlier, and tries under 3 m or cut off never do", () => {
  const a = tries([4, 9.5, null, 2.9, 9.5, 7]);
  assert.deepEqual(farthestStart(a.list, a.nearestOf), { room: "r1", frame: 5, nearest: { point: [5, 0], distance: 9.5 } });
  const b = tries([2.99, null, 3]);
  assert.deepEqual(farthestStart(b.list, b.nearestOf), { room: "r0", frame: 10, nearest: { point: [10, 0], distance: 3 } });
  const c = tries([1, null, 2.5]);
  assert.equal(farthestStart(c.list, c.nearestOf), null);
  assert.equal(farthestStart([], c.nearestOf), null);
});

test("only the first 12 tries are measured (a Dijkstra each)", () => {
  const distances = [...Array.from({ length: 12 }, (_, k) => 3 + k), 50];
  const t = tries(distances);
  const measured: number[] = [];
  const got = farthestStart(t.list, (frame) => (measured.push(frame), t.nearestOf(frame)));
  assert.equal(got!.frame, 55);
  assert.equal(got!.nearest.distance, 14);
  assert.deepEqual(measured, Array.from({ length: 12 }, (_, k) => 5 * k));
});
