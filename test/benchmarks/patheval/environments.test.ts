import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ENVIRONMENT_FAMILIES,
  environmentFileName,
  environmentName,
  generateEnvironment,
  generateEnvironmentText,
  generateMaze,
  generateRandomObstacles,
  generateRings,
  generateWaves,
  parseEnvironmentName,
  pathExists,
  releaseEnvironmentList,
  type EnvironmentFamily,
} from "../../../src/benchmarks/patheval/environments/index.js";
import { discClearance, isDiscFree } from "../../../src/geometry/collision.js";
import { PATHEVAL_GOAL, PATHEVAL_START } from "../../../src/geometry/planners.js";
import {
  formatEnvironment,
  parseEnvironment,
  polygonArea,
  polygonBounds,
  rectanglePolygon,
  segmentPolygonDistance,
  type Polygon,
} from "../../../src/geometry/polygon.js";
import { createRng } from "../../../src/stats/rng.js";

test("release names and file names", () => {
  assert.equal(environmentName("maze", 10, 0), "SceneMaze_Dims10_0");
  assert.equal(environmentName("random", 20, 29), "SceneRandom_Frac20_29");
  assert.equal(environmentName("rings", 2, 7), "SceneRings_Gap2_7");
  assert.equal(environmentFileName("waves", 5, 3), "SceneWaves_Lines5_3Obstacles.txt");
  assert.deepEqual(parseEnvironmentName("data/SceneRings_Gap15_12Obstacles.txt"), { family: "rings", parameter: 15, index: 12 });
  assert.deepEqual(parseEnvironmentName("SceneMaze_Dims18_0"), { family: "maze", parameter: 18, index: 0 });
  assert.equal(parseEnvironmentName("Scene3Obstacles.txt"), null);
  assert.throws(() => environmentName("spiral" as EnvironmentFamily, 1, 0), /unknown environment family/);
  assert.throws(() => environmentName("maze", 10.5, 0), /integers/);
  const all = releaseEnvironmentList();
  assert.equal(all.length, (9 + 9 + 14 + 6) * 30);
  assert.equal(new Set(all.map((e) => environmentName(e.family, e.parameter, e.index))).size, all.length);
  assert.deepEqual(ENVIRONMENT_FAMILIES.rings.range, [2, 15]);
});

