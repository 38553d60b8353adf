/**
 * One episode: an activity performed in a house as a 10 fps camera trajectory cut into clips, one
 * step each (the paper segments by the think-aloud; we segment by the script). Walks follow the
 * free-space shortest path of a person (the house's occupancy inflated by 0.25 m, string-pulled)
 * cut at its bends into straight walks and on-the-spot turns; manipulation moves whole objects
 * (picked up toward the camera and out of view, put down on a free spot of a surface) while the
 * camera looks at them; switching on lights a lamp or makes a screen glow.
 */
import { pointInPolygon, polygon } from "../../../geometry/polygon.js";
import type { Rng } from "../../../stats/rng.js";
import { cellCenter, discLineOfSight, isFreePoint, shortestPathTree, smoothPath, type OccupancyGrid } from "../../../world/space/index.js";
import type { Scene, SceneObject, Vec2, Vec3 } from "../../../world/types.js";
import { denseGoalCells, objectFootprint } from "../../egopath/construct/routes.js";
import { activityObjects, SEATS, stepText, subgoalObject, surfaceHeight, type Activity, type SubGoal } from "./activities.js";
import { angleDelta, lookAt, manipulationPoses, pausePoses, polylineLength, REST_PITCH, sitPoses, turnPoses, walkPoses, type Pose, type Walker } from "./motion.js";
import { DEG, EGOTL_PARAMS as P, round4, round5, WALK_CLEARANCE_M } from "./params.js";

export type ClipKind = "walk" | "turn" | "sit" | "stand" | "pick" | "put" | "switch";

export interface Clip {
  index: number;
  kind: ClipKind;
  /** The sub-goal the clip belongs to. */
  subgoal: number;
  /** Frame indices in the episode video, both included. */
  first: number;
  last: number;
  /** The say-before-act narration of the step ("I am turning left"). */
  narration: string;
  /** The object handled (manipulation clips). */
  object?: number;
}

/** A pose from which a scene-aware decision is asked: the start of a walk toward a goal. */
export interface DecisionPoint {
  frame: number;
  subgoal: number;
  /** The object walked to, and where the walker will stand. */
  goal: number;
  approach: Vec2;
}

export interface Episode {
  activity: Activity;
  walker: Walker;
  startRoom: string;
  /** Written poses (rounded as stored), one per frame at P.fps. */
  frames: Pose[];
  clips: Clip[];
  /** Per frame: objects away from their place (centre offset, or null while carried out of view). */
  moved: Array<ReadonlyMap<number, Vec3 | null>>;
  /** Per frame: objects switched on. */
  switchedOn: Array<ReadonlySet<number>>;
  decisions: DecisionPoint[];
  /** Step texts of the sub-goals, in order. */
  steps: string[];
}

/** Seat height (where the body rests), metres. */
export function seatHeight(seat: SceneObject): number {
  return Math.min(seat.category === "bed" ? 0.5 : 0.45, seat.bbox.max[2]);
}

const centre = (o: SceneObject): Vec3 => [(o.bbox.min[0] + o.bbox.max[0]) / 2, (o.bbox.min[1] + o.bbox.max[1]) / 2, (o.bbox.min[2] + o.bbox.max[2]) / 2];
/** A model's front (+z in its file faces -y before the yaw). */
export const frontOf = (o: SceneObject): Vec2 => [Math.sin(o.yaw), -Math.cos(o.yaw)];

class Timeline {
  frames: Pose[] = [];
  moved: Array<ReadonlyMap<number, Vec3 | null>> = [];
  switchedOn: Array<ReadonlySet<number>> = [];
  clips: Clip[] = [];
  private state = new Map<number, Vec3 | null>();
  private on = new Set<number>();
  constructor(public pose: Pose) {}

  private push(p: Pose): void {
    const r: Pose = { x: round4(p.x), y: round4(p.y), z: round4(p.z), yaw: round5(p.yaw), pitch: round5(p.pitch) };
    this.frames.push(r);
    this.moved.push(new Map(this.state));
    this.switchedOn.push(new Set(this.on));
  }

  pause(seconds: number, rng: Rng): void {
    for (const p of pausePoses(this.pose, seconds, rng)) this.push(p);
  }

