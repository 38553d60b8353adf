import { test } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import type { Vec2, Vec3, WorldCategory, WorldMesh } from "../../src/world/types.js";
import {
  cellCenter,
  discLineOfSight,
  emptyGrid,
  forEachCoveredSpan,
  freeComponents,
  geodesicDistance,
  geodesicDistances,
  gridForBounds,
  inflate,
  largestFreeComponent,
  lineOfSight,
  doorPassages,
  occupancyForScene,
  occupancyFromMeshes,
  occupancyMeta,
  occupancyToPng,
  pathLength,
  readOccupancyPng,
  roomAt,
  shortestPath,
  shortestPathTree,
  smoothPath,
  worldToCell,
  type OccupancyGrid,
} from "../../src/world/space/index.js";

const S2 = Math.SQRT2;

// ------------------------------------------------------------------ helpers

/** A grid from rows of '#' (occupied) and '.' (free), listed from the highest row j down to j = 0. */
function gridFromArt(rows: string[], cellSize = 1, origin: Vec2 = [0, 0]): OccupancyGrid {
  const height = rows.length;
  const width = rows[0]!.length;
  const g = emptyGrid(origin, cellSize, width, height);
  rows.forEach((row, r) => {
    assert.equal(row.length, width);
    const j = height - 1 - r;
    for (let i = 0; i < width; i++) g.occupied[j * width + i] = row[i] === "#" ? 1 : 0;
  });
  return g;
}

/** The occupied cells as sorted "i,j" strings. */
function occupiedCells(g: OccupancyGrid): string[] {
  const out: string[] = [];
  for (let j = 0; j < g.height; j++) for (let i = 0; i < g.width; i++) if (g.occupied[j * g.width + i]) out.push(`${i},${j}`);
  return out.sort();
}

function cellsOf(list: Array<[number, number]>): string[] {
  return list.map(([i, j]) => `${i},${j}`).sort();
}

function meshOf(triangles: Vec3[][], category: WorldCategory = "table", instanceId = 1): WorldMesh {
  const positions = new Float32Array(triangles.flat().flat());
  const indices = new Uint32Array(positions.length / 3).map((_, k) => k);
  return {
    instanceId,
    category,
    parts: [{ positions, normals: new Float32Array(positions.length), uvs: null, indices, diffuse: [0.5, 0.5, 0.5], opacity: 1, texture: null }],
  };
}

/** The 12 triangles of an axis-aligned box. */
function boxTriangles(min: Vec3, max: Vec3): Vec3[][] {
  const [x0, y0, z0] = min;
  const [x1, y1, z1] = max;
  const v = (i: number): Vec3 => [i & 1 ? x1 : x0, i & 2 ? y1 : y0, i & 4 ? z1 : z0];
  const quads = [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]];
  return quads.flatMap(([a, b, c, d]) => [[v(a!), v(b!), v(c!)], [v(a!), v(c!), v(d!)]]);
}

const bounds4 = { min: [0, 0] as Vec2, max: [4, 4] as Vec2 };

// ------------------------------------------------------------------ grid geometry

test("grid: cell counts from bounds, worldToCell and cellCenter", () => {
  const g = gridForBounds({ min: [0, 0], max: [3, 1.5] }, 0.05);
  assert.equal(g.width, 60); // 3 / 0.05 = 60.000000000000004 counts as 60
  assert.equal(g.height, 30);
  assert.equal(gridForBounds({ min: [0, 0], max: [3.01, 1] }, 0.5).width, 7);
  const h = emptyGrid([-1, 2], 0.25, 8, 8);
  assert.deepEqual(worldToCell(h, [-1, 2]), [0, 0]);
  assert.deepEqual(worldToCell(h, [-0.75, 2.3]), [1, 1]);
  assert.deepEqual(worldToCell(h, [-1.01, 2]), [-1, 0]);
  assert.deepEqual(cellCenter(h, 2, 3), [-0.375, 2.875]);
});

// ------------------------------------------------------------------ occupancy