test("generation is deterministic in (family, parameter, index, seed)", () => {
  const a = generateEnvironmentText("random", 14, 3, 42);
  assert.equal(generateEnvironmentText("random", 14, 3, 42), a);
  assert.notEqual(generateEnvironmentText("random", 14, 4, 42), a);
  assert.notEqual(generateEnvironmentText("random", 14, 3, 43), a);
  assert.throws(() => generateEnvironment("maze", 9, 0, 1), /outside the release's range 10\.\.18/);
  assert.equal(generateEnvironment("maze", 6, 0, 1, { allowOutOfRange: true }).polygons.length, 25 - Math.round(0.06 * 25));
});

const CASES: Array<[EnvironmentFamily, number]> = [
  ["maze", 10], ["maze", 18],
  ["random", 12], ["random", 20],
  ["rings", 2], ["rings", 15],
  ["waves", 5], ["waves", 10],
];

for (const [family, parameter] of CASES) {
  test(`${family} ${parameter}: start and goal free, a path for radius 1.5, the file round-trips`, () => {
    for (const index of [0, 1]) {
      const env = generateEnvironment(family, parameter, index, 2026);
      assert.equal(env.name, environmentName(family, parameter, index));
      assert.ok(env.polygons.length > 0);
      for (const p of [PATHEVAL_START, PATHEVAL_GOAL]) {
        assert.ok(discClearance(env.polygons, p[0], p[1]) >= 1.75, `${env.name}: ${p} too close to an obstacle`);
        assert.ok(isDiscFree(env.polygons, p[0], p[1], 1.5), `${env.name}: disc of 1.5 at ${p}`);
      }
      assert.equal(pathExists(env.polygons, 1.5, PATHEVAL_START, PATHEVAL_GOAL), true);
      const text = formatEnvironment(env.polygons);
      assert.deepEqual(parseEnvironment(text, env.fileName), env.polygons, "6-decimal coordinates read back exactly");
      for (const p of env.polygons) for (const v of p) assert.ok(Number.isFinite(v) && Math.abs(v) <= 41);
    }
  });
}

test("maze layout: 0.5-thick cell walls over [-40, 40] x [-33, 33]; perfect maze has (N-1)^2 walls", () => {
  for (const N of [10, 13, 18]) {
    const perfect = generateMaze(N, createRng(N), { loopFraction: 0 });
    assert.equal(perfect.length, (N - 1) ** 2);
    const cw = 80 / N;
    const ch = 66 / N;
    const walls = new Set<string>();
    for (const p of perfect) {
      assert.equal(p.length, 8);
      const b = polygonBounds(p);
      const w = b.maxX - b.minX;
      const h = b.maxY - b.minY;
      if (Math.abs(h - 0.5) < 1e-9) {
        assert.ok(Math.abs(w - cw) < 1e-9);
        walls.add(`h${Math.round((b.minY + 0.25 + 33) / ch)},${Math.round((b.minX + 40) / cw)}`);
      } else {
        assert.ok(Math.abs(w - 0.5) < 1e-9 && Math.abs(h - ch) < 1e-9);
        walls.add(`v${Math.round((b.minY + 33) / ch)},${Math.round((b.minX + 0.25 + 40) / cw)}`);
      }
      assert.ok(b.minY >= -33.25 - 1e-9 && b.maxY <= 33.25 + 1e-9);
    }
    // Every cell reachable: a perfect maze is a spanning tree of the cells.
    const seen = new Set([0]);
    const stack = [0];
    while (stack.length) {
      const c = stack.pop()!;
      const r = Math.floor(c / N);
      const k = c % N;
      const moves: Array<[number, string]> = [
        [c + N, `h${r + 1},${k}`], [c - N, `h${r},${k}`], [c + 1, `v${r},${k + 1}`], [c - 1, `v${r},${k}`],
      ];
      for (const [n, wall] of moves) {
        const nr = Math.floor(n / N);
        if (n < 0 || n >= N * N || (Math.abs(n - c) === 1 && nr !== r) || walls.has(wall) || seen.has(n)) continue;
        seen.add(n);
        stack.push(n);
      }
    }
    assert.equal(seen.size, N * N);
    assert.equal(generateMaze(N, createRng(N)).length, (N - 1) ** 2 - Math.round(0.06 * (N - 1) ** 2));
  }
});

test("rings layout: arcs 1 thick at mid radii 36 - k (G + 1), 3 or 4 per ring", () => {
  for (const G of [2, 7, 15]) {
    const polys = generateRings(G, createRng(G));
    const radii = new Map<number, number>();
    for (const p of polys) {
      const rs = [];
      for (let i = 0; i < p.length; i += 2) rs.push(Math.hypot(p[i]!, p[i + 1]!));
      const mid = (Math.min(...rs) + Math.max(...rs)) / 2;
      assert.ok(Math.abs(Math.max(...rs) - Math.min(...rs) - 1) < 1e-9);
      for (const r of rs) assert.ok(Math.abs(Math.abs(r - mid) - 0.5) < 1e-9);
      const k = (36 - mid) / (G + 1);
      assert.ok(Math.abs(k - Math.round(k)) < 1e-9, `mid radius ${mid}`);
      radii.set(Math.round(k), (radii.get(Math.round(k)) ?? 0) + 1);
    }
    assert.equal(radii.size, Math.floor((36 - 5) / (G + 1)) + 1);
    for (const n of radii.values()) assert.ok(n >= 3 && n <= 4);
  }
});

test("waves layout: L lines of 8-vertex pieces around evenly spread base heights", () => {
  for (const L of [5, 10]) {
    const polys = generateWaves(L, createRng(L));
    const bases = Array.from({ length: L }, (_, i) => -32 + ((i + 0.5) * 64) / L);
    const perLine = new Array<number>(L).fill(0);
    for (const p of polys) {
      assert.equal(p.length, 16);
      const b = polygonBounds(p);
      const line = bases.findIndex((y) => b.minY >= y - 3.1 && b.maxY <= y + 3.1);
      assert.ok(line >= 0, `piece at y ${b.minY}..${b.maxY}`);
      perLine[line]!++;
    }
    for (const n of perLine) assert.ok(n >= 2, "every line is broken by gaps");
  }
});

test("random layout: fills the fraction of the 74 x 74 placement square, obstacles 1.5 apart", () => {
  for (const F of [12, 20]) {
    const polys = generateRandomObstacles(F, createRng(F));
    const area = polys.reduce((s, p) => s + polygonArea(p), 0);
    assert.ok(area >= (F / 100) * 74 * 74, `${area}`);
    assert.ok(area < (F / 100) * 74 * 74 + 40);
    const sides = new Set(polys.map((p) => p.length / 2));
    for (const n of [3, 4, 6, 8]) assert.ok(sides.has(n), `has ${n}-gons`);
    for (let i = 0; i < polys.length; i++) {
      for (let j = i + 1; j < polys.length; j++) {
        const a = polys[i]!;
        const b = polys[j]!;
        let d = Infinity;
        for (let k = 0, m = a.length / 2; k < m; k++) {
          const l = (k + m - 1) % m;
          d = Math.min(d, segmentPolygonDistance(b, a[2 * l]!, a[2 * l + 1]!, a[2 * k]!, a[2 * k + 1]!));
        }
        assert.ok(d >= 1.5 - 1e-9, `obstacles ${i} and ${j} are ${d} apart`);
      }
    }
    assert.ok(discClearance(polys, ...(PATHEVAL_START as [number, number])) >= 2.5);
  }
});

test("pathExists: a gap a little wider than the disc passes, a narrower one does not", () => {
  const wall = (gap: number): Polygon[] => [rectanglePolygon(-40, -0.5, -gap / 2, 0.5), rectanglePolygon(gap / 2, -0.5, 40, 0.5)];
  assert.equal(pathExists(wall(3.3), 1.5, PATHEVAL_START, PATHEVAL_GOAL), true);
  assert.equal(pathExists(wall(2.9), 1.5, PATHEVAL_START, PATHEVAL_GOAL), false);
  assert.equal(pathExists(wall(2.9), 1.0, PATHEVAL_START, PATHEVAL_GOAL), true);
  assert.equal(pathExists([rectanglePolygon(-38, -38, -35, -35)], 1.5, PATHEVAL_START, PATHEVAL_GOAL), false);
});