  /** Appends a clip; `each(k)` may change object states before sample k is recorded. */
  clip(kind: ClipKind, subgoal: number, narration: string, poses: Pose[], each?: (k: number) => void, object?: number): Clip {
    const first = this.frames.length;
    poses.forEach((p, k) => {
      each?.(k);
      this.push(p);
    });
    this.pose = { ...poses[poses.length - 1]! };
    const clip: Clip = { index: this.clips.length, kind, subgoal, first, last: this.frames.length - 1, narration, ...(object !== undefined ? { object } : {}) };
    this.clips.push(clip);
    return clip;
  }

  set(id: number, offset: Vec3 | null): void {
    this.state.set(id, offset);
  }
  switchOn(id: number): void {
    this.on.add(id);
  }
}

/** The free cells near an object where a person stands to reach it, nearest by walking first. */
function approachCell(grid: OccupancyGrid, from: Vec2 | null, o: SceneObject, frontOnly: boolean): Vec2 | null {
  const cells = denseGoalCells(grid, objectFootprint(o), P.reachM);
  if (cells.length === 0) return null;
  const dmin = Math.min(...cells.map((c) => c.d));
  let near = cells.filter((c) => c.d <= dmin + 0.15);
  if (frontOnly) {
    const f = frontOf(o);
    const ahead = cells.filter((c) => (c.p[0] - o.position[0]) * f[0] + (c.p[1] - o.position[1]) * f[1] > 0 && c.d <= dmin + 0.3);
    if (ahead.length > 0) near = ahead;
  }
  // Nearest by walking from `from`; with no start, the closest to the object.
  const tree = from ? shortestPathTree(grid, from) : null;
  let best: Vec2 | null = null, bestD = Infinity;
  for (const c of near) {
    const d = tree ? tree.distanceTo(c.p) : c.d;
    if (d < bestD) {
      bestD = d;
      best = c.p;
    }
  }
  return best;
}

/** A free spot on a surface's top for an object (not over the objects standing there); its bottom centre. */
export function placementSpot(scene: Scene, object: SceneObject, surface: SceneObject): Vec3 {
  const top = surfaceHeight(scene, surface);
  const hx = (object.bbox.max[0] - object.bbox.min[0]) / 2, hy = (object.bbox.max[1] - object.bbox.min[1]) / 2;
  const others = scene.objects.filter((x) => x.supportId === surface.id && x.id !== object.id);
  const c = surface.position;
  const along: Vec2 = [Math.cos(surface.yaw), Math.sin(surface.yaw)];
  const half = surface.size.width / 2 - Math.max(hx, hy);
  for (const f of [0, 0.5, -0.5, 0.25, -0.25, 0.75, -0.75]) {
    const p: Vec2 = [c[0] + along[0] * half * f, c[1] + along[1] * half * f];
    const clear = others.every((x) => p[0] + hx < x.bbox.min[0] || p[0] - hx > x.bbox.max[0] || p[1] + hy < x.bbox.min[1] || p[1] - hy > x.bbox.max[1]);
    if (clear) return [p[0], p[1], top];
  }
  return [c[0], c[1], top];
}

/** Splits a path at the bends a turn clip takes (at least P.turnClipDeg); gentler bends are walked through. */
export function splitAtTurns(points: readonly Vec2[]): Vec2[][] {
  const pieces: Vec2[][] = [];
  let current: Vec2[] = [points[0]!];
  for (let k = 1; k < points.length; k++) {
    current.push(points[k]!);
    if (k + 1 < points.length) {
      const h1 = Math.atan2(points[k]![1] - points[k - 1]![1], points[k]![0] - points[k - 1]![0]);
      const h2 = Math.atan2(points[k + 1]![1] - points[k]![1], points[k + 1]![0] - points[k]![0]);
      if (Math.abs(angleDelta(h1, h2)) >= P.turnClipDeg * DEG) {
        pieces.push(current);
        current = [points[k]!];
      }
    }
  }
  pieces.push(current);
  return pieces.filter((p) => polylineLength(p) > 0.05);
}

/** The plan grids: the raw occupancy and the person's free space (inflated by P.personRadiusM). */
export interface Grids {
  raw: OccupancyGrid;
  person: OccupancyGrid;
}

