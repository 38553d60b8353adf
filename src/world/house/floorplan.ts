/**
 * Floor plans: a rectangular or L-shaped footprint split into rectangular rooms, the walls on the
 * rooms' shared edges, and the doors that connect them.
 *
 * Layout. As in ProcTHOR's floor plan generation (Deitke et al. 2022), the footprint is sized
 * from the rooms' target areas and then divided among them. Here the division is a
 * slicing tree (a treemap): a block is cut in two perpendicular to one side, the two parts get
 * consecutive groups of rooms in proportion to their areas, recursively; of all slicing trees of
 * the room order the one whose worst room is the least elongated wins (cost = aspect ratio, plus
 * a penalty when a side is shorter than the type's minimum). A house with a hallway gets a
 * corridor across its whole length with the other rooms on its two sides (on a floor of over ten
 * rooms, each side is cut into blocks of at most five rooms across the corridor); an L-shaped
 * house has a narrower second wing. Several layouts are drawn per seed and the best kept.
 * Coordinates are integers on a 5 cm grid until the walls are built, so shared edges compare
 * exactly.
 *
 * Walls. Every maximal stretch of a partition line with the same two rooms on its sides (one may
 * be the outside) is one wall. Interior walls are 0.10 m thick, centred on the line; exterior
 * walls 0.20 m, with their inner face 0.05 m inside the line like the interior walls, so every
 * room's floor polygon is its partition rectangle inset by 0.05 m. At a junction a wall is
 * lengthened to cover the cross-section of the walls it meets, so wall boxes leave no gaps at
 * corners (meshes.ts drops the faces hidden inside neighbouring walls).
 *
 * Doors. Rooms that share at least DOOR_SPAN_M of wall may get a door. A spanning tree over that
 * adjacency (Prim's algorithm, preferring hub rooms: hallway and living room, and keeping
 * bathrooms as leaves) makes every room reachable; a few extra doors join open-plan pairs
 * (living room, kitchen, dining room). Doors are 0.8-1.0 m wide and at least DOOR_CORNER_MARGIN_M
 * from a room corner; six in ten sit within 0.15 m of that closest position at one end of the
 * wall (as doors usually do, leaving the wall free for furniture), the rest anywhere.
 */
import type { Rng } from "../../stats/rng.js";
import type { Door, Opening, RoomType, Vec2, Wall } from "../types.js";
import { HALLWAY_WIDTH_M, LARGE_HOUSE_ROOMS, ROOM_MIN_SIDE_M, type RoomSpec } from "./program.js";

/** Layout grid, metres. */
export const GRID_M = 0.05;
export const INTERIOR_WALL_M = 0.1;
export const EXTERIOR_WALL_M = 0.2;
/** Distance from a partition line to the inner face of any wall on it. */
export const WALL_INSET_M = INTERIOR_WALL_M / 2;
export const DOOR_WIDTH_M: [number, number] = [0.8, 1.0];
/** Smallest gap between a door's edge and the inner corner of a room. */
export const DOOR_CORNER_MARGIN_M = 0.25;
/** Shared wall length needed for a door of the widest kind. */
export const DOOR_SPAN_M = DOOR_WIDTH_M[1] + 2 * (WALL_INSET_M + DOOR_CORNER_MARGIN_M);
/** Smallest gap between two openings on one wall. */
export const OPENING_GAP_M = 0.3;

/** An integer rectangle on the layout grid. */
export interface GridRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PlannedRoom {
  type: RoomType;
  rect: GridRect;
}

/** A wall and where it lies on the partition. */
export interface PlannedWall {
  wall: Wall;
  axis: "x" | "y";
  /** Indices of the rooms on the wall's left and right (null outside). */
  left: number | null;
  right: number | null;
  /** Along-axis extent of the shared partition edge (without the junction extensions), metres. */
  edge: [number, number];
  /** Along-axis coordinate of `a`, metres. */
  start: number;
}

export interface FloorPlan {
  rooms: PlannedRoom[];
  walls: PlannedWall[];
  /** Index of the hub room (hallway, else living room, else room 0). */
  hub: number;
}

const toM = (units: number) => units * GRID_M;
const rectW = (r: GridRect) => r.x1 - r.x0;
const rectH = (r: GridRect) => r.y1 - r.y0;

interface LayoutItem {
  spec: number;
  type: RoomType;
  area: number;
  /** RoomSpec.areaRange. */
  range: readonly [number, number];
}