test("occupancy: a horizontal triangle occupies exactly the cells its closed area meets", () => {
  // Triangle x >= 0.5, y >= 0.5, x + 1.5 y <= 4.25 at z = 0.5; 1 m cells. Cell (i, j) is met when
  // max(i, 0.5) + 1.5 max(j, 0.5) <= 4.25: j = 0 -> i <= 3, j = 1 -> i <= 2, j = 2 -> i <= 1.
  const tri = meshOf([[[0.5, 0.5, 0.5], [3.5, 0.5, 0.5], [0.5, 2.5, 0.5]]]);
  const g = occupancyFromMeshes([tri], { bounds: bounds4, cellSize: 1, zMin: 0, zMax: 1 });
  assert.deepEqual(occupiedCells(g), cellsOf([[0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2]]));
  // A vertex on a cell edge touches both cells: (1, 0.2) lies on x = 1; x + y <= 1.2 misses (1, 1).
  const touch = meshOf([[[0.2, 0.2, 0.5], [1, 0.2, 0.5], [0.2, 1, 0.5]]]);
  const t = occupancyFromMeshes([touch], { bounds: bounds4, cellSize: 1, zMin: 0, zMax: 1 });
  assert.deepEqual(occupiedCells(t), cellsOf([[0, 0], [1, 0], [0, 1]]));
});

test("occupancy: band clipping", () => {
  const above = meshOf([[[0.5, 0.5, 1.2], [3.5, 0.5, 1.5], [0.5, 3.5, 2]]]);
  assert.deepEqual(occupiedCells(occupancyFromMeshes([above], { bounds: bounds4, cellSize: 1, zMin: 0, zMax: 1 })), []);
  // A ramp z = x - 0.5 over the triangle x >= 0.5, y >= 0.5, x + y <= 4.
  const ramp = meshOf([[[0.5, 0.5, 0], [3.5, 0.5, 3], [0.5, 3.5, 0]]]);
  // Band [0, 1]: the part with x <= 1.5; cells i <= 1 with max(i, 0.5) + max(j, 0.5) <= 4.
  const low = occupancyFromMeshes([ramp], { bounds: bounds4, cellSize: 1, zMin: 0, zMax: 1 });
  assert.deepEqual(occupiedCells(low), cellsOf([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]]));
  // Band [1.5, 2]: the part with 2 <= x <= 2.5 (so y <= 2): columns 1 (touching x = 2) and 2, rows 0..2.
  const mid = occupancyFromMeshes([ramp], { bounds: bounds4, cellSize: 1, zMin: 1.5, zMax: 2 });
  assert.deepEqual(occupiedCells(mid), cellsOf([[1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]]));
});

test("occupancy: a box cut through its sides occupies its footprint; the outline alone without filling", () => {
  // x in [0.3, 1.7] meets columns 0..3 of 0.5 m cells, y in [0.6, 2.2] rows 1..4; the band
  // [0.1, 0.5] misses the top and the bottom, so only the side faces are cut.
  const box = meshOf(boxTriangles([0.3, 0.6, 0], [1.7, 2.2, 1]), "cabinet");
  const opts = { bounds: { min: [0, 0] as Vec2, max: [3, 3] as Vec2 }, cellSize: 0.5, zMin: 0.1, zMax: 0.5 };
  const footprint: Array<[number, number]> = [];
  for (let i = 0; i <= 3; i++) for (let j = 1; j <= 4; j++) footprint.push([i, j]);
  assert.deepEqual(occupiedCells(occupancyFromMeshes([box], opts)), cellsOf(footprint));
  const outline = footprint.filter(([i, j]) => !(i >= 1 && i <= 2 && j >= 2 && j <= 3));
  assert.equal(outline.length, 12);
  assert.deepEqual(occupiedCells(occupancyFromMeshes([box], { ...opts, fillEnclosed: () => false })), cellsOf(outline));
  // Faces lying on cell edges touch the cells on both sides: [0.5, 1] occupies columns/rows 0..2.
  const aligned = meshOf(boxTriangles([0.5, 0.5, 0], [1, 1, 1]));
  const around: Array<[number, number]> = [];
  for (let i = 0; i <= 2; i++) for (let j = 0; j <= 2; j++) around.push([i, j]);
  assert.deepEqual(occupiedCells(occupancyFromMeshes([aligned], opts)), cellsOf(around));
});