/**
 * Fewer, longer straight walks: a bend point is dropped while the straight line that replaces it
 * keeps 0.2 m from every raw obstacle (discLineOfSight), and two bend points closer than 0.4 m
 * merge into their midpoint under the same test; so the string-pulled grid path loses the small
 * zig-zags that grid cells leave at doorways.
 */
export function straightenPath(raw: OccupancyGrid, path: readonly Vec2[]): Vec2[] {
  const clearance = WALK_CLEARANCE_M;
  const pts = path.map((p) => [p[0], p[1]] as Vec2);
  const clear = (a: Vec2, b: Vec2) => discLineOfSight(raw, a, b, clearance);
  let changed = true;
  while (changed) {
    changed = false;
    for (let k = 1; k + 1 < pts.length; k++) {
      if (clear(pts[k - 1]!, pts[k + 1]!)) {
        pts.splice(k, 1);
        changed = true;
        break;
      }
    }
    if (changed) continue;
    for (let k = 1; k + 2 < pts.length; k++) {
      const a = pts[k]!, b = pts[k + 1]!;
      if (Math.hypot(b[0] - a[0], b[1] - a[1]) >= 0.4) continue;
      const m: Vec2 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      if (clear(pts[k - 1]!, m) && clear(m, pts[k + 2]!)) {
        pts.splice(k, 2, m);
        changed = true;
        break;
      }
    }
  }
  return pts;
}

const turnNarration = (delta: number) => (delta > 0 ? "I am turning left" : "I am turning right");

/** The object a goto walks to and stands at: the next sub-goal's object. */
function reachTarget(next: SubGoal | undefined, fallback: SceneObject): SceneObject {
  if (!next) return fallback;
  if (next.kind === "pick" || next.kind === "switch") return next.object;
  if (next.kind === "put") return next.onto;
  if (next.kind === "sit") return next.seat;
  return fallback;
}

type HandGoal = Extract<SubGoal, { kind: "pick" | "put" | "switch" }>;

/** Where the hands go: the object's centre, or for a put the centre of the object at its placement spot. */
function handTarget(scene: Scene, goal: HandGoal): Vec3 {
  const o = goal.object;
  if (goal.kind !== "put") return centre(o);
  const placed = placementSpot(scene, o, goal.onto);
  return [placed[0], placed[1], placed[2] + (o.bbox.max[2] - o.bbox.min[2]) / 2];
}

/**
 * Where a walk to `spot` stops short when the last step is taken after turning to the hand target
 * (P.stepInChance): back from `spot`, on the line from the target through it, by a drawn length;
 * null when not drawn or when that point is not free or the step is not clear.
 */
function stepInStart(grids: Grids, spot: Vec2, target: Vec3, rng: Rng): Vec2 | null {
  if (!rng.chance(P.stepInChance)) return null;
  const [lo, hi] = P.stepInM;
  const length = lo * (hi / lo) ** rng.float(0, 1);
  const ax = spot[0] - target[0], ay = spot[1] - target[1];
  const norm = Math.hypot(ax, ay);
  if (norm < 0.05) return null;
  const from: Vec2 = [spot[0] + (ax / norm) * length, spot[1] + (ay / norm) * length];
  return isFreePoint(grids.person, from) && discLineOfSight(grids.raw, from, spot, WALK_CLEARANCE_M) ? from : null;
}

export interface EpisodeInputs {
  scene: Scene;
  grids: Grids;
  activity: Activity;
  names: ReadonlyMap<number, string>;
  rng: Rng;
}

/** Free cells of a room (inflated grid), as world points. */
function roomCells(scene: Scene, grid: OccupancyGrid, roomId: string): Vec2[] {
  const room = scene.rooms.find((r) => r.id === roomId)!;
  const poly = polygon(room.polygon);
  const out: Vec2[] = [];
  for (let j = 0; j < grid.height; j += 2) {
    for (let i = 0; i < grid.width; i += 2) {
      if (grid.occupied[j * grid.width + i]) continue;
      const p = cellCenter(grid, i, j);
      if (pointInPolygon(poly, p[0], p[1])) out.push(p);
    }
  }
  return out;
}