/** A room's cost: its aspect ratio; a side shorter than the type's minimum makes it unusable (strict) or costs 10 per metre short. */
function leafCost(r: GridRect, item: LayoutItem, strict: boolean): number {
  const type = item.type;
  const w = toM(rectW(r));
  const h = toM(rectH(r));
  const short = Math.min(w, h);
  if (short <= 0) return Infinity;
  const shortfall = Math.max(0, ROOM_MIN_SIDE_M[type] - short);
  if (strict && shortfall > 1e-9) return Infinity;
  if (strict && type !== "hallway") {
    const [lo, hi] = item.range;
    const area = w * h;
    if (area < lo * (1 - AREA_SLACK) || area > hi * (1 + AREA_SLACK)) return Infinity;
  }
  return Math.max(w, h) / short + 10 * shortfall;
}

/** Relative change of a cut from its proportional position allowed for groups of up to 4 rooms. */
const CUT_SLACK = 0.12;
/** A room's area may leave its type's range (RoomSpec.areaRange) by this fraction. */
const AREA_SLACK = 0.15;

interface Slicing {
  cost: number;
  rects: GridRect[];
}

/** Best slicing tree of `items` (in this order) over the rectangle; rects[i] belongs to items[i]. */
function slice(r: GridRect, items: readonly LayoutItem[], strict: boolean): Slicing {
  if (items.length === 1) return { cost: leafCost(r, items[0]!, strict), rects: [r] };
  const total = items.reduce((s, it) => s + it.area, 0);
  let best: Slicing = { cost: Infinity, rects: [] };
  let head = 0;
  for (let k = 1; k < items.length; k++) {
    head += items[k - 1]!.area;
    const fraction = head / total;
    // Small groups may also cut off their share +-CUT_SLACK, so rooms can trade area for shape.
    const fractions = items.length <= 4 ? [fraction, fraction * (1 - CUT_SLACK), fraction * (1 + CUT_SLACK)] : [fraction];
    for (const across of [true, false])
    for (const share of fractions) {
      const length = across ? rectW(r) : rectH(r);
      const cut = Math.round(length * share);
      if (cut < 1 || cut > length - 1) continue;
      const [ra, rb]: [GridRect, GridRect] = across
        ? [{ ...r, x1: r.x0 + cut }, { ...r, x0: r.x0 + cut }]
        : [{ ...r, y1: r.y0 + cut }, { ...r, y0: r.y0 + cut }];
      const a = slice(ra, items.slice(0, k), strict);
      if (a.cost >= best.cost) continue;
      const b = slice(rb, items.slice(k), strict);
      const cost = Math.max(a.cost, b.cost);
      if (cost < best.cost) best = { cost, rects: [...a.rects, ...b.rects] };
    }
  }
  return best;
}

const units = (metres: number) => Math.max(1, Math.round(metres / GRID_M));

/** Splits items into two groups, the second holding about `fraction` of the area (both non-empty). */
function splitByArea(rng: Rng, items: LayoutItem[], fraction: number): [LayoutItem[], LayoutItem[]] {
  const order = rng.shuffle(items);
  const total = order.reduce((s, it) => s + it.area, 0);
  const b: LayoutItem[] = [];
  let area = 0;
  for (const it of order) {
    if (b.length > 0 && area >= fraction * total) break;
    if (b.length === order.length - 1) break;
    b.push(it);
    area += it.area;
  }
  return [order.filter((it) => !b.includes(it)), b];
}

/** Splits items into two groups of nearly equal area (greedy, largest first after a shuffle). */
function balance(rng: Rng, items: LayoutItem[]): [LayoutItem[], LayoutItem[]] {
  const order = rng.shuffle(items).sort((p, q) => q.area - p.area);
  const a: LayoutItem[] = [];
  const b: LayoutItem[] = [];
  let sa = 0;
  let sb = 0;
  for (const it of order) {
    if (sa <= sb) { a.push(it); sa += it.area; } else { b.push(it); sb += it.area; }
  }
  return [rng.shuffle(a), rng.shuffle(b)];
}

interface Block {
  rect: GridRect;
  items: LayoutItem[];
}

/** Most rooms one slicing block of a large floor holds (slice() is exponential in its rooms). */
export const MAX_BLOCK_ROOMS = 5;

/**
 * A corridor side of a large floor cut across the corridor into consecutive blocks of at most
 * MAX_BLOCK_ROOMS rooms, each as wide as its share of the side's area (its rooms keep their order).
 */
