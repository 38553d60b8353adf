/**
 * The six EgoTL-Bench tasks from an episode (the paper's §5 and App. H): direction and distance
 * from the navigation clips, action recognition and next action from the script, scene-aware
 * action from the geometry at a decision point, memory-conditioned planning from the chain of
 * thought. Distractors follow H.1: clearly wrong yet plausible, linguistically clear, and naming
 * only objects the house has; each task's options are built so that the text alone does not tell
 * the answer (issue 29: grids of verbs and objects or of rooms, the same four scene-aware classes,
 * other steps of the same plan at random).
 */
import type { Rng } from "../../../stats/rng.js";
import { discLineOfSight, lineOfSight, type OccupancyGrid } from "../../../world/space/index.js";
import { ROOM_TYPES, type Scene, type SceneObject, type Vec2 } from "../../../world/types.js";
import type { DirectionLabel } from "../schema.js";
import { chainOfThought, PORTABLE, roomName, SWITCHABLE, type Activity } from "./activities.js";
import type { Clip, DecisionPoint, Episode } from "./episode.js";
import { directionOf, travelledMetres } from "./labels.js";
import { angleDelta } from "./motion.js";
import { DEG, EGOTL_PARAMS as P } from "./params.js";

export type SceneActionClass = "straight" | "left" | "right" | "around";

/** Every item offers the four classes (H.2.2: one option fits the layout, the others ignore it). */
export const SCENE_ACTION_CLASSES: readonly SceneActionClass[] = ["straight", "left", "right", "around"];

export interface SceneActionOption {
  text: string;
  kind: SceneActionClass;
  /** The object the "around" option names. */
  obstacle: number;
}

/** Object centre in the plan. */
const centre2 = (o: SceneObject): Vec2 => [(o.bbox.min[0] + o.bbox.max[0]) / 2, (o.bbox.min[1] + o.bbox.max[1]) / 2];

/** Entry parameter (0..1) of segment a-b into a box, or null when it misses. */
export function segmentBoxEntry(a: Vec2, b: Vec2, min: Vec2, max: Vec2): number | null {
  let t0 = 0, t1 = 1;
  for (let axis = 0; axis < 2; axis++) {
    const d = b[axis]! - a[axis]!;
    if (Math.abs(d) < 1e-12) {
      if (a[axis]! < min[axis]! || a[axis]! > max[axis]!) return null;
      continue;
    }
    let ta = (min[axis]! - a[axis]!) / d, tb = (max[axis]! - a[axis]!) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return null;
  }
  return t0;
}

/** The first object the straight line from a to b runs into (not the goal, what stands on it, or what it stands on; no rugs). */
export function firstBlocker(scene: Scene, a: Vec2, b: Vec2, goal: SceneObject): SceneObject | null {
  let best: SceneObject | null = null, bestT = Infinity;
  for (const o of scene.objects) {
    if (o.inWall || P.nonBlocking.includes(o.category) || o.id === goal.id || o.supportId === goal.id || o.id === goal.supportId || o.supportId !== null) continue;
    if (o.bbox.min[2] >= P.obstacleMaxZ || o.bbox.max[2] <= P.obstacleMinZ) continue;
    const t = segmentBoxEntry(a, b, [o.bbox.min[0], o.bbox.min[1]], [o.bbox.max[0], o.bbox.max[1]]);
    if (t !== null && t < bestT) {
      bestT = t;
      best = o;
    }
  }
  return best;
}

export interface SceneActionFacts {
  /** Bearing of the goal's centre, degrees, left positive. */
  bearingDeg: number;
  /** The straight line to the standing spot is not clear (straightWalkClear). */
  blocked: boolean;
  blocker: SceneObject | null;
}

/**
 * A straight walk is clear when the person's free space holds the line (lineOfSight on the grid
 * inflated by the person's radius) or the line keeps BLOCKED_CLEARANCE_M from every raw obstacle,
 * a little less than the walks themselves keep (straightenPath), so a walk the script makes is clear.
 */
/** A line closer than this to a raw obstacle (a body's half-width) is blocked. */
export const BLOCKED_CLEARANCE_M = 0.15;

export function straightWalkClear(grids: { raw: OccupancyGrid; person: OccupancyGrid }, a: Vec2, b: Vec2): boolean {
  return lineOfSight(grids.person, a, b) || discLineOfSight(grids.raw, a, b, BLOCKED_CLEARANCE_M);
}

