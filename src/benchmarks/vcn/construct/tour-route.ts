/**
 * The route of a VCN-Bench tour (paper §3.3: "a minimum-cost traversal sequence covering all
 * navigable nodes" of the floor's navigation graph).
 *
 * The paper uses Matterport3D's annotated navigation graphs and orders their nodes with a genetic
 * algorithm (Holland, 1992). Ours differs: the graph is built on the walker's free space (the
 * occupancy grid inflated by a person's radius), its nodes are free points spread over every room
 * (one per TOUR_PARAMS.m2PerNode of floor, at least one) plus the centre of every door between two
 * rooms, its edge costs are grid geodesics, and the open path from the start node is ordered by a
 * deterministic heuristic: nearest neighbour, then 2-opt and Or-opt moves until none shortens it.
 * Revisits of rooms (a hallway passed through twice) come out of the ordering by themselves.
 */
import { polygon, polygonArea } from "../../../geometry/polygon.js";
import type { Scene, Vec2 } from "../../../world/types.js";
import { cellCenter, roomAt, shortestPathTree, smoothPath, squaredHalfCellDistanceToOccupied, worldToCell, type OccupancyGrid, type ShortestPathTree } from "../../../world/space/index.js";
import { TOUR_PARAMS as P } from "./tour-params.js";

export interface RouteNode {
  /** Cell centre on the route grid. */
  point: Vec2;
  /** The room holding the node (null for a door's centre in the wall). */
  room: string | null;
  kind: "room" | "door";
}

export interface PlannedRoute {
  /** Nodes in visiting order; the first is the start. */
  nodes: RouteNode[];
  /** The walk as a polyline: grid shortest paths between consecutive nodes, string-pulled per leg (nodes kept). */
  polyline: Vec2[];
  /** Indices into `polyline` of the nodes (in `nodes` order). */
  nodeVertices: number[];
  /** Sum of the legs' grid geodesics, metres. */
  geodesicCost: number;
}

/** Room index (scene order) of every free cell's centre, -1 for occupied cells and cells outside every room. */
export function cellRooms(scene: Pick<Scene, "rooms">, grid: OccupancyGrid): Int32Array {
  const index = new Map(scene.rooms.map((r, k) => [r.id, k]));
  const out = new Int32Array(grid.width * grid.height).fill(-1);
  for (let j = 0; j < grid.height; j++) {
    for (let i = 0; i < grid.width; i++) {
      const c = j * grid.width + i;
      if (grid.occupied[c]) continue;
      const room = roomAt(scene, cellCenter(grid, i, j));
      if (room !== null) out[c] = index.get(room)!;
    }
  }
  return out;
}

const centreOf = (grid: OccupancyGrid, c: number): Vec2 => cellCenter(grid, c % grid.width, Math.floor(c / grid.width));

function dist2(a: Vec2, b: Vec2): number {
  return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2;
}

/**
 * k cells spread over `cells` (ascending cell indices): seeded at the cell farthest from every
 * obstacle, then farthest-point seeds, then k-means rounds whose centroids are snapped to the
 * nearest cell of their own cluster. Ties go to the lower cell or centre index.
 */
export function spreadCells(grid: OccupancyGrid, cells: readonly number[], k: number, clearance: Float64Array, rounds: number = P.nodeSpreadRounds): number[] {
  if (cells.length === 0 || k <= 0) return [];
  const pts = cells.map((c) => centreOf(grid, c));
  let first = 0;
  for (let n = 1; n < cells.length; n++) if (clearance[cells[n]!]! > clearance[cells[first]!]!) first = n;
  const chosen = [first];
  const near = pts.map((p) => dist2(p, pts[first]!));
  while (chosen.length < Math.min(k, cells.length)) {
    let far = -1;
    for (let n = 0; n < cells.length; n++) if (far < 0 || near[n]! > near[far]!) far = n;
    if (near[far]! === 0) break;
    chosen.push(far);
    for (let n = 0; n < cells.length; n++) near[n] = Math.min(near[n]!, dist2(pts[n]!, pts[far]!));
  }
  let centres = chosen.map((n) => pts[n]!);
  let snapped = chosen.slice();
  for (let r = 0; r < rounds; r++) {
    const owner = pts.map((p) => {
      let best = 0;
      for (let m = 1; m < centres.length; m++) if (dist2(p, centres[m]!) < dist2(p, centres[best]!)) best = m;
      return best;
    });
    const next = centres.map((_, m) => {
      let sx = 0, sy = 0, count = 0;
      pts.forEach((p, n) => {
        if (owner[n] === m) { sx += p[0]; sy += p[1]; count++; }
      });
      return count > 0 ? ([sx / count, sy / count] as Vec2) : centres[m]!;
    });
    snapped = next.map((c, m) => {
      let best = -1;
      pts.forEach((p, n) => {
        if (owner[n] === m && (best < 0 || dist2(p, c) < dist2(pts[best]!, c))) best = n;
      });
      return best < 0 ? snapped[m]! : best;
    });
    centres = snapped.map((n) => pts[n]!);
  }
  return snapped.map((n) => cells[n]!);
}

/**
 * The navigation graph's nodes on the route grid (which should hold one connected free region):
 * per room in scene order, max(1, round(area / m2PerNode)) cells spread over its free cells, the
 * first one farthest from obstacles; then the centre cell of every door joining two rooms, when free.
 */