function alongCorridor(side: Block): Block[] {
  const parts = Math.ceil(side.items.length / MAX_BLOCK_ROOMS);
  if (parts <= 1) return [side];
  const per = Math.ceil(side.items.length / parts);
  // None is empty: per <= 5 and (parts - 1) * 5 < n.
  const groups = Array.from({ length: parts }, (_, k) => side.items.slice(k * per, (k + 1) * per));
  const total = side.items.reduce((sum, it) => sum + it.area, 0);
  const width = side.rect.x1 - side.rect.x0;
  const out: Block[] = [];
  let area = 0;
  let x0 = side.rect.x0;
  groups.forEach((items, k) => {
    area += items.reduce((sum, it) => sum + it.area, 0);
    const x1 = k === groups.length - 1 ? side.rect.x1 : side.rect.x0 + Math.round((width * area) / total);
    out.push({ rect: { ...side.rect, x0, x1 }, items });
    x0 = x1;
  });
  return out;
}

/** One random layout: blocks of rooms, plus the corridor when there is a hallway. */
function drawLayout(rng: Rng, specs: readonly RoomSpec[]): { blocks: Block[]; hallway: { spec: number; rect: GridRect } | null } {
  const hallIndex = specs.findIndex((s) => s.type === "hallway");
  const items: LayoutItem[] = specs
    .map((s, i) => ({ spec: i, type: s.type, area: s.areaM2, range: s.areaRange }))
    .filter((it) => it.type !== "hallway");
  const areaOf = (group: LayoutItem[]) => group.reduce((s, it) => s + it.area, 0);
  if (hallIndex >= 0 && items.length >= 2) {
    const [a, b] = balance(rng, items);
    const l = rng.chance(0.35);
    // A length that gives both sides a depth of 2.8-5.5 m when one exists.
    const big = Math.max(areaOf(a), areaOf(b));
    const small = Math.min(areaOf(a), areaOf(b));
    const wMin = big / 5.5;
    const wMax = small / 2.8;
    const w = units(wMin <= wMax ? rng.float(wMin, wMax) : areaOf(a) / rng.float(3.0, 5.0));
    const ha = units(areaOf(a) / toM(w));
    const wb = l ? units(toM(w) * rng.float(0.55, 0.85)) : w;
    const hb = units(areaOf(b) / toM(wb));
    const hw = units(rng.float(HALLWAY_WIDTH_M[0], HALLWAY_WIDTH_M[1]));
    const bx = l && rng.chance(0.5) ? w - wb : 0;
    const sides: Block[] = [
      { rect: { x0: 0, y0: 0, x1: w, y1: ha }, items: a },
      { rect: { x0: bx, y0: ha + hw, x1: bx + wb, y1: ha + hw + hb }, items: b },
    ];
    return {
      blocks: specs.length > LARGE_HOUSE_ROOMS ? sides.flatMap(alongCorridor) : sides,
      hallway: { spec: hallIndex, rect: { x0: 0, y0: ha, x1: w, y1: ha + hw } },
    };
  }
  const all = hallIndex >= 0 ? [...items, { spec: hallIndex, type: "hallway" as RoomType, area: 6, range: [0, 0] as const }] : items;
  if (all.length >= 3 && rng.chance(0.45)) {
    const [a, b] = splitByArea(rng, all, rng.float(0.25, 0.45));
    const w = units(Math.sqrt(areaOf(a) * rng.float(1.2, 2.0)));
    const ha = units(areaOf(a) / toM(w));
    const wb = units(toM(w) * rng.float(0.45, 0.8));
    const hb = units(areaOf(b) / toM(wb));
    const bx = rng.chance(0.5) ? w - wb : 0;
    return {
      blocks: [
        { rect: { x0: 0, y0: 0, x1: w, y1: ha }, items: a },
        { rect: { x0: bx, y0: ha, x1: bx + wb, y1: ha + hb }, items: b },
      ],
      hallway: null,
    };
  }
  const total = areaOf(all);
  const w = units(Math.sqrt(total * rng.float(1.0, 1.7)));
  const h = units(total / toM(w));
  return { blocks: [{ rect: { x0: 0, y0: 0, x1: w, y1: h }, items: rng.shuffle(all) }], hallway: null };
}