export function sceneActionFacts(scene: Scene, grids: { raw: OccupancyGrid; person: OccupancyGrid }, camera: { x: number; y: number; yaw: number }, goal: SceneObject, approach: Vec2): SceneActionFacts {
  const c = centre2(goal);
  const bearingDeg = angleDelta(camera.yaw, Math.atan2(c[1] - camera.y, c[0] - camera.x)) / DEG;
  const from: Vec2 = [camera.x, camera.y];
  const blocked = !straightWalkClear(grids, from, approach);
  return { bearingDeg, blocked, blocker: blocked ? firstBlocker(scene, from, approach, goal) : null };
}

/** Mid-turn views are asked where the goal's bearing is near this (degrees): inside the side class, in view. */
const SIDE_VIEW_DEG = 31;

/**
 * More decision views: in each turn clip of a walk toward a goal, the frame where the goal's
 * bearing is nearest SIDE_VIEW_DEG (within the side band and the field of view). A walker faces
 * where it walks, so at the starts of walks the goal is mostly straight ahead; part way through a
 * turn toward it, the goal is still to one side, the view that a "turn left/right" answer needs.
 */
export function turnDecisions(episode: Episode, scene: Scene): DecisionPoint[] {
  const out: DecisionPoint[] = [];
  for (const clip of episode.clips) {
    if (clip.kind !== "turn") continue;
    const walk = episode.decisions.find((d) => d.subgoal === clip.subgoal && d.frame >= clip.first);
    const goal = walk ? scene.objects.find((o) => o.id === walk.goal) : undefined;
    if (!walk || !goal) continue;
    const c = centre2(goal);
    let best = -1, bestGap = Infinity;
    for (let f = clip.first; f <= clip.last; f++) {
      const pose = episode.frames[f]!;
      const bearing = Math.abs(angleDelta(pose.yaw, Math.atan2(c[1] - pose.y, c[0] - pose.x)) / DEG);
      const gap = Math.abs(bearing - SIDE_VIEW_DEG);
      if (bearing >= P.sideMinDeg + 2 && bearing <= P.hfovDeg / 2 - 8 && gap < bestGap) {
        best = f;
        bestGap = gap;
      }
    }
    if (best >= 0) out.push({ ...walk, frame: best });
  }
  return out;
}

/** The one feasible class, or null when the view is ambiguous (between the bearing bands, or blocked by a wall). */
export function sceneActionTruth(f: SceneActionFacts, visible: (id: number) => boolean): SceneActionClass | null {
  if (f.blocked) return f.blocker && visible(f.blocker.id) && Math.abs(f.bearingDeg) <= P.aroundMaxDeg ? "around" : null;
  if (Math.abs(f.bearingDeg) <= P.aheadDeg) return "straight";
  if (f.bearingDeg >= P.sideMinDeg) return "left";
  if (f.bearingDeg <= -P.sideMinDeg) return "right";
  return null;
}

export function sceneActionText(kind: SceneActionClass, goal: string, obstacle: string): string {
  switch (kind) {
    case "straight": return `Walk straight ahead to the ${goal}`;
    case "left": return `Turn left and walk to the ${goal}`;
    case "right": return `Turn right and walk to the ${goal}`;
    case "around": return `Walk around the ${obstacle} to reach the ${goal}`;
  }
}

/**
 * The four options of a scene-aware item, the same four classes whatever the answer: walk
 * straight, turn left, turn right, walk around an object in view. "Around" names the blocker when
 * the way is blocked, else another object in view (`decoy`) that does not block it, so whether
 * that object stands in the way is read off the picture, not off which options are offered.
 */
export function sceneActionOptions(f: SceneActionFacts, goal: string, decoy: number | null, names: ReadonlyMap<number, string>): SceneActionOption[] | null {
  const obstacle = f.blocked ? f.blocker?.id ?? null : decoy;
  if (obstacle === null || !names.has(obstacle)) return null;
  return SCENE_ACTION_CLASSES.map((kind) => ({ kind, obstacle, text: sceneActionText(kind, goal, names.get(obstacle)!) }));
}

/**
 * The decoy of an unblocked view: the named floor object in view with the most visible pixels (at
 * least `minPixels`), not the goal or what it stands on, no rug. It is asked only where the
 * straight walk is clear, so it does not block.
 */
export function sceneActionDecoy(scene: Scene, goal: SceneObject, pixels: ReadonlyMap<number, number>, minPixels: number, names: ReadonlyMap<number, string>): number | null {
  let best: number | null = null, bestPixels = minPixels - 1;
  for (const o of scene.objects) {
    if (o.id === goal.id || o.id === goal.supportId || o.inWall || o.supportId !== null || P.nonBlocking.includes(o.category) || !names.has(o.id)) continue;
    const n = pixels.get(o.id) ?? 0;
    if (n > bestPixels) {
      best = o.id;
      bestPixels = n;
    }
  }
  return best;
}

