/**
 * The six EgoTL-Bench tasks from an episode (the paper's §5 and App. H): direction and distance
 * from the navigation clips, action recognition and next action from the script, scene-aware
 * action from the geometry at a decision point, memory-conditioned planning from the chain of
 * thought. Distractors follow H.1: clearly wrong yet plausible, linguistically clear, and naming
 * only objects the house has (same verb on another object, another verb on the same object, other
 * steps of the plan or of the house's other activities).
 */
import type { Rng } from "../../../stats/rng.js";
import { discLineOfSight, lineOfSight, type OccupancyGrid } from "../../../world/space/index.js";
import type { Scene, SceneObject, Vec2 } from "../../../world/types.js";
import type { DirectionLabel } from "../schema.js";
import { chainOfThought, PORTABLE, SEATS, stepText, SURFACES, SWITCHABLE, type Activity, type SubGoal } from "./activities.js";
import type { Episode, Clip } from "./episode.js";
import { directionOf, travelledMetres } from "./labels.js";
import { angleDelta } from "./motion.js";
import { DEG, EGOTL_PARAMS as P } from "./params.js";

export type SceneActionClass = "straight" | "left" | "right" | "behind" | "around";

export interface SceneActionOption {
  text: string;
  kind: SceneActionClass;
  /** The object walked around ("around" options). */
  obstacle?: number;
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

/** The one feasible class, or null when the view is ambiguous (between the bearing bands, or blocked by a wall). */
export function sceneActionTruth(f: SceneActionFacts, visible: (id: number) => boolean): SceneActionClass | null {
  if (f.blocked) return f.blocker && visible(f.blocker.id) && Math.abs(f.bearingDeg) <= P.aroundMaxDeg ? "around" : null;
  if (Math.abs(f.bearingDeg) <= P.aheadDeg) return "straight";
  if (f.bearingDeg >= P.sideMinDeg) return "left";
  if (f.bearingDeg <= -P.sideMinDeg) return "right";
  return null;
}

export function sceneActionText(kind: SceneActionClass, goal: string, obstacle?: string): string {
  switch (kind) {
    case "straight": return `Walk straight ahead to the ${goal}`;
    case "left": return `Turn left and walk to the ${goal}`;
    case "right": return `Turn right and walk to the ${goal}`;
    case "behind": return `Turn around and walk to the ${goal}`;
    case "around": return `Walk around the ${obstacle} to reach the ${goal}`;
  }
}

/** The truth and three options the layout rules out: the goal is in view (not behind), on the other side, or the line is blocked. */
export function sceneActionOptions(truth: SceneActionClass, f: SceneActionFacts, goal: string, names: ReadonlyMap<number, string>): SceneActionOption[] {
  const opt = (kind: SceneActionClass): SceneActionOption => ({ kind, text: sceneActionText(kind, goal) });
  if (truth === "around") {
    const o = f.blocker!;
    return [
      { kind: "around", text: sceneActionText("around", goal, names.get(o.id)!), obstacle: o.id },
      opt("straight"),
      opt("behind"),
      opt(f.bearingDeg >= 0 ? "right" : "left"),
    ];
  }
  if (truth === "straight") return [opt("straight"), opt("left"), opt("right"), opt("behind")];
  return [opt(truth), opt(truth === "left" ? "right" : "left"), opt("straight"), opt("behind")];
}

/** Action recognition options: the step and three wrong but plausible ones from the house. */
export function actionDistractors(goal: SubGoal, scene: Scene, names: ReadonlyMap<number, string>, rng: Rng): string[] {
  const n = (o: SceneObject) => names.get(o.id)!;
  const named = scene.objects.filter((o) => names.has(o.id) && !o.inWall);
  const others = (set: Set<string>, not: SceneObject) => rng.shuffle(named.filter((o) => set.has(o.category) && o.id !== not.id && (set !== SURFACES || o.supportId === null)));
  const firstPick: string[] = [];
  const rest: string[] = [];
  if (goal.kind === "pick") {
    if (goal.from) firstPick.push(`Put the ${n(goal.object)} on the ${n(goal.from)}`);
    rest.push(...others(PORTABLE, goal.object).map((o) => `Pick up the ${n(o)}`));
  } else if (goal.kind === "put") {
    firstPick.push(`Pick up the ${n(goal.object)}`);
    const surfaces = others(SURFACES, goal.onto).map((o) => `Put the ${n(goal.object)} on the ${n(o)}`);
    const portables = others(PORTABLE, goal.object).map((o) => `Put the ${n(o)} on the ${n(goal.onto)}`);
    for (let k = 0; k < Math.max(surfaces.length, portables.length); k++) rest.push(...[surfaces[k], portables[k]].filter((x): x is string => !!x));
  } else if (goal.kind === "switch") {
    firstPick.push(`Switch off the ${n(goal.object)}`);
    rest.push(...others(SWITCHABLE, goal.object).map((o) => `Switch on the ${n(o)}`));
    rest.push(...others(PORTABLE, goal.object).map((o) => `Pick up the ${n(o)}`));
  }
  return [...firstPick, ...rest];
}

/** Three distinct texts from the pool, none equal to the answer (case-insensitive), in pool order. */
export function pickDistinct(answer: string, pool: readonly string[], count = 3): string[] | null {
  const seen = new Set([answer.toLowerCase()]);
  const out: string[] = [];
  for (const p of pool) {
    if (out.length >= count) break;
    if (seen.has(p.toLowerCase())) continue;
    seen.add(p.toLowerCase());
    out.push(p);
  }
  return out.length === count ? out : null;
}

/** Next-action distractors: later steps of the plan, steps of the house's other activities, earlier steps. */
export function nextActionPool(episode: Episode, j: number, houseSteps: readonly string[], rng: Rng): string[] {
  const later = episode.steps.slice(j + 2);
  const earlier = episode.steps.slice(0, j + 1).reverse();
  return [...later, ...rng.shuffle(houseSteps.filter((s) => !episode.steps.includes(s))).slice(0, 6), ...earlier];
}

export interface PlanVariant {
  kind: "true" | "swapped" | "dropped" | "replaced";
  text: string;
}

/** Objects a replacement may name instead: same family, another category or place, in the house. */
function replacementFor(o: SceneObject, scene: Scene, names: ReadonlyMap<number, string>, avoidCategory: string | null): SceneObject | null {
  const family = [SURFACES, SEATS, SWITCHABLE, PORTABLE].find((s) => s.has(o.category)) ?? null;
  const pool = scene.objects
    .filter((x) => names.has(x.id) && !x.inWall && x.id !== o.id && x.room !== o.room && (family ? family.has(x.category) : true))
    .filter((x) => avoidCategory === null || !scene.objects.some((y) => y.supportId === x.id && y.category === avoidCategory))
    .filter((x) => x.category !== o.category || avoidCategory !== null);
  return pool.length > 0 ? pool[0]! : null;
}

/**
 * The true plan and three altered ones (§5 planning; our alterations): two steps swapped, a step
 * dropped, an object replaced by another of the house (where a picked object is looked for in a
 * place that does not hold one, or another seat, switch or surface than the task's). Null when
 * the plan allows no three distinct alterations.
 */
export function planVariants(episode: Episode, scene: Scene, names: ReadonlyMap<number, string>): PlanVariant[] | null {
  const goals = episode.activity.subgoals;
  const cot = (g: readonly SubGoal[]) => chainOfThought(episode.activity.abstract, g, scene, names, episode.startRoom);
  const truth = cot(goals);
  const actions = goals.map((g, k) => ({ g, k })).filter(({ g }) => g.kind !== "goto" && g.kind !== "stand");
  // Swap: the first two actions (or a walk and the action after it).
  const swapped = [...goals];
  const [i, j] = actions.length >= 2 ? [actions[0]!.k, actions[1]!.k] : [Math.max(0, actions[0]!.k - 1), actions[0]!.k];
  [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
  // Drop: the first action.
  const dropped = goals.filter((_, k) => k !== actions[0]!.k);
  // Replace: where the first picked object is looked for, else the last goal object.
  let replaced: SubGoal[] | null = null;
  const pickAt = goals.findIndex((g) => g.kind === "pick");
  if (pickAt > 0 && goals[pickAt - 1]!.kind === "goto") {
    const walk = goals[pickAt - 1] as Extract<SubGoal, { kind: "goto" }>;
    const picked = (goals[pickAt] as Extract<SubGoal, { kind: "pick" }>).object;
    const other = replacementFor(walk.target, scene, names, picked.category);
    if (other) replaced = goals.map((g, k) => (k === pickAt - 1 ? { ...walk, target: other } : g));
  }
  if (!replaced) {
    const last = actions[actions.length - 1]!;
    const g = last.g;
    const o = g.kind === "sit" ? g.seat : g.kind === "put" ? g.onto : g.kind === "switch" || g.kind === "pick" ? g.object : null;
    const other = o ? replacementFor(o, scene, names, null) : null;
    if (o && other) {
      replaced = goals.map((x) => {
        if (x.kind === "goto" && x.target.id === o.id) return { ...x, target: other };
        if (x.kind === "sit" && x.seat.id === o.id) return { ...x, seat: other };
        if (x.kind === "put" && x.onto.id === o.id) return { ...x, onto: other };
        if ((x.kind === "switch" || x.kind === "pick") && x.object.id === o.id) return { ...x, object: other };
        return x;
      });
    }
  }
  if (!replaced) return null;
  const variants: PlanVariant[] = [
    { kind: "true", text: truth },
    { kind: "swapped", text: cot(swapped) },
    { kind: "dropped", text: cot(dropped) },
    { kind: "replaced", text: cot(replaced) },
  ];
  return new Set(variants.map((v) => v.text.toLowerCase())).size === 4 ? variants : null;
}

/** Every step text of the house's activities (distractor pool of next action). */
export function houseStepTexts(activities: readonly Activity[], names: ReadonlyMap<number, string>): string[] {
  return [...new Set(activities.flatMap((a) => a.subgoals.map((g) => stepText(g, names))))].sort();
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