/** Rooms of a random layout, or null when its slicing is unusable. */
function layoutRooms(rng: Rng, specs: readonly RoomSpec[], strict: boolean): { rooms: PlannedRoom[]; cost: number } | null {
  const { blocks, hallway } = drawLayout(rng, specs);
  const rects = new Array<GridRect | undefined>(specs.length);
  let cost = 0;
  for (const block of blocks) {
    if (block.items.length === 0) continue;
    const s = slice(block.rect, block.items, strict);
    if (!Number.isFinite(s.cost)) return null;
    cost = Math.max(cost, s.cost);
    block.items.forEach((it, k) => (rects[it.spec] = s.rects[k]));
  }
  if (hallway) rects[hallway.spec] = hallway.rect;
  const rooms: PlannedRoom[] = [];
  for (let i = 0; i < specs.length; i++) {
    const rect = rects[i];
    if (!rect) return null;
    rooms.push({ type: specs[i]!.type, rect });
  }
  // Reading order (south to north, then west to east) numbers the rooms.
  rooms.sort((p, q) => p.rect.y0 - q.rect.y0 || p.rect.x0 - q.rect.x0);
  return { rooms, cost };
}

/** Length (metres) of the edge two rooms share, with its axis and position; null when they only touch at a corner. */
export function sharedEdge(a: GridRect, b: GridRect): { axis: "x" | "y"; line: number; from: number; to: number } | null {
  if (a.x1 === b.x0 || b.x1 === a.x0) {
    const from = Math.max(a.y0, b.y0);
    const to = Math.min(a.y1, b.y1);
    if (to > from) return { axis: "y", line: a.x1 === b.x0 ? a.x1 : a.x0, from, to };
  }
  if (a.y1 === b.y0 || b.y1 === a.y0) {
    const from = Math.max(a.x0, b.x0);
    const to = Math.min(a.x1, b.x1);
    if (to > from) return { axis: "x", line: a.y1 === b.y0 ? a.y1 : a.y0, from, to };
  }
  return null;
}

/** Pairs of rooms that share enough wall for a door. */
export function doorAdjacency(rooms: readonly PlannedRoom[]): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < rooms.length; i++)
    for (let j = i + 1; j < rooms.length; j++) {
      const e = sharedEdge(rooms[i]!.rect, rooms[j]!.rect);
      if (e && toM(e.to - e.from) >= DOOR_SPAN_M - 1e-9) pairs.push([i, j]);
    }
  return pairs;
}

function connected(n: number, pairs: readonly [number, number][]): boolean {
  const seen = new Array<boolean>(n).fill(false);
  const stack = [0];
  seen[0] = true;
  while (stack.length) {
    const i = stack.pop()!;
    for (const [a, b] of pairs) {
      const j = a === i ? b : b === i ? a : -1;
      if (j >= 0 && !seen[j]) { seen[j] = true; stack.push(j); }
    }
  }
  return seen.every(Boolean);
}

/** Longest exterior stretch of a room's rectangle, metres (0 when the room has no outside wall). */
function exteriorLength(rooms: readonly PlannedRoom[], index: number): number {
  let best = 0;
  for (const wall of partitionWalls(rooms)) {
    if ((wall.left === index && wall.right === null) || (wall.right === index && wall.left === null)) best = Math.max(best, toM(wall.s1 - wall.s0));
  }
  return best;
}

/**
 * Draws layouts and keeps a good one: the first whose rooms all meet their minimum side and whose
 * worst aspect ratio is at most 2, else the cheapest of `attempts` such layouts; when no layout
 * meets the minimum sides, the cheapest with the shortfall penalised.
 */
export function planRooms(rng: Rng, specs: readonly RoomSpec[], attempts = 60): PlannedRoom[] {
  for (const strict of [true, false]) {
    let best: { rooms: PlannedRoom[]; cost: number } | null = null;
    for (let k = 0; k < attempts; k++) {
      const layout = layoutRooms(rng, specs, strict);
      if (!layout) continue;
      if (layout.rooms.length > 1 && !connected(layout.rooms.length, doorAdjacency(layout.rooms))) continue;
      const hub = hubIndex(layout.rooms);
      if (exteriorLength(layout.rooms, hub) < 1.6) continue;
      if (!best || layout.cost < best.cost) best = layout;
      if (best.cost <= 2) break;
    }
    if (best) return best.rooms;
  }
  throw new Error(`no usable floor plan for rooms ${specs.map((s) => s.type).join(", ")}`);
}

