import assert from "node:assert/strict";
import { test } from "node:test";
import { dijkstra, reachableFrom, shortestPathToAny, type WeightedDigraph } from "../../src/geometry/dijkstra.js";

const graph = (edges: Array<[number, number, number]>): WeightedDigraph => {
  const g: WeightedDigraph = new Map();
  for (const [a, b, w] of edges) {
    if (!g.has(a)) g.set(a, new Map());
    g.get(a)!.set(b, w);
  }
  return g;
};

// 1 -> 2 -> 3 costs 2, the direct 1 -> 3 costs 3; 3 -> 4 -> 1 closes a one-way loop.
const g = graph([
  [1, 2, 1],
  [2, 3, 1],
  [1, 3, 3],
  [3, 4, 1],
  [4, 1, 2],
]);

test("dijkstra distances and predecessors", () => {
  const { dist, prev } = dijkstra(g, 1);
  assert.deepEqual([...dist].sort((a, b) => a[0] - b[0]), [[1, 0], [2, 1], [3, 2], [4, 3]]);
  assert.equal(prev.get(3), 2);
  assert.equal(prev.has(1), false);
});

test("shortestPathToAny picks the nearest target and respects direction", () => {
  assert.deepEqual(shortestPathToAny(g, 1, [3, 4]), { path: [1, 2, 3], length: 2 });
  assert.deepEqual(shortestPathToAny(g, 3, [1]), { path: [3, 4, 1], length: 3 }); // no 3 -> 1 edge
  assert.deepEqual(shortestPathToAny(g, 2, [2]), { path: [2], length: 0 });
  assert.equal(shortestPathToAny(g, 1, [99]), null);
});

test("ties go to the smaller node id", () => {
  const diamond = graph([
    [1, 3, 1],
    [1, 2, 1],
    [3, 4, 1],
    [2, 4, 1],
  ]);
  assert.deepEqual(shortestPathToAny(diamond, 1, [4])?.path, [1, 2, 4]);
});

test("lengths are left-to-right sums of the edge weights", () => {
  const h = graph([
    [1, 2, 0.1],
    [2, 3, 0.2],
  ]);
  assert.equal(shortestPathToAny(h, 1, [3])?.length, 0.1 + 0.2); // 0.30000000000000004
});

test("reachableFrom follows edge direction", () => {
  assert.deepEqual([...reachableFrom(g, 2)].sort(), [1, 2, 3, 4]);
  const oneWay = graph([[1, 2, 1]]);
  assert.deepEqual([...reachableFrom(oneWay, 2)], [2]);
});