/** What an action-recognition option says a hand did. */
export type ActionVerb = "pick" | "put" | "switch";

export function actionText(verb: ActionVerb, object: string): string {
  return verb === "pick" ? `Pick up the ${object}` : verb === "put" ? `Put down the ${object}` : `Switch on the ${object}`;
}

/**
 * Action-recognition options (H.2.4) as a grid, so that no option is the centre the others were
 * edited from: pick-up and put-down clips get {pick up, put down} x {the object, another portable
 * object of the house}; switch-on clips get "Switch on" x four switchable objects of the house.
 * The clip shows which verb and which object; the text offers each verb and each object equally.
 * Null when the house has too few such objects.
 */
export function actionOptions(verb: ActionVerb, object: SceneObject, scene: Scene, names: ReadonlyMap<number, string>, rng: Rng): { answer: string; distractors: string[] } | null {
  const n = (o: SceneObject) => names.get(o.id)!;
  const family = verb === "switch" ? SWITCHABLE : PORTABLE;
  const others = rng.shuffle(scene.objects.filter((o) => family.has(o.category) && names.has(o.id) && !o.inWall && o.id !== object.id && o.category !== object.category));
  const distinctNames = [...new Map(others.map((o) => [n(o).toLowerCase(), o])).values()];
  const answer = actionText(verb, n(object));
  if (verb === "switch") {
    if (distinctNames.length < 3) return null;
    return { answer, distractors: distinctNames.slice(0, 3).map((o) => actionText("switch", n(o))) };
  }
  const other = distinctNames[0];
  if (!other) return null;
  const otherVerb: ActionVerb = verb === "pick" ? "put" : "pick";
  return { answer, distractors: rng.shuffle([actionText(otherVerb, n(object)), actionText(verb, n(other)), actionText(otherVerb, n(other))]) };
}

/**
 * The steps a next-action item may offer (H.2.3): every step of the plan but the first (the
 * clip shown ends a step, so the first step is never the answer) whose text no other step has.
 */
export function askableSteps(steps: readonly string[]): number[] {
  const count = new Map<string, number>();
  for (const s of steps) count.set(s.toLowerCase(), (count.get(s.toLowerCase()) ?? 0) + 1);
  return steps.map((_, k) => k).filter((k) => k > 0 && count.get(steps[k]!.toLowerCase()) === 1);
}

/**
 * Next-action distractors: three other askable steps of the same plan, drawn at random. The chain
 * of thought lists every step in order, so a step from outside the plan is ruled out by reading,
 * and distractors taken after the answer make "the option the plan names first" right. Drawn from
 * the whole plan, the answer is equally likely to be any of the four in plan order: which one
 * comes next is told by the clip alone. Null when the plan has fewer than four askable steps.
 */
export function nextActionDistractors(askable: readonly number[], answer: number, rng: Rng): number[] | null {
  const others = askable.filter((k) => k !== answer);
  return others.length >= 3 ? rng.shuffle(others).slice(0, 3) : null;
}

export interface PlanVariant {
  /** Which walks the plan puts in a wrong room: "true" (none), "first", "second", "both". */
  kind: "true" | "first" | "second" | "both";
  text: string;
}

/**
 * Rooms where real homes keep things of a category a plan walks to (our house recipes are
 * narrower: a TV only in living rooms). A wrong room of a plan is one of these, so that no option
 * reads as absurd ("the bed in the kitchen").
 */
const HOME_ROOMS: Readonly<Record<string, readonly string[]>> = {
  table: ["kitchen", "dining room", "living room"],
  "coffee table": ["living room", "office"],
  desk: ["office", "bedroom", "living room"],
  nightstand: ["bedroom"],
  dresser: ["bedroom", "living room", "dining room", "hallway"],
  cabinet: ["living room", "dining room", "office", "hallway", "kitchen"],
  "tv stand": ["living room", "bedroom"],
  shelf: ["living room", "office", "bedroom", "dining room"],
  sofa: ["living room", "office"],
  armchair: ["living room", "bedroom", "office"],
  chair: ["dining room", "kitchen", "office", "bedroom"],
  bed: ["bedroom"],
  bench: ["hallway", "dining room", "bedroom"],
  stool: ["kitchen"],
  lamp: ["living room", "bedroom", "office", "dining room", "hallway"],
  tv: ["living room", "bedroom"],
  monitor: ["office", "bedroom"],
  kettle: ["kitchen"],
  "coffee machine": ["kitchen", "office", "dining room"],
};