test("occupancy: filling is per mesh, so space enclosed by several objects stays free", () => {
  // Four thin boxes on a ring: rows/columns 1 and 4 of 1 m cells, cut through their sides only.
  const sides: Array<[Vec3, Vec3]> = [
    [[1.2, 1.2, 0], [4.8, 1.4, 2]],
    [[1.2, 4.6, 0], [4.8, 4.8, 2]],
    [[1.2, 1.2, 0], [1.4, 4.8, 2]],
    [[4.6, 1.2, 0], [4.8, 4.8, 2]],
  ];
  const opts = { bounds: { min: [0, 0] as Vec2, max: [6, 6] as Vec2 }, cellSize: 1, zMin: 0.1, zMax: 1 };
  const ring: Array<[number, number]> = [];
  const square: Array<[number, number]> = [];
  for (let i = 1; i <= 4; i++) {
    for (let j = 1; j <= 4; j++) {
      square.push([i, j]);
      if (i === 1 || i === 4 || j === 1 || j === 4) ring.push([i, j]);
    }
  }
  const separate = sides.map(([a, b], k) => meshOf(boxTriangles(a, b), "shelf", k + 1));
  assert.deepEqual(occupiedCells(occupancyFromMeshes(separate, opts)), cellsOf(ring));
  const joined = meshOf(sides.flatMap(([a, b]) => boxTriangles(a, b)), "shelf", 9);
  assert.deepEqual(occupiedCells(occupancyFromMeshes([joined], opts)), cellsOf(square));
});

test("occupancy: floors and ceilings are skipped by default; rooms mark the outside", () => {
  const floor = meshOf([[[0, 0, 0], [4, 0, 0], [4, 4, 0]], [[0, 0, 0], [4, 4, 0], [0, 4, 0]]], "floor", 1_000_000);
  const opts = { bounds: bounds4, cellSize: 1, zMin: 0, zMax: 1 };
  assert.deepEqual(occupiedCells(occupancyFromMeshes([floor], opts)), []);
  assert.equal(occupiedCells(occupancyFromMeshes([floor], { ...opts, skip: () => false })).length, 16);
  // L-shaped room: centres (0.5, 0.5), (1.5, 0.5), (2.5, 0.5), (0.5, 1.5), (0.5, 2.5) are inside.
  const room: Vec2[] = [[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]];
  const g = occupancyFromMeshes([], { ...opts, rooms: [room] });
  const inside = new Set(cellsOf([[0, 0], [1, 0], [2, 0], [0, 1], [0, 2]]));
  const all: string[] = [];
  for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) if (!inside.has(`${i},${j}`)) all.push(`${i},${j}`);
  assert.deepEqual(occupiedCells(g), all.sort());
});

test("occupancyForScene: door gaps through the wall join the rooms", () => {
  // Rooms A (x < 2) and B (x > 2.2) either side of a wall on x = 2.1, 0.2 thick, with a 0.8 m door.
  const room = (id: string, x0: number, x1: number) => ({
    id, type: "bedroom" as const, polygon: [[x0, 0], [x1, 0], [x1, 2], [x0, 2]] as Vec2[], floorMaterial: "oak", wallMaterial: "paint",
  });
  const scene = {
    bounds: { min: [0, 0] as Vec2, max: [4.2, 2] as Vec2 },
    rooms: [room("A", 0, 2), room("B", 2.2, 4.2)],
    walls: [{ id: "w", a: [2.1, 0] as Vec2, b: [2.1, 2] as Vec2, thickness: 0.2, height: 2.5, rooms: ["A", "B"] as [string, string], openings: [] }],
    doors: [{ id: "d", wallId: "w", rooms: ["A", "B"] as [string, string], center: [2.1, 1] as Vec2, width: 0.8 }],
  };
  assert.deepEqual(doorPassages(scene), [[[2.2, 0.6], [2.2, 1.4], [2, 1.4], [2, 0.6]]]);
  const g = occupancyForScene(scene, [], { cellSize: 0.1, zMin: 0.1, zMax: 1.8 });
  assert.deepEqual([g.width, g.height], [42, 20]);
  // Columns 20 and 21 (centres 2.05, 2.15) are in the wall, free only in rows 6..13 (centres 0.65..1.35).
  const wall: Array<[number, number]> = [];
  for (const i of [20, 21]) for (let j = 0; j < 20; j++) if (j < 6 || j > 13) wall.push([i, j]);
  assert.deepEqual(occupiedCells(g), cellsOf(wall));
  assert.ok(Math.abs(geodesicDistance(g, [1.05, 1.05], [3.05, 1.05]) - 2) < 1e-12);
  const closed = occupancyFromMeshes([], { bounds: scene.bounds, cellSize: 0.1, zMin: 0.1, zMax: 1.8, rooms: scene.rooms.map((r) => r.polygon) });
  assert.equal(geodesicDistance(closed, [1.05, 1.05], [3.05, 1.05]), Infinity);
});

