/**
 * Synthetic walkthroughs: a camera wearer follows a route of motion segments (walk forward, turn
 * left/right in place, climb or descend stairs) through a corridor built around that route on a
 * grid of 0.5 m cells. Every answer (direction, distance, the action sequence) is true by
 * construction.
 *
 * Conventions: x and z are horizontal, y is up; heading h in {0, 1, 2, 3} looks along
 * (0,+1), (+1,0), (0,-1), (-1,0) in (x, z); yaw = h * 90 degrees; the camera's right is
 * (cos yaw, 0, -sin yaw), so turning right increases the yaw and h.
 */
import type { Rng } from "../../../stats/rng.js";

export const CELL = 0.5;
/** Rise per stair cell (one 0.5 m run): a gentle 0.4 slope. */
export const STEP_RISE = 0.2;
export const EYE_HEIGHT = 1.5;
export const CEILING_HEIGHT = 2.6;
/** Frames per segment after its first (clips hold FRAMES_PER_SEGMENT + 1 frames, sharing the boundary). */
export const FRAMES_PER_SEGMENT = 7;
/** The capture rate given to the frames (timestamps only). */
export const FPS = 4;

export type Motion = "forward" | "left" | "right" | "up" | "down";

export interface Segment {
  motion: Motion;
  /** Cells walked (0 for turns). */
  cells: number;
  /** Colour zone of the walls along this segment (for turns: the zone of the corridor turned into). */
  zone: number;
  /** Metres the camera travels (3D path length; 0 for turns). */
  metres: number;
}

export interface Pose {
  x: number;
  y: number;
  z: number;
  yaw: number;
}

export interface FreeCell {
  floor: number;
  zone: number;
}

export interface Walkthrough {
  id: string;
  segments: Segment[];
  /** Free cells by "i,k"; everything else is solid wall. */
  cells: Map<string, FreeCell>;
  /** The solid cells that end the route (painted as the goal wall). */
  goalCells: Set<string>;
  /** Poses of every frame: 1 + FRAMES_PER_SEGMENT per segment. */
  poses: Pose[];
}

const DIRS: ReadonlyArray<readonly [number, number]> = [[0, 1], [1, 0], [0, -1], [-1, 0]];
export const key = (i: number, k: number) => `${i},${k}`;

/** Distinct wall colours (the goal wall is red, so red is not among them). */
export const ZONE_COLOURS: ReadonlyArray<{ name: string; rgb: readonly [number, number, number] }> = [
  { name: "blue", rgb: [70, 110, 200] },
  { name: "green", rgb: [70, 160, 80] },
  { name: "yellow", rgb: [215, 195, 60] },
  { name: "purple", rgb: [140, 90, 180] },
  { name: "orange", rgb: [225, 135, 50] },
  { name: "teal", rgb: [50, 160, 160] },
  { name: "pink", rgb: [220, 130, 170] },
  { name: "brown", rgb: [140, 100, 65] },
];
export const GOAL_COLOUR = { name: "red", rgb: [200, 40, 40] as const };

export const segmentMetres = (motion: Motion, cells: number): number =>
  motion === "left" || motion === "right" ? 0 : motion === "forward" ? cells * CELL : cells * Math.hypot(CELL, STEP_RISE);

interface PathCell {
  i: number;
  k: number;
  floor: number;
  zone: number;
}

/** A random route of `count` segments: starts and ends with a move, never two turns in a row. */
function drawMotions(count: number, rng: Rng, required: Motion | null): Motion[] {
  for (;;) {
    const out: Motion[] = [];
    for (let s = 0; s < count; s++) {
      const canTurn = s > 0 && s < count - 1 && out[s - 1] !== "left" && out[s - 1] !== "right";
      const r = rng.next();
      let m: Motion;
      if (canTurn && r < 0.45) m = rng.chance(0.5) ? "left" : "right";
      else {
        const q = rng.next();
        m = q < 0.5 ? "forward" : q < 0.75 ? "up" : "down";
      }
      out.push(m);
    }
    const turns = out.filter((m) => m === "left" || m === "right").length;
    if (count >= 3 && turns === 0) continue;
    if (!required || out.includes(required)) return out;
  }
}