/** Walks the grid path to `goal`: turn and walk clips; returns false when no path joins them. */
function walkTo(t: Timeline, grids: Grids, goal: Vec2, walker: Walker, subgoal: number, rng: Rng, onWalkStart?: (frame: number) => void): boolean {
  const from: Vec2 = [t.pose.x, t.pose.y];
  if (Math.hypot(goal[0] - from[0], goal[1] - from[1]) < 0.1) return true;
  const cells = shortestPathTree(grids.person, from).pathTo(goal);
  if (!cells) return false;
  const path = straightenPath(grids.raw, smoothPath(grids.person, [from, ...cells.slice(1, -1), goal]));
  for (const piece of splitAtTurns(path)) {
    const heading = Math.atan2(piece[1]![1] - piece[0]![1], piece[1]![0] - piece[0]![0]);
    const delta = angleDelta(t.pose.yaw, heading);
    if (Math.abs(delta) >= P.turnClipDeg * DEG) {
      t.pause(rng.float(...P.pauseS), rng);
      t.clip("turn", subgoal, turnNarration(delta), turnPoses(t.pose, delta, rng.float(...P.turnRateDegS)));
    }
    t.pause(rng.float(...P.pauseS), rng);
    onWalkStart?.(t.frames.length);
    t.clip("walk", subgoal, "I am walking straight", walkPoses(piece, t.pose.yaw, walker, rng));
  }
  return true;
}