test("occupancy: PNG round trip with +y up", async () => {
  const g = gridFromArt(["#..", "..#"], 0.1, [1, -2]); // j = 1: (0, 1) occupied; j = 0: (2, 0) occupied
  const png = await occupancyToPng(g);
  assert.deepEqual(await occupancyToPng(g), png);
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  assert.equal(info.width, 3);
  assert.equal(info.height, 2);
  const grey = Array.from({ length: 6 }, (_, k) => data[k * info.channels]!);
  assert.deepEqual(grey, [255, 0, 0, 0, 0, 255]); // image row 0 = grid row j = 1
  const meta = occupancyMeta(g);
  assert.deepEqual([meta.origin, meta.cell_size, meta.width, meta.height], [[1, -2], 0.1, 3, 2]);
  const back = await readOccupancyPng(png, JSON.parse(JSON.stringify(meta)));
  assert.deepEqual(back, g);
});

// ------------------------------------------------------------------ inflation and components

test("inflate: distance from a cell centre to the nearest occupied square, strictly below the radius", () => {
  const N = 13;
  const single = (): OccupancyGrid => {
    const g = emptyGrid([0, 0], 1, N, N);
    g.occupied[6 * N + 6] = 1;
    return g;
  };
  // The grid's outside is occupied too: centres within r of an edge (i + 0.5 < r or N - i - 0.5 < r).
  const border = (r: number): Array<[number, number]> => {
    const out: Array<[number, number]> = [];
    const near = (k: number): boolean => k + 0.5 < r || N - k - 0.5 < r;
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) if (near(i) || near(j)) out.push([i, j]);
    return out;
  };
  // Offsets (di, dj) have per-axis gap max(0, |d| - 0.5) to the square of cell (6, 6).
  // r = 1.5: (1, 1) gives 0.5 < 2.25, (2, 0) gives 2.25, not below: the 3x3 block.
  const block: Array<[number, number]> = [];
  for (let i = 5; i <= 7; i++) for (let j = 5; j <= 7; j++) block.push([i, j]);
  assert.equal(border(1.5).length, 48); // rows and columns 0 and 12
  assert.deepEqual(occupiedCells(inflate(single(), 1.5)), cellsOf([...block, ...border(1.5)]));
  // r = 1.6: (2, 0) 2.25 and (2, 1) 2.5 are below 2.56; (2, 2) 4.5 is not.
  const plus = [...block];
  for (const d of [-1, 0, 1]) plus.push([6 + d, 4], [6 + d, 8], [4, 6 + d], [8, 6 + d]);
  assert.equal(border(1.6).length, 13 * 13 - 9 * 9); // two rings
  assert.deepEqual(occupiedCells(inflate(single(), 1.6)), cellsOf([...plus, ...border(1.6)]));
  assert.deepEqual(inflate(single(), 0), single());
  // Square, not centre, distance: from the centre of (7, 7), cell (14, 7) is 7 centre-to-centre
  // and 6.5 to its square; cell (12, 12) is sqrt(50) ~ 7.07 centre-to-centre but 4.5 sqrt 2 ~ 6.364
  // to its square. Edges are 7.5 away.
  const far = emptyGrid([0, 0], 1, 15, 15);
  far.occupied[7 * 15 + 14] = 1;
  far.occupied[12 * 15 + 12] = 1;
  assert.equal(inflate(far, 6.4).occupied[7 * 15 + 7], 1);
  assert.equal(inflate(far, 6.36).occupied[7 * 15 + 7], 0);
});

test("inflate: the grid's outside counts as occupied; decimal radii tie exactly", () => {
  const strip = emptyGrid([0, 0], 1, 3, 1); // every centre is 0.5 from the top and bottom edges
  assert.deepEqual(occupiedCells(inflate(strip, 0.5)), []);
  assert.deepEqual(occupiedCells(inflate(strip, 0.6)), ["0,0", "1,0", "2,0"]);
  // 0.07 m on 0.02 m cells is 3.5 cells; (2 * 0.07 / 0.02)^2 = 49.000000000000014 in doubles.
  const g = emptyGrid([0, 0], 0.02, 21, 21);
  g.occupied[10 * 21 + 10] = 1;
  const out = inflate(g, 0.07);
  assert.equal(out.occupied[10 * 21 + 13], 1); // gap 2.5 cells
  assert.equal(out.occupied[10 * 21 + 14], 0); // gap 3.5 cells = 0.07 m exactly: not below
});