export function hubIndex(rooms: readonly PlannedRoom[]): number {
  const hall = rooms.findIndex((r) => r.type === "hallway");
  if (hall >= 0) return hall;
  const living = rooms.findIndex((r) => r.type === "living room");
  return living >= 0 ? living : 0;
}

/** A stretch of partition line with the same rooms on both sides (grid units). */
interface PartitionWall {
  axis: "x" | "y";
  line: number;
  s0: number;
  s1: number;
  left: number | null;
  right: number | null;
}

/**
 * The partition lines split into walls. Along x (horizontal lines, direction +x) the left side
 * is +y: left = the room above, right = the room below. Along y (direction +y) the left side is
 * -x: left = the room to the west, right = the room to the east.
 */
function partitionWalls(rooms: readonly PlannedRoom[]): PartitionWall[] {
  const out: PartitionWall[] = [];
  for (const axis of ["x", "y"] as const) {
    // Edges per line: [from, to, room, side] with side "left" or "right" of the wall direction.
    const lines = new Map<number, { from: number; to: number; room: number; side: "left" | "right" }[]>();
    const add = (line: number, from: number, to: number, room: number, side: "left" | "right") => {
      let list = lines.get(line);
      if (!list) lines.set(line, (list = []));
      list.push({ from, to, room, side });
    };
    rooms.forEach((r, i) => {
      const g = r.rect;
      if (axis === "x") {
        add(g.y0, g.x0, g.x1, i, "left"); // room above its bottom edge
        add(g.y1, g.x0, g.x1, i, "right"); // room below its top edge
      } else {
        add(g.x0, g.y0, g.y1, i, "right"); // room east of its west edge
        add(g.x1, g.y0, g.y1, i, "left"); // room west of its east edge
      }
    });
    for (const line of [...lines.keys()].sort((p, q) => p - q)) {
      const edges = lines.get(line)!;
      const cuts = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort((p, q) => p - q);
      let current: PartitionWall | null = null;
      for (let k = 0; k + 1 < cuts.length; k++) {
        const from = cuts[k]!;
        const to = cuts[k + 1]!;
        const covering = (side: "left" | "right") => edges.find((e) => e.side === side && e.from <= from && e.to >= to)?.room ?? null;
        const left = covering("left");
        const right = covering("right");
        if (left === null && right === null) {
          current = null;
          continue;
        }
        if (current && current.s1 === from && current.left === left && current.right === right) current.s1 = to;
        else {
          current = { axis, line, s0: from, s1: to, left, right };
          out.push(current);
        }
      }
    }
  }
  return out;
}

/** Cross-section of a wall relative to its partition line, along the wall's left normal, metres. */
function crossSection(w: Pick<PartitionWall, "left" | "right">): [number, number] {
  if (w.left !== null && w.right !== null) return [-WALL_INSET_M, WALL_INSET_M];
  if (w.left === null) return [-WALL_INSET_M, EXTERIOR_WALL_M - WALL_INSET_M];
  return [-(EXTERIOR_WALL_M - WALL_INSET_M), WALL_INSET_M];
}

/**
 * Builds the walls: centre line, thickness, the rooms on each side, extended at junctions. A
 * wall along x ending at P is lengthened to the far face of the walls along y through or ending
 * at P (and likewise for walls along y), so every junction is covered.
 */
export function buildWalls(rooms: readonly PlannedRoom[], roomIds: readonly string[], height: number): PlannedWall[] {
  const parts = partitionWalls(rooms);
  // Cross-section on the world axis perpendicular to the wall: along-x walls have left normal +y,
  // along-y walls have left normal -x (so the x-range is the negated section).
  const worldRange = (w: PartitionWall): [number, number] => {
    const [lo, hi] = crossSection(w);
    return w.axis === "x" ? [lo, hi] : [-hi, -lo];
  };
  const extension = (w: PartitionWall, end: number, direction: 1 | -1): number => {
    let ext = 0;
    for (const p of parts) {
      if (p.axis === w.axis || p.line !== end || p.s0 > w.line || p.s1 < w.line) continue;
      const [lo, hi] = worldRange(p);
      ext = Math.max(ext, direction > 0 ? hi : -lo);
    }
    return ext;
  };
  return parts.map((p, index) => {
    const [lo, hi] = crossSection(p);
    const e0 = extension(p, p.s0, -1);
    const e1 = extension(p, p.s1, 1);
    const offset = (lo + hi) / 2;
    const from = toM(p.s0) - e0;
    const to = toM(p.s1) + e1;
    const line = toM(p.line);
    const a: Vec2 = p.axis === "x" ? [from, line + offset] : [line - offset, from];
    const b: Vec2 = p.axis === "x" ? [to, line + offset] : [line - offset, to];
    const wall: Wall = {
      id: `wall_${index}`,
      a,
      b,
      thickness: hi - lo,
      height,
      rooms: [p.left === null ? null : roomIds[p.left]!, p.right === null ? null : roomIds[p.right]!],
      openings: [],
    };
    return { wall, axis: p.axis, left: p.left, right: p.right, edge: [toM(p.s0), toM(p.s1)], start: from };
  });
}