/** The episode of an activity, or null when the house does not allow it (no path, no standing spot). */
export function buildEpisode(inputs: EpisodeInputs): Episode | null {
  const { scene, grids, names, rng } = inputs;
  const grid = grids.person;
  let activity = inputs.activity;
  const walker: Walker = { eye: rng.float(...P.eyeHeightM), speed: rng.float(...P.walkSpeedMps), stepHz: rng.float(...P.stepHz) };
  const firstObject = reachTarget(activity.subgoals[1], (activity.subgoals[0] as { target?: SceneObject }).target ?? scene.objects[0]!);
  const goalCell = approachCell(grid, null, firstObject, false);
  if (!goalCell) return null;
  const tree = shortestPathTree(grid, goalCell);
  // A seated start (half of the episodes, when a seat elsewhere allows it): the first step is standing up.
  const used = activityObjects(activity);
  const seats = scene.objects.filter((o) => SEATS.has(o.category) && o.supportId === null && names.has(o.id) && o.room !== firstObject.room && !used.has(o.id));
  let t: Timeline | null = null;
  let startRoom = "";
  if (seats.length > 0 && rng.chance(0.5)) {
    const seat = rng.pick(seats);
    const spot = approachCell(grid, null, seat, true);
    if (spot && tree.distanceTo(spot) >= 3 && tree.distanceTo(spot) < Infinity) {
      const yaw = Math.atan2(spot[1] - seat.position[1], spot[0] - seat.position[0]);
      const stand = sitPoses({ x: spot[0], y: spot[1], z: walker.eye, yaw, pitch: REST_PITCH }, seatHeight(seat) + P.seatedEyeAboveSeatM, P.sitBackM, rng.float(...P.sitS), true);
      t = new Timeline({ ...stand[0]! });
      startRoom = seat.room;
      activity = { ...activity, subgoals: [{ kind: "stand", seat }, ...activity.subgoals], ...(activity.parts ? { parts: activity.parts.map((p) => ({ ...p, first: p.first + 1 })) } : {}) };
      t.pause(0.5, rng);
      t.clip("stand", 0, "I am standing up", stand);
    }
  }
  if (!t) {
    // Standing in another room than the first goal, at least 3 m of walking away.
    const rooms = scene.rooms.filter((r) => r.id !== firstObject.room).map((r) => r.id);
    if (rooms.length === 0) return null;
    startRoom = rng.pick(rooms);
    const reachable = roomCells(scene, grid, startRoom).filter((c) => tree.distanceTo(c) >= 3 && tree.distanceTo(c) < Infinity);
    if (reachable.length === 0) return null;
    const start = rng.pick(reachable);
    t = new Timeline({ x: start[0], y: start[1], z: walker.eye, yaw: rng.float(-Math.PI, Math.PI), pitch: REST_PITCH });
    t.pause(0.5, rng);
  }
  const goals = activity.subgoals;
  const decisions: DecisionPoint[] = [];
  // Where the walker stood before sitting down (a chained task stands up there again).
  let standingBeforeSit: Pose | null = null;
  // The standing spot still to step up to after a walk that stopped short (stepInStart).
  let pendingStep: Vec2 | null = null;
  for (let g = 0; g < goals.length; g++) {
    const goal = goals[g]!;
    switch (goal.kind) {
      case "stand":
        // At g = 0 done above (the episode opened seated); later, the seat sat on last.
        if (g > 0) {
          if (!standingBeforeSit) return null;
          t.pause(rng.float(...P.pauseS), rng);
          t.clip("stand", g, "I am standing up", sitPoses(standingBeforeSit, seatHeight(goal.seat) + P.seatedEyeAboveSeatM, P.sitBackM, rng.float(...P.sitS), true));
          standingBeforeSit = null;
        }
        break;
      case "goto": {
        const reach = reachTarget(goals[g + 1], goal.target);
        const isSeat = goals[g + 1]?.kind === "sit";
        const spot = approachCell(grid, [t.pose.x, t.pose.y], reach, isSeat);
        if (!spot) return null;
        const next = goals[g + 1];
        const handGoal = next && (next.kind === "pick" || next.kind === "put" || next.kind === "switch") ? next : null;
        const stopShort = handGoal ? stepInStart(grids, spot, handTarget(scene, handGoal), rng) : null;
        pendingStep = stopShort ? spot : null;
        const walkEnd = stopShort ?? spot;
        decisions.push({ frame: t.frames.length, subgoal: g, goal: goal.target.id, approach: walkEnd });
        const ok = walkTo(t, grids, walkEnd, walker, g, rng, (frame) => {
          if (frame !== decisions[decisions.length - 1]!.frame) decisions.push({ frame, subgoal: g, goal: goal.target.id, approach: walkEnd });
        });
        if (!ok) return null;
        break;
      }
      case "pick":
      case "put":
      case "switch": {
        const o = goal.object;
        const rest = centre(o);
        const target = handTarget(scene, goal);
        const delta = angleDelta(t.pose.yaw, lookAt([t.pose.x, t.pose.y, t.pose.z], target).yaw);
        if (Math.abs(delta) >= P.turnClipDeg * DEG) {
          t.pause(rng.float(...P.pauseS), rng);
          t.clip("turn", g, turnNarration(delta), turnPoses(t.pose, delta, rng.float(...P.turnRateDegS)));
        }
        if (pendingStep) {
          // The step in, straight toward the target (stepInStart put the walk's end on that line).
          t.pause(rng.float(...P.pauseS), rng);
          t.clip("walk", g, "I am walking straight", walkPoses([[t.pose.x, t.pose.y], pendingStep], t.pose.yaw, walker, rng));
          pendingStep = null;
        }
        const eye: Vec3 = [t.pose.x, t.pose.y, t.pose.z];
        const look = lookAt(eye, target);
        t.pause(rng.float(...P.pauseS), rng);
        const { poses, u } = manipulationPoses(t.pose, target, rng.float(...P.manipulationS));
        const f: Vec2 = [Math.cos(look.yaw), Math.sin(look.yaw)];
        const near: Vec3 = [eye[0] + f[0] * 0.35, eye[1] + f[1] * 0.35, eye[2] - 0.3];
        const hand: Vec3 = [eye[0] + f[0] * 0.3, eye[1] + f[1] * 0.3, eye[2] - 0.65];
        const offsetTo = (q: Vec3): Vec3 => [q[0] - rest[0], q[1] - rest[1], q[2] - rest[2]];
        const lerp = (a: Vec3, b: Vec3, s: number): Vec3 => [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s];
        const ease01 = (x: number, a: number, b: number) => { const s = Math.min(1, Math.max(0, (x - a) / (b - a))); return (1 - Math.cos(Math.PI * s)) / 2; };
        const n = names.get(o.id)!;
        const each = (k: number) => {
          const x = u[k]!;
          if (goal.kind === "pick") {
            if (x < 0.35) t.set(o.id, [0, 0, 0]);
            else if (x < 0.6) t.set(o.id, offsetTo(lerp(rest, near, ease01(x, 0.35, 0.6))));
            else if (x < 0.85) t.set(o.id, offsetTo(lerp(near, hand, ease01(x, 0.6, 0.85))));
            else t.set(o.id, null);
          } else if (goal.kind === "put") {
            if (x < 0.25) t.set(o.id, null);
            else if (x < 0.45) t.set(o.id, offsetTo(lerp(hand, near, ease01(x, 0.25, 0.45))));
            else t.set(o.id, offsetTo(lerp(near, target, ease01(x, 0.45, 0.7))));
          } else if (x >= 0.45) t.switchOn(o.id);
        };
        const narration = goal.kind === "pick" ? `I am picking up the ${n}` : goal.kind === "put" ? `I am putting the ${n} on the ${names.get(goal.onto.id)!}` : `I am switching on the ${n}`;
        t.clip(goal.kind, g, narration, poses, each, o.id);
        break;
      }
      case "sit": {
        const seat = goal.seat;
        const away = Math.atan2(t.pose.y - seat.position[1], t.pose.x - seat.position[0]);
        const delta = angleDelta(t.pose.yaw, away);
        if (Math.abs(delta) >= P.turnClipDeg * DEG) {
          t.pause(rng.float(...P.pauseS), rng);
          t.clip("turn", g, turnNarration(delta), turnPoses(t.pose, delta, rng.float(...P.turnRateDegS)));
        }
        t.pause(rng.float(...P.pauseS), rng);
        standingBeforeSit = { ...t.pose };
        t.clip("sit", g, "I am sitting down", sitPoses(t.pose, seatHeight(seat) + P.seatedEyeAboveSeatM, P.sitBackM, rng.float(...P.sitS)));
        break;
      }
    }
  }
  t.pause(0.5, rng);
  return {
    activity, walker, startRoom,
    frames: t.frames, clips: t.clips, moved: t.moved, switchedOn: t.switchedOn, decisions,
    steps: goals.map((g) => stepText(g, names)),
  };
}