test("free components: 4-connected by default (the path rule), 8 on request", () => {
  const g = gridFromArt([
    "..#.",
    "#.#.",
    ".#..",
  ]);
  // Free cells: j=2: (0,2),(1,2),(3,2); j=1: (1,1),(3,1); j=0: (0,0),(2,0),(3,0).
  const four = freeComponents(g);
  assert.equal(four.count, 3);
  assert.deepEqual(four.components.map((c) => c.pixelCount), [1, 4, 3]); // {(0,0)}, {(2,0),(3,0),(3,1),(3,2)}, {(1,1),(0,2),(1,2)}
  assert.equal(four.labels[0], 1);
  assert.equal(four.labels[2 * 4 + 1], 3);
  const eight = freeComponents(g, 8);
  assert.equal(eight.count, 1); // (0,0)-(1,1) and (1,1)-(2,0) touch at corners
  const largest = largestFreeComponent(g)!;
  assert.equal(largest.size, 4);
  assert.deepEqual(occupiedCells(largest.grid).length, 12 - 4);
  assert.equal(largestFreeComponent(gridFromArt(["##"])), null);
  // Consistency with paths: (0,0) and (1,1) share a corner only, so no path joins them.
  assert.equal(geodesicDistance(g, [0.5, 0.5], [1.5, 1.5]), Infinity);
});

// ------------------------------------------------------------------ paths

test("geodesic distances on an L-shaped corridor", () => {
  const cs = 0.5;
  const g = gridFromArt([
    "..####",
    "..####",
    "..####",
    "......",
    "......",
  ], cs);
  const d = geodesicDistances(g, [2.6, 0.1]); // in cell (5, 0)
  const expected = (i: number, j: number): number => {
    if (j <= 1) {
      // The lower arm is a rectangle: octile distance.
      const dx = 5 - i, dy = j;
      return Math.max(dx, dy) + (S2 - 1) * Math.min(dx, dy);
    }
    if (i >= 2) return Infinity;
    // The upper arm is entered from (1,1) (3 + sqrt2 away): straight up to (1,2) at 4 + sqrt2, or
    // diagonally to (0,2) at 3 + 2 sqrt2 (not from (2,1): cell (2,2) is occupied). Then straight up.
    return i === 1 ? j + 2 + S2 : j + 1 + 2 * S2;
  };
  for (let j = 0; j < 5; j++) {
    for (let i = 0; i < 6; i++) {
      const want = expected(i, j) * cs;
      const got = d[j * 6 + i]!;
      if (want === Infinity) assert.equal(got, Infinity, `cell ${i},${j}`);
      else assert.ok(Math.abs(got - want) < 1e-12, `cell ${i},${j}: ${got} vs ${want}`);
    }
  }
  assert.ok(Math.abs(geodesicDistance(g, [2.6, 0.1], [0.1, 2.4]) - (5 + 2 * S2) * cs) < 1e-12);
  assert.equal(geodesicDistances(g, [2.6, 2.4]).every((v) => v === Infinity), true); // from an occupied cell
});

test("corner cutting is forbidden", () => {
  const g = gridFromArt([
    "...",
    ".#.",
    "...",
  ]);
  // With corner cutting (0,0) -> (1,0) -> (2,1) -> (2,2) would be 2 + sqrt2; without, 4.
  assert.equal(geodesicDistance(g, [0.5, 0.5], [2.5, 2.5]), 4);
  const diagonalOnly = gridFromArt([".#", "#."]);
  assert.equal(geodesicDistance(diagonalOnly, [0.5, 0.5], [1.5, 1.5]), Infinity);
  assert.equal(shortestPath(diagonalOnly, [0.5, 0.5], [1.5, 1.5]), null);
});