export function routeNodes(scene: Pick<Scene, "rooms" | "doors">, grid: OccupancyGrid, m2PerNode: number = P.m2PerNode): RouteNode[] {
  const rooms = cellRooms(scene, grid);
  const clearance = squaredHalfCellDistanceToOccupied(grid);
  const byRoom: number[][] = scene.rooms.map(() => []);
  for (let c = 0; c < rooms.length; c++) if (rooms[c]! >= 0) byRoom[rooms[c]!]!.push(c);
  const nodes: RouteNode[] = [];
  scene.rooms.forEach((room, k) => {
    const want = Math.max(1, Math.round(polygonArea(polygon(room.polygon)) / m2PerNode));
    for (const c of spreadCells(grid, byRoom[k]!, want, clearance)) nodes.push({ point: centreOf(grid, c), room: room.id, kind: "room" });
  });
  for (const door of scene.doors) {
    if (door.rooms[0] === null || door.rooms[1] === null) continue;
    const [i, j] = worldToCell(grid, door.center);
    if (i < 0 || j < 0 || i >= grid.width || j >= grid.height || grid.occupied[j * grid.width + i]) continue;
    nodes.push({ point: cellCenter(grid, i, j), room: null, kind: "door" });
  }
  return nodes;
}

/** Length of the open path visiting `order` (indices into the symmetric matrix `d`). */
export function openPathCost(d: readonly (readonly number[])[], order: readonly number[]): number {
  let s = 0;
  for (let k = 1; k < order.length; k++) s += d[order[k - 1]!]![order[k]!]!;
  return s;
}

/** Nearest-neighbour open path from `start` (ties: the lower index). */
export function nearestNeighbourOrder(d: readonly (readonly number[])[], start: number): number[] {
  const n = d.length;
  const seen = new Uint8Array(n);
  const order = [start];
  seen[start] = 1;
  for (let step = 1; step < n; step++) {
    const at = order[order.length - 1]!;
    let best = -1;
    for (let v = 0; v < n; v++) if (!seen[v] && (best < 0 || d[at]![v]! < d[at]![best]!)) best = v;
    order.push(best);
    seen[best] = 1;
  }
  return order;
}

const EPS = 1e-9;

/** First improving 2-opt move (reverse order[i..j], the start fixed, the end free), applied; false when none. */
function twoOptStep(d: readonly (readonly number[])[], order: number[]): boolean {
  const n = order.length;
  for (let i = 1; i < n - 1; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = order[i - 1]!, b = order[i]!, c = order[j]!;
      const e = j + 1 < n ? order[j + 1]! : -1;
      const before = d[a]![b]! + (e >= 0 ? d[c]![e]! : 0);
      const after = d[a]![c]! + (e >= 0 ? d[b]![e]! : 0);
      if (after < before - EPS) {
        const mid = order.slice(i, j + 1).reverse();
        order.splice(i, mid.length, ...mid);
        return true;
      }
    }
  }
  return false;
}

/** First improving Or-opt move (a run of 1-3 nodes moved elsewhere, maybe reversed), applied; false when none. */
function orOptStep(d: readonly (readonly number[])[], order: number[]): boolean {
  const n = order.length;
  const cost = openPathCost(d, order);
  for (let len = 1; len <= 3; len++) {
    for (let i = 1; i + len <= n; i++) {
      const run = order.slice(i, i + len);
      const rest = [...order.slice(0, i), ...order.slice(i + len)];
      for (let p = 1; p <= rest.length; p++) {
        if (p === i) continue;
        for (const piece of [run, run.slice().reverse()]) {
          const candidate = [...rest.slice(0, p), ...piece, ...rest.slice(p)];
          if (openPathCost(d, candidate) < cost - EPS) {
            order.splice(0, n, ...candidate);
            return true;
          }
        }
      }
    }
  }
  return false;
}

/** The nearest-neighbour path from `start`, improved by 2-opt and Or-opt until neither helps. */
export function orderNodes(d: readonly (readonly number[])[], start: number): number[] {
  const order = nearestNeighbourOrder(d, start);
  for (let pass = 0; pass < 10_000; pass++) {
    if (twoOptStep(d, order)) continue;
    if (!orOptStep(d, order)) break;
  }
  return order;
}

/**
 * The tour's route on `grid` from the first node of `startRoom`: nodes, their order, and the walk
 * through them. Throws when the room has no free cell on the grid, or a node cannot be reached.
 */
export function planRoute(scene: Pick<Scene, "rooms" | "doors">, grid: OccupancyGrid, startRoom: string): PlannedRoute {
  const nodes = routeNodes(scene, grid);
  const start = nodes.findIndex((n) => n.room === startRoom);
  if (start < 0) throw new Error(`room ${startRoom} has no free cell on the tour grid`);
  const trees: ShortestPathTree[] = nodes.map((n) => shortestPathTree(grid, n.point));
  const d = nodes.map((_, a) => nodes.map((__, b) => Math.min(trees[a]!.distanceTo(nodes[b]!.point), trees[b]!.distanceTo(nodes[a]!.point))));
  for (let b = 0; b < nodes.length; b++) {
    if (d[start]![b] === Infinity) throw new Error(`route node ${b} (${nodes[b]!.room ?? "door"}) is not reachable from room ${startRoom}`);
  }
  const order = orderNodes(d, start);
  const polyline: Vec2[] = [nodes[order[0]!]!.point];
  const nodeVertices = [0];
  for (let k = 1; k < order.length; k++) {
    const leg = smoothPath(grid, trees[order[k - 1]!]!.pathTo(nodes[order[k]!]!.point)!);
    for (let v = 1; v < leg.length; v++) polyline.push(leg[v]!);
    nodeVertices.push(polyline.length - 1);
  }
  return { nodes: order.map((k) => nodes[k]!), polyline, nodeVertices, geodesicCost: openPathCost(d, order) };
}
