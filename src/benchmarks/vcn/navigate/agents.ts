/**
 * Navigation agents: what decides the next move. A decision is one primitive action, or a point
 * the oracle executor drives to (executor.ts), then either STOP or a new decision.
 *
 * Built-in agents (no model, no key):
 *   oracle          drives the geodesic shortest path to the nearest inner goal view point
 *                   (innerViewPoints) and stops on it, to within the motion's rounding
 *                   (oracleReachM: 0.13 m for 0.25 m steps and 30-degree turns), so it ends in the
 *                   target room: an upper bound on SR and RSR alike.
 *   random-walk[:s] a uniformly random move (FORWARD, TURN_LEFT, TURN_RIGHT) each step, STOP with
 *                   probability RANDOM_STOP_P (so 50 actions on average); seeded per episode.
 *   forward-only    FORWARD until a FORWARD is blocked by an obstacle, then STOP.
 *   goal-then-plan:<rule>[:s]  hierarchical (§5.2): a prior-video frame chosen by the rule
 *                   (oracle: a success frame, the middle one in video order; random: uniform
 *                   over the frames; first: frame 0), then the executor drives to the place the
 *                   frame was taken and stops.
 * Model agents (model-agent.ts) ask a model at every decision.
 */
import { createRng, seedFromString, type Rng } from "../../../stats/rng.js";
import type { Environment, NavAction, Observation, Vec3 } from "../../../sim/types.js";
import { UsageError } from "../../../core/problems.js";
import { VCN_PARAMS } from "../construct/params.js";
import type { Decision, StepRecord } from "./types.js";
import type { NavTask } from "./tasks.js";

export type Plan =
  | { kind: "action"; action: NavAction }
  | { kind: "goto"; targets: Vec3[]; radiusM: number; then: "stop" | "decide"; why: string }
  /** No move: the episode ends (an unreadable reply, say), with this end. */
  | { kind: "end"; end: "unreadable-reply" | "no-path" };

/** What an agent returns for one decision: the plan and what to log with it. */
export interface AgentTurn {
  plan: Plan | null;
  /** Logged fields of the decision (reply, reading, key, usage, error, goal frame). */
  log?: Partial<Decision>;
  /** A provider error that persisted: the episode stops, status "error". */
  error?: { kind: string; status?: number; message: string };
}

export interface AgentState {
  task: NavTask;
  env: Environment;
  observation: Observation;
  steps: readonly StepRecord[];
  decisions: readonly Decision[];
  /** The observation of every decision so far (model agents keep a history window of them). */
  observations: readonly Observation[];
  signal: AbortSignal;
}

export interface NavAgent {
  /** As given on the command line (recorded in scores.json). */
  readonly name: string;
  /** Whether the agent looks at the views (blind agents run without rendering). */
  readonly needsViews: boolean;
  /** Whether the agent walks to where prior-video frames were taken (task.framePositions). */
  readonly needsFramePositions?: boolean;
  decide(state: AgentState): Promise<AgentTurn>;
}

/**
 * How close the oracle's executor gets to a view point: a FORWARD of s metres along a heading
 * within half a turn (t / 2) of the point's direction brings the robot closer while it is farther
 * than s / (2 cos(t / 2)) (0.1294 m for 0.25 m and 30 degrees), and by a bounded amount once it is
 * 1 mm farther than that, so the walk ends within this radius: 0.1304 m with VCN-Bench's motion.
 */
export function oracleReachM(forwardStepM: number, turnStepDeg: number): number {
  return forwardStepM / (2 * Math.cos((turnStepDeg * Math.PI) / 360)) + 0.001;
}
/** The random walker's STOP probability per step. */
export const RANDOM_STOP_P = 0.02;
/** The executor's radius around a frame's place or a waypoint. */
export const WAYPOINT_RADIUS_M = 0.25;

export const GOAL_FRAME_RULES = ["oracle", "random", "first"] as const;
export type GoalFrameRule = (typeof GOAL_FRAME_RULES)[number];

/** Every goal view point of the episode (a goal without view points: its position on the floor). */
export function goalPoints(task: NavTask): Vec3[] {
  return task.episode.goals.flatMap((g) => (g.view_points.length > 0 ? g.view_points : [g.position]).map((p) => [p[0]!, p.length === 3 ? p[1]! : 0, p[p.length - 1]!] as Vec3));
}

/**
 * The view points whose neighbours two lattice steps away (0.2 m) along both axes are view points
 * too; all of them when none is. View points lie inside the goal's room (App. C.1), but one by a
 * doorway can be closer to the room's edge than the oracle's stopping error (oracleReachM, 0.13
 * m): around an inner one the room extends at least 0.2 m each way along both axes, so in a
 * rectangular room (the generator's) the whole 0.13 m disc is inside. Points match within 0.02
 * m; floor plane (x, z).
 */