/** Path cells of a route, or null when the corridor would run into itself. */
function layRoute(motions: Motion[], rng: Rng): { segments: Segment[]; path: PathCell[]; turnCells: number[]; heading: number } | null {
  let h = 0;
  let i = 0;
  let k = 0;
  let floor = 0;
  const path: PathCell[] = [{ i, k, floor, zone: 0 }];
  const segments: Segment[] = [];
  const turnCells: number[] = [];
  let zone = 0;
  const zoneOfMove: number[] = [];
  motions.forEach((m, s) => {
    if (m === "forward" || m === "up" || m === "down") zoneOfMove[s] = zone++;
  });
  if (zone > ZONE_COLOURS.length) return null;
  motions.forEach((motion, s) => {
    if (motion === "left" || motion === "right") {
      h = (h + (motion === "right" ? 1 : 3)) % 4;
      turnCells.push(path.length - 1);
      const next = zoneOfMove[s + 1] ?? 0;
      segments.push({ motion, cells: 0, zone: next, metres: 0 });
      return;
    }
    const cells = motion === "forward" ? rng.int(3, 7) : rng.int(4, 7);
    const z = zoneOfMove[s]!;
    for (let c = 0; c < cells; c++) {
      i += DIRS[h]![0];
      k += DIRS[h]![1];
      if (motion === "up") floor += STEP_RISE;
      if (motion === "down") floor -= STEP_RISE;
      path.push({ i, k, floor: Math.round(floor * 1000) / 1000, zone: z });
    }
    segments.push({ motion, cells, zone: z, metres: segmentMetres(motion, cells) });
  });
  // The start cell takes the first move's zone.
  path[0]!.zone = path[1]?.zone ?? 0;
  // Corridors may only come near themselves along a monotone stretch (e.g. an L-bend), never after a detour.
  for (let a = 0; a < path.length; a++) {
    for (let b = a + 1; b < path.length; b++) {
      const p = path[a]!;
      const q = path[b]!;
      const cheb = Math.max(Math.abs(p.i - q.i), Math.abs(p.k - q.k));
      if (cheb <= 3 && b - a !== Math.abs(p.i - q.i) + Math.abs(p.k - q.k)) return null;
    }
  }
  return { segments, path, turnCells, heading: h };
}

/** Free cells: the route widened by one cell on each side; each takes the floor of its nearest route cell. */
function buildCells(path: PathCell[]): Map<string, FreeCell> {
  const best = new Map<string, { d: number; index: number }>();
  path.forEach((p, index) => {
    for (let di = -1; di <= 1; di++) {
      for (let dk = -1; dk <= 1; dk++) {
        const id = key(p.i + di, p.k + dk);
        const d = di * di + dk * dk;
        const prev = best.get(id);
        if (!prev || d < prev.d || (d === prev.d && index > prev.index)) best.set(id, { d, index });
      }
    }
  });
  const cells = new Map<string, FreeCell>();
  for (const [id, { index }] of best) cells.set(id, { floor: path[index]!.floor, zone: path[index]!.zone });
  return cells;
}

function posesOf(path: PathCell[], segments: Segment[]): Pose[] {
  const poses: Pose[] = [];
  let cellIndex = 0;
  let h = 0;
  const at = (c: PathCell, yaw: number): Pose => ({ x: (c.i + 0.5) * CELL, y: c.floor + EYE_HEIGHT, z: (c.k + 0.5) * CELL, yaw });
  poses.push(at(path[0]!, 0));
  for (const seg of segments) {
    if (seg.motion === "left" || seg.motion === "right") {
      const from = h * 90;
      const to = from + (seg.motion === "right" ? 90 : -90);
      for (let j = 1; j <= FRAMES_PER_SEGMENT; j++) poses.push(at(path[cellIndex]!, from + ((to - from) * j) / FRAMES_PER_SEGMENT));
      h = (h + (seg.motion === "right" ? 1 : 3)) % 4;
      continue;
    }
    const a = path[cellIndex]!;
    const b = path[cellIndex + seg.cells]!;
    const pa = at(a, h * 90);
    const pb = at(b, h * 90);
    for (let j = 1; j <= FRAMES_PER_SEGMENT; j++) {
      const s = j / FRAMES_PER_SEGMENT;
      poses.push({ x: pa.x + (pb.x - pa.x) * s, y: pa.y + (pb.y - pa.y) * s, z: pa.z + (pb.z - pa.z) * s, yaw: h * 90 });
    }
    cellIndex += seg.cells;
  }
  return poses;
}

/** A walkthrough of `count` segments (containing `required` when given). */
export function generateWalkthrough(id: string, count: number, rng: Rng, required: Motion | null = null): Walkthrough {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const motions = drawMotions(count, rng, required);
    const laid = layRoute(motions, rng);
    if (!laid) continue;
    const cells = buildCells(laid.path);
    const last = laid.path[laid.path.length - 1]!;
    const [dx, dk] = DIRS[laid.heading]!;
    const goalCells = new Set<string>();
    for (let side = -1; side <= 1; side++) {
      // The wall two cells ahead of the last route cell, across the corridor's width.
      const gi = last.i + 2 * dx + side * (dk !== 0 ? 1 : 0);
      const gk = last.k + 2 * dk + side * (dx !== 0 ? 1 : 0);
      if (!cells.has(key(gi, gk))) goalCells.add(key(gi, gk));
    }
    return { id, segments: laid.segments, cells, goalCells, poses: posesOf(laid.path, laid.segments) };
  }
  throw new Error(`could not lay out walkthrough ${id}`);
}

/** Frame numbers of segment s in the walkthrough: FRAMES_PER_SEGMENT + 1 frames, sharing the boundaries. */
export function segmentFrames(s: number): number[] {
  return Array.from({ length: FRAMES_PER_SEGMENT + 1 }, (_, j) => s * FRAMES_PER_SEGMENT + j);
}