/** Door-preference weight of a room pair (lower joins first): hubs and open-plan pairs low, wet rooms off the kitchen high. */
function pairWeight(a: RoomType, b: RoomType): number {
  const has = (t: RoomType) => a === t || b === t;
  const pair = (s: RoomType, t: RoomType) => (a === s && b === t) || (a === t && b === s);
  if (has("hallway")) return 1;
  if (pair("living room", "kitchen") || pair("living room", "dining room") || pair("kitchen", "dining room")) return 1;
  if (pair("bathroom", "kitchen") || pair("bathroom", "dining room") || pair("bathroom", "bathroom")) return 8;
  if (pair("bedroom", "kitchen") || pair("bedroom", "dining room")) return 5;
  if (has("living room")) return 2;
  if (pair("bedroom", "bathroom")) return 2.5;
  return 4;
}

/** Prim's spanning tree over `nodes` from `root`, by pairWeight plus a random jitter; null when it cannot reach them all. */
function spanningTree(rooms: readonly PlannedRoom[], pairs: readonly [number, number][], nodes: readonly number[], root: number, jitter: Map<string, number>): [number, number][] | null {
  const inTree = new Set([root]);
  const edges: [number, number][] = [];
  const member = new Set(nodes);
  while (inTree.size < member.size) {
    let best: [number, number] | null = null;
    let bestW = Infinity;
    for (const [i, j] of pairs) {
      if (!member.has(i) || !member.has(j) || inTree.has(i) === inTree.has(j)) continue;
      const w = pairWeight(rooms[i]!.type, rooms[j]!.type) + jitter.get(`${i},${j}`)!;
      if (w < bestW) { bestW = w; best = [i, j]; }
    }
    if (!best) return null;
    edges.push(best);
    inTree.add(best[0]);
    inTree.add(best[1]);
  }
  return edges;
}

/**
 * The room pairs that get a door: a spanning tree (bathrooms joined last, each by one door, so
 * they stay leaves whenever the other rooms connect without them) plus extras between
 * open-plan pairs (chance 0.5) and other pairs (0.12), at most two.
 */