/**
 * The memory-bank walkthrough (§3 "Memory Bank"): the house in its initial state, visiting the
 * start room and every room the activity uses, turning a full circle at a free spot near each
 * room's centre. Poses at P.fps (subsampled for the video by the caller).
 */
export function buildWalkthrough(scene: Scene, grids: Grids, episode: Episode, rng: Rng): Pose[] | null {
  const grid = grids.person;
  // From the first pose on free floor (a seated start begins on the seat).
  const first = episode.frames.find((p) => isFreePoint(grid, [p.x, p.y])) ?? episode.frames[0]!;
  const t = new Timeline({ ...first, pitch: REST_PITCH });
  const rooms: string[] = [episode.startRoom];
  for (const g of episode.activity.subgoals) {
    const o = subgoalObject(g);
    if (!rooms.includes(o.room)) rooms.push(o.room);
  }
  const walker = episode.walker;
  for (const roomId of rooms) {
    const room = scene.rooms.find((r) => r.id === roomId)!;
    const cx = room.polygon.reduce((a, p) => a + p[0], 0) / room.polygon.length;
    const cy = room.polygon.reduce((a, p) => a + p[1], 0) / room.polygon.length;
    const tree = shortestPathTree(grid, [t.pose.x, t.pose.y]);
    const cells = roomCells(scene, grid, roomId).filter((c) => tree.distanceTo(c) < Infinity);
    if (cells.length === 0) continue;
    let spot = cells[0]!;
    for (const c of cells) if (Math.hypot(c[0] - cx, c[1] - cy) < Math.hypot(spot[0] - cx, spot[1] - cy)) spot = c;
    if (!walkTo(t, grids, spot, walker, -1, rng)) return null;
    const sign = rng.chance(0.5) ? 1 : -1;
    for (let half = 0; half < 2; half++) {
      t.pause(0.3, rng);
      t.clip("turn", -1, "", turnPoses(t.pose, sign * Math.PI, P.walkthroughYawRateDegS));
    }
  }
  return t.frames.length > 0 ? t.frames : null;
}