test("shortest path around a wall, and string pulling", () => {
  const g = gridFromArt([
    ".....",
    "..#..",
    "..#..",
    "..#..",
    "..#..",
  ]);
  const path = shortestPath(g, [0.2, 0.3], [4.9, 0.1])!;
  assert.deepEqual(path[0], [0.5, 0.5]);
  assert.deepEqual(path[path.length - 1], [4.5, 0.5]);
  // The only way past the wall is cell (2, 4): (0,0) -> (1,4) is 3 + sqrt2, then 1 + 1, then
  // (3,4) -> (4,0) is 3 + sqrt2: 8 + 2 sqrt2.
  assert.ok(path.some((p) => p[0] === 2.5 && p[1] === 4.5));
  assert.ok(Math.abs(pathLength(path) - (8 + 2 * S2)) < 1e-12);
  assert.ok(Math.abs(geodesicDistance(g, [0.2, 0.3], [4.9, 0.1]) - (8 + 2 * S2)) < 1e-12);
  for (let k = 1; k < path.length; k++) {
    const step = Math.max(Math.abs(path[k]![0] - path[k - 1]![0]), Math.abs(path[k]![1] - path[k - 1]![1]));
    assert.equal(step, 1);
    assert.ok(lineOfSight(g, path[k - 1]!, path[k]!));
  }
  const smooth = smoothPath(g, path);
  assert.ok(smooth.length < path.length);
  for (let k = 1; k < smooth.length; k++) assert.ok(lineOfSight(g, smooth[k - 1]!, smooth[k]!));
  assert.ok(pathLength(smooth) < pathLength(path));
  assert.deepEqual(shortestPath(g, [0.5, 0.5], [0.7, 0.9]), [[0.5, 0.5]]);
  // One tree from the start answers the same: distances and the same path (ties settle alike).
  const tree = shortestPathTree(g, [0.2, 0.3]);
  assert.deepEqual(tree.distances, geodesicDistances(g, [0.2, 0.3]));
  assert.ok(Math.abs(tree.distanceTo([4.9, 0.1]) - (8 + 2 * S2)) < 1e-12);
  assert.deepEqual(tree.pathTo([4.9, 0.1]), path);
  assert.equal(tree.distanceTo([2.5, 0.5]), Infinity); // in the wall
  assert.equal(tree.pathTo([2.5, 0.5]), null);
  assert.equal(shortestPathTree(g, [2.5, 0.5]).sourceCell, -1);
});

test("smoothPath keeps the last point each anchor sees", () => {
  const g = emptyGrid([0, 0], 1, 5, 5);
  g.occupied[2 * 5 + 2] = 1; // square [2, 3] x [2, 3]
  const path: Vec2[] = [[0.5, 0.5], [1.5, 0.5], [2.5, 0.5], [3.5, 0.5], [3.5, 1.5], [3.5, 2.5], [3.5, 3.5]];
  // (0.5,0.5)-(3.5,1.5) stays below y = 1.5; (0.5,0.5)-(3.5,2.5) touches y = 2 at x = 2.75, on the
  // square. From (3.5,1.5) the vertical x = 3.5 is clear.
  assert.deepEqual(smoothPath(g, path), [[0.5, 0.5], [3.5, 1.5], [3.5, 3.5]]);
});

// ------------------------------------------------------------------ line of sight

test("lineOfSight: exact supercover, corners and edges included, outside blocked", () => {
  const g = emptyGrid([0, 0], 1, 4, 4);
  const spans: Array<[number, number, number]> = [];
  forEachCoveredSpan(g, [0.5, 3.5], [0.5, 2.5], 2, (j, i0, i1) => {
    spans.push([j, i0, i1]);
  });
  // y = 0.5 + 2 (x - 0.5) / 3 crosses y = 1 at x = 1.25 and y = 2 at x = 2.75.
  assert.deepEqual(spans, [[0, 0, 1], [1, 1, 2], [2, 2, 3]]);

  const corner = emptyGrid([0, 0], 1, 3, 3);
  corner.occupied[0] = 1; // square [0, 1]^2
  assert.equal(lineOfSight(corner, [0.5, 1.5], [1.5, 0.5]), false); // x + y = 2 passes its corner (1, 1)
  assert.equal(lineOfSight(corner, [0.5, 1.6], [1.6, 0.5]), true); // x + y = 2.1 misses it
  const edge = emptyGrid([0, 0], 1, 3, 3);
  edge.occupied[1] = 1; // cell (1, 0), top edge at y = 1
  assert.equal(lineOfSight(edge, [0.5, 1], [2.5, 1]), false);
  assert.equal(lineOfSight(edge, [0.5, 1.01], [2.5, 1.01]), true);
  const wall = emptyGrid([0, 0], 1, 5, 5);
  wall.occupied[2 * 5 + 2] = 1;
  assert.equal(lineOfSight(wall, [0.5, 0.5], [4.5, 4.5]), false);
  assert.equal(lineOfSight(wall, [0.5, 4.5], [4.5, 4.5]), true);
  assert.equal(lineOfSight(wall, [0.5, 4.5], [5.5, 4.5]), false); // leaves the grid
  assert.equal(lineOfSight(wall, [0, 4.5], [1.5, 4.5]), false); // starts on the grid's edge
});