export function choosePassages(rng: Rng, rooms: readonly PlannedRoom[], hub: number): [number, number][] {
  if (rooms.length < 2) return [];
  const pairs = doorAdjacency(rooms);
  const jitter = new Map(pairs.map(([i, j]) => [`${i},${j}`, rng.next()]));
  const dry = rooms.map((_, i) => i).filter((i) => rooms[i]!.type !== "bathroom" || i === hub);
  let tree = spanningTree(rooms, pairs, dry, hub, jitter);
  if (tree) {
    for (let i = 0; i < rooms.length; i++) {
      if (dry.includes(i)) continue;
      const options = pairs.filter(([a, b]) => (a === i && dry.includes(b)) || (b === i && dry.includes(a)));
      if (options.length === 0) { tree = null; break; }
      options.sort((p, q) => {
        const wp = pairWeight(rooms[p[0]]!.type, rooms[p[1]]!.type) + jitter.get(`${p[0]},${p[1]}`)!;
        const wq = pairWeight(rooms[q[0]]!.type, rooms[q[1]]!.type) + jitter.get(`${q[0]},${q[1]}`)!;
        return wp - wq;
      });
      tree.push(options[0]!);
    }
  }
  tree ??= spanningTree(rooms, pairs, rooms.map((_, i) => i), hub, jitter);
  if (!tree) throw new Error("rooms are not connected by door-wide walls");
  const chosen = new Set(tree.map(([i, j]) => `${i},${j}`));
  const extras: [number, number][] = [];
  for (const [i, j] of pairs) {
    if (chosen.has(`${i},${j}`) || extras.length >= 2) continue;
    const ti = rooms[i]!.type;
    const tj = rooms[j]!.type;
    if (ti === "bathroom" || tj === "bathroom") continue;
    if (rng.chance(pairWeight(ti, tj) <= 1 ? 0.5 : 0.12)) extras.push([i, j]);
  }
  return [...tree, ...extras].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

/** Along-wall free interval for an opening of `width` on a planned wall (centre range, metres from `a`), or null. */
export function openingRange(w: PlannedWall, width: number, cornerMargin: number): [number, number] | null {
  const lo = w.edge[0] + WALL_INSET_M + cornerMargin + width / 2 - w.start;
  const hi = w.edge[1] - WALL_INSET_M - cornerMargin - width / 2 - w.start;
  return hi >= lo ? [lo, hi] : null;
}

/** True when an opening centred at `offset` of `width` keeps OPENING_GAP_M from the wall's other openings. */
export function openingFits(wall: Wall, offset: number, width: number): boolean {
  return wall.openings.every((o) => Math.abs(o.offset - offset) >= (o.width + width) / 2 + OPENING_GAP_M);
}

/** World point at `offset` metres along the wall's centre line from `a`. */
export function wallPoint(wall: Wall, offset: number): Vec2 {
  const dx = wall.b[0] - wall.a[0];
  const dy = wall.b[1] - wall.a[1];
  const length = Math.hypot(dx, dy);
  return [wall.a[0] + (dx / length) * offset, wall.a[1] + (dy / length) * offset];
}

/** Plan box of an axis-aligned wall (its centre line thickened). */
export function wallBox(wall: Wall): { minX: number; minY: number; maxX: number; maxY: number } {
  const h = wall.thickness / 2;
  const alongX = wall.a[1] === wall.b[1];
  return {
    minX: Math.min(wall.a[0], wall.b[0]) - (alongX ? 0 : h),
    maxX: Math.max(wall.a[0], wall.b[0]) + (alongX ? 0 : h),
    minY: Math.min(wall.a[1], wall.b[1]) - (alongX ? h : 0),
    maxY: Math.max(wall.a[1], wall.b[1]) + (alongX ? h : 0),
  };
}

/** Unit normal pointing to the wall's left side (rooms[0]). */
export function wallLeftNormal(wall: Wall): Vec2 {
  const dx = wall.b[0] - wall.a[0];
  const dy = wall.b[1] - wall.a[1];
  const length = Math.hypot(dx, dy);
  return [-dy / length, dx / length];
}

/**
 * Cuts a doorway (no door leaf) into the wall between each chosen pair: width drawn in
 * DOOR_WIDTH_M (to the centimetre), centre near one end (see the file comment) or uniform over
 * the positions that keep the corner margin. Returns the doors in order.
 */
export function placeDoorways(rng: Rng, plan: FloorPlan, passages: readonly [number, number][], roomIds: readonly string[], doorTop: number): Door[] {
  const doors: Door[] = [];
  for (const [i, j] of passages) {
    const planned = plan.walls.find((w) => (w.left === i && w.right === j) || (w.left === j && w.right === i));
    if (!planned) throw new Error(`no wall between ${roomIds[i]} and ${roomIds[j]}`);
    const width = Math.round(rng.float(DOOR_WIDTH_M[0], DOOR_WIDTH_M[1]) * 100) / 100;
    const range = openingRange(planned, width, DOOR_CORNER_MARGIN_M);
    if (!range) throw new Error(`wall ${planned.wall.id} is too short for a door`);
    // Most doors sit near a corner (leaving the wall for furniture), the others anywhere.
    const u = rng.next();
    const nearCorner = Math.min(range[1], range[0] + 0.15);
    const raw = u < 0.3 ? rng.float(range[0], nearCorner) : u < 0.6 ? rng.float(Math.max(range[0], range[1] - 0.15), range[1]) : rng.float(range[0], range[1]);
    const offset = Math.round(raw * 100) / 100;
    const opening: Opening = { kind: "door", offset: Math.min(Math.max(offset, range[0]), range[1]), width, bottom: 0, top: doorTop };
    planned.wall.openings.push(opening);
    doors.push({
      id: `door_${doors.length}`,
      wallId: planned.wall.id,
      rooms: [planned.wall.rooms[0], planned.wall.rooms[1]],
      center: wallPoint(planned.wall, opening.offset),
      width,
    });
  }
  return doors;
}