/** A room word inside an object's name ("kitchen counter", "dining table") fixes where it is. */
const ROOM_WORDS = new RegExp(` in the |\\b(?:${ROOM_TYPES.map((t) => t.split(" ")[0]).join("|")})\\b`);
const namesARoom = (name: string) => ROOM_WORDS.test(name);

/**
 * The true plan and three that put things in the wrong rooms (§5 memory-conditioned planning: the
 * memory bank shows where things are). Two walks of the plan are altered, each to another room of
 * the house where such an object could stand (HOME_ROOMS, or where the house recipes put the
 * category: `roomsFor`), giving a 2 x 2 grid: right/wrong
 * first room x right/wrong second room. Every option follows the task's steps in the task's order
 * and says the room of every walk, so each option differs from two others by one room and no text
 * feature tells the grid's right corner; the memory bank does. Null when the plan has fewer than
 * two walks to objects whose room is not in their name or the task sentence.
 */
export function planVariants(activity: Activity, startRoom: string, scene: Scene, names: ReadonlyMap<number, string>, roomsFor: ReadonlyMap<string, ReadonlySet<string>>, rng: Rng): PlanVariant[] | null {
  const goals = activity.subgoals;
  const task = activity.abstract.toLowerCase();
  const houseRooms = [...new Set(scene.rooms.map((r) => r.type as string))].sort();
  const axes: Array<{ object: SceneObject; wrong: string }> = [];
  const seen = new Set<number>();
  for (const g of goals) {
    if (g.kind !== "goto" || seen.has(g.target.id)) continue;
    seen.add(g.target.id);
    const name = names.get(g.target.id)!;
    const room = roomName(scene, g.target.room);
    if (namesARoom(name) || task.includes(room)) continue;
    const wrong = houseRooms.filter((r) => r !== room && !task.includes(r) && ((HOME_ROOMS[g.target.category] ?? []).includes(r) || (roomsFor.get(g.target.category)?.has(r as never) ?? false)));
    // A wrong room of the true one's length where the house has one (the options' lengths then
    // tell nothing), else longer or shorter at even odds (true rooms are often the longest name,
    // "living room": the selection balances what is left, see ANSWER_CLASSES).
    const side = (r: string) => Math.sign(r.length - room.length);
    const wanted = rng.chance(0.5) ? 1 : -1;
    const pool = [0, wanted, -wanted].map((k) => wrong.filter((r) => side(r) === k)).find((list) => list.length > 0);
    if (pool) axes.push({ object: g.target, wrong: rng.pick(pool) });
  }
  if (axes.length < 2) return null;
  const [a, b] = rng.shuffle(axes).slice(0, 2) as [(typeof axes)[0], (typeof axes)[0]];
  const cot = (wrongA: boolean, wrongB: boolean) => chainOfThought(activity.abstract, goals, scene, names, startRoom, {
    everyWalk: true,
    roomOf: (o) => (o.id === a.object.id && wrongA ? a.wrong : o.id === b.object.id && wrongB ? b.wrong : roomName(scene, o.room)),
  });
  // The wrong plans in a random order: in a fixed one, where the true plan is inserted would show
  // which pair of options differs in both rooms.
  const variants: PlanVariant[] = [
    { kind: "true", text: cot(false, false) },
    ...rng.shuffle<PlanVariant>([{ kind: "first", text: cot(true, false) }, { kind: "second", text: cot(false, true) }, { kind: "both", text: cot(true, true) }]),
  ];
  return new Set(variants.map((v) => v.text.toLowerCase())).size === 4 ? variants : null;
}

/** A navigation clip's label from the stored poses, when it agrees with the script; else null. */
export function clipDirection(episode: Episode, clip: Clip): DirectionLabel | null {
  const label = directionOf(episode.frames.slice(clip.first, clip.last + 1));
  const expected: Record<string, DirectionLabel[]> = { walk: ["Move forward"], turn: ["Turn left", "Turn right"], sit: ["Going down"], stand: ["Going up"] };
  return label && (expected[clip.kind] ?? []).includes(label) ? label : null;
}

/** Eq. 3 over the clip's stored 10 fps camera centres, to 0.01 m. */
export function clipDistance(episode: Episode, clip: Clip): number {
  return Math.round(travelledMetres(episode.frames.slice(clip.first, clip.last + 1)) * 100) / 100 + 0;
}