test("discLineOfSight: gaps against 2r, corners, the grid edge", () => {
  // Row 4 is occupied except columns 3 and 4: a gap x in [3, 5].
  const g = emptyGrid([0, 0], 1, 7, 9);
  for (const i of [0, 1, 2, 5, 6]) g.occupied[4 * 7 + i] = 1;
  const a: Vec2 = [4, 1.5], b: Vec2 = [4, 7.5];
  assert.equal(discLineOfSight(g, a, b, 1), true); // 1 from both sides of the gap
  assert.equal(discLineOfSight(g, a, b, 1.25), false);
  assert.equal(discLineOfSight(g, a, b, 0), lineOfSight(g, a, b));
  // Narrow the gap to column 3 only: x in [3, 4].
  g.occupied[4 * 7 + 4] = 1;
  assert.equal(discLineOfSight(g, [3.5, 1.5], [3.5, 7.5], 0.5), true);
  assert.equal(discLineOfSight(g, [3.5, 1.5], [3.5, 7.5], 0.6), false);
  assert.equal(lineOfSight(g, [3, 1.5], [3, 7.5]), false); // along the gap's edge

  const c = emptyGrid([0, 0], 1, 7, 7);
  c.occupied[3 * 7 + 3] = 1; // square [3, 4]^2; its corner (4, 4) is 0.5 / sqrt2 from x + y = 8.5
  assert.equal(discLineOfSight(c, [2.5, 6], [6, 2.5], 0.35), true);
  assert.equal(discLineOfSight(c, [2.5, 6], [6, 2.5], 0.36), false);
  // The outside is occupied: (2.5, 6) is 1 from the top edge.
  const open = emptyGrid([0, 0], 1, 7, 7);
  assert.equal(discLineOfSight(open, [2.5, 6], [6, 2.5], 1), true);
  assert.equal(discLineOfSight(open, [2.5, 6], [6, 2.5], 1.01), false);
});

// ------------------------------------------------------------------ rooms

test("roomAt on a concave room", () => {
  const scene = {
    rooms: [
      { id: "L", type: "living room" as const, polygon: [[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]] as Vec2[], floorMaterial: "oak", wallMaterial: "paint" },
      { id: "R", type: "kitchen" as const, polygon: [[3, 0], [4, 0], [4, 3], [3, 3]] as Vec2[], floorMaterial: "tile", wallMaterial: "paint" },
    ],
  };
  assert.equal(roomAt(scene, [2, 2]), null); // in the notch of the L
  assert.equal(roomAt(scene, [0.5, 2.5]), "L");
  assert.equal(roomAt(scene, [2.5, 0.5]), "L");
  assert.equal(roomAt(scene, [3.5, 1]), "R");
  assert.equal(roomAt(scene, [5, 1]), null);
});

test("issue 25: a plan grid has at most 2048 x 2048 cells (a scene at most 100 m across), and a cell of a point 1e16 m away is found in two steps", () => {
  assert.throws(() => emptyGrid([0, 0], 0.05, 3000, 3000), { name: "RangeError", message: "a 3000x3000 grid has more than 4194304 cells" });
  assert.throws(() => gridForBounds({ min: [0, 0], max: [10_000, 10_000] }, 0.05), /a 200000x200000 grid has more than 4194304 cells/);
  assert.equal(gridForBounds({ min: [0, 0], max: [100, 100] }, 0.05).width, 2000);
  const far = worldToCell(emptyGrid([0, 0], 0.05, 10, 10), [1e16, -1e16]);
  assert.ok(far[0] > 1e17 && far[1] < -1e17);
});