export function innerViewPoints(points: readonly Vec3[], stepM = VCN_PARAMS.viewPointStepM): Vec3[] {
  const cell = (v: number) => Math.floor(v / stepM);
  const buckets = new Map<string, Vec3[]>();
  for (const p of points) {
    const key = `${cell(p[0])},${cell(p[2])}`;
    buckets.set(key, [...(buckets.get(key) ?? []), p]);
  }
  const near = (x: number, z: number): boolean => {
    for (let i = cell(x) - 1; i <= cell(x) + 1; i++) {
      for (let j = cell(z) - 1; j <= cell(z) + 1; j++) {
        if ((buckets.get(`${i},${j}`) ?? []).some((q) => Math.hypot(q[0] - x, q[2] - z) <= 0.02)) return true;
      }
    }
    return false;
  };
  const d = 2 * stepM;
  const offsets = [[-d, 0], [0, -d], [0, d], [d, 0]] as const;
  const inner = points.filter((p) => offsets.every(([dx, dz]) => near(p[0] + dx, p[2] + dz)));
  return inner.length > 0 ? inner : [...points];
}

export function oracleAgent(): NavAgent {
  return {
    name: "oracle",
    needsViews: false,
    async decide({ task, env }) {
      const radiusM = oracleReachM(env.info.forward_step_m, env.info.turn_step_deg);
      return { plan: { kind: "goto", targets: innerViewPoints(goalPoints(task)), radiusM, then: "stop", why: "nearest inner goal view point" } };
    },
  };
}

const MOVES: readonly NavAction[] = ["FORWARD", "TURN_LEFT", "TURN_RIGHT"];

/** The random walker's stream for an episode: the same seed and episode, the same walk. */
function episodeRng(seed: number, episodeId: string): Rng {
  return createRng(seedFromString(episodeId, seed));
}

export function randomWalkAgent(seed: number): NavAgent {
  const streams = new Map<string, Rng>();
  return {
    name: seed === 0 ? "random-walk" : `random-walk:${seed}`,
    needsViews: false,
    async decide({ task, decisions }) {
      // A fresh stream at the episode's first decision: a resumed or repeated episode walks the same way.
      if (decisions.length === 0) streams.set(task.id, episodeRng(seed, task.id));
      const rng = streams.get(task.id)!;
      const action: NavAction = rng.next() < RANDOM_STOP_P ? "STOP" : MOVES[rng.int(0, MOVES.length - 1)]!;
      return { plan: { kind: "action", action } };
    },
  };
}

export function forwardOnlyAgent(): NavAgent {
  return {
    name: "forward-only",
    needsViews: false,
    async decide({ observation, steps }) {
      const blocked = steps.length > 0 && observation.collided;
      return { plan: { kind: "action", action: blocked ? "STOP" : "FORWARD" } };
    },
  };
}

/** The frame a rule picks (annotation index), or null when the rule has none to pick. */
export function chooseGoalFrame(task: NavTask, rule: GoalFrameRule, seed: number): number | null {
  const frames = task.framePositions;
  if (!frames || frames.length === 0) return null;
  if (rule === "first") return 0;
  if (rule === "random") return episodeRng(seed, task.id).int(0, frames.length - 1);
  const success = task.successFrames;
  return success.length > 0 ? success[Math.floor((success.length - 1) / 2)]! : null;
}

export function goalThenPlanAgent(rule: GoalFrameRule, seed: number): NavAgent {
  return {
    name: `goal-then-plan:${rule}${rule === "random" && seed !== 0 ? `:${seed}` : ""}`,
    needsViews: false,
    needsFramePositions: true,
    async decide({ task, decisions }) {
      if (decisions.length > 0) return { plan: { kind: "action", action: "STOP" } };
      const frame = chooseGoalFrame(task, rule, seed);
      const place = frame === null ? null : task.framePositions?.[frame] ?? null;
      const log: Partial<Decision> = { goal_frame: frame, goal_correct: frame === null ? null : task.successFrames.includes(frame) };
      if (place === null) return { plan: { kind: "end", end: "no-path" }, log };
      return { plan: { kind: "goto", targets: [place], radiusM: WAYPOINT_RADIUS_M, then: "stop", why: `the place of prior-video frame ${frame}` }, log };
    },
  };
}

export const BUILTIN_AGENTS = ["oracle", "random-walk[:seed]", "forward-only", "goal-then-plan:oracle", "goal-then-plan:random[:seed]", "goal-then-plan:first"];

/** A built-in agent by name, or null when the spec names none (a model spec). */
export function builtinAgent(spec: string): NavAgent | null {
  const [name, arg, extra] = spec.split(":");
  const seedOf = (text: string | undefined): number => {
    if (text === undefined) return 0;
    const seed = Number(text);
    if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`the seed in "${spec}" must be a non-negative whole number`);
    return seed;
  };
  if (name === "oracle" && arg === undefined) return oracleAgent();
  if (name === "forward-only" && arg === undefined) return forwardOnlyAgent();
  if (name === "random-walk" && extra === undefined) return randomWalkAgent(seedOf(arg));
  if (name === "goal-then-plan") {
    if (!(GOAL_FRAME_RULES as readonly string[]).includes(arg ?? "")) throw new UsageError(`goal-then-plan needs a frame rule: ${GOAL_FRAME_RULES.map((r) => `goal-then-plan:${r}`).join(", ")}`);
    return goalThenPlanAgent(arg as GoalFrameRule, seedOf(extra));
  }
  return null;
}
