/**
 * One navigation episode, closed loop: reset the environment, then ask the agent for a decision,
 * carry it out (one action, or the executor's actions to a point), and again, until the episode
 * ends: STOP, the action limit (§3.1: 1,000 actions), an unreadable reply (the released code ends
 * the episode there too), no path to an executor target, or a provider error (status "error":
 * the episode is not scored and a later run asks again).
 *
 * Deterministic: the same environment, agent and stored replies give the same trajectory, which
 * is how a killed run resumes (model replies come back from the response store).
 */
import type { Environment, EpisodeEnd, NavAction, Observation, StepResult } from "../../../sim/types.js";
import { executorAction, executorBudget } from "./executor.js";
import { goalPoints, type AgentTurn, type NavAgent, type Plan } from "./agents.js";
import type { NavTask } from "./tasks.js";
import type { Decision, EpisodeRecord, StepRecord } from "./types.js";

export interface EpisodeOptions {
  /**
   * Render after every action (--save-views). Otherwise only what the agent looks at is rendered:
   * the start and each decision point of an agent that needs views (env.observe), so an executor
   * walking to a waypoint renders nothing on the way.
   */
  renderAlways?: boolean;
  /** Called with each rendered observation (t = actions taken); returns the saved file's run-relative path. */
  saveViews?: (task: NavTask, t: number, observation: Observation) => Promise<string | undefined>;
  intervention: string;
  signal: AbortSignal;
}

/** Decisions in a row that move nothing before the episode ends as "stalled" (a waypoint where the robot already is, again and again). */
export const STALL_DECISIONS = 3;

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
const degrees = (radians: number) => Math.round(((radians * 180) / Math.PI) * 1e4) / 1e4;

type Outcome = { end: EpisodeRecord["end"]; status: EpisodeRecord["status"] } | null;

class EpisodeLog {
  readonly steps: StepRecord[] = [];
  readonly decisions: Decision[] = [];
  readonly observations: Observation[] = [];

  constructor(
    private readonly task: NavTask,
    private readonly options: EpisodeOptions,
  ) {}

  async step(env: Environment, action: NavAction, decision: number, render: boolean): Promise<StepResult> {
    const result = await env.step(action, { render });
    const o = result.observation;
    const record: StepRecord = { t: o.step, action, position: o.pose.position, heading_deg: degrees(o.pose.heading), collided: o.collided, decision };
    const views = render && this.options.saveViews ? await this.options.saveViews(this.task, o.step, o) : undefined;
    if (views) record.views = views;
    this.steps.push(record);
    return result;
  }
}

function envEnd(result: StepResult): Outcome {
  return result.done ? { end: result.end as EpisodeEnd, status: "done" } : null;
}

export async function runEpisode(task: NavTask, env: Environment, agent: NavAgent, options: EpisodeOptions): Promise<EpisodeRecord> {
  const started = performance.now();
  const render = options.renderAlways === true;
  const log = new EpisodeLog(task, options);
  let observation = await env.reset(task.env, { render: render || agent.needsViews });
  const goals = goalPoints(task);
  const shortest = await env.shortestPath(observation.pose.position, goals);
  const startViews = observation.views.length > 0 && options.saveViews ? await options.saveViews(task, 0, observation) : undefined;
  let outcome: Outcome = null;
  let idle = 0;
  while (outcome === null) {
    if (idle >= STALL_DECISIONS) {
      outcome = { end: "stalled", status: "done" };
      break;
    }
    if (options.signal.aborted) throw options.signal.reason ?? new Error("aborted");
    if (agent.needsViews && observation.views.length === 0) {
      // A decision point after unrendered steps: the views of where the robot now is.
      observation = await env.observe({ render: true });
      const last = log.steps[log.steps.length - 1];
      if (last && options.saveViews) {
        const file = await options.saveViews(task, observation.step, observation);
        if (file) last.views = file;
      }
    }
    log.observations.push(observation);
    const turn: AgentTurn = await agent.decide({ task, env, observation, steps: log.steps, decisions: log.decisions, observations: log.observations, signal: options.signal });
    const index = log.decisions.length;
    const decision: Decision = { index, at_step: observation.step, kind: "none", ...turn.log };
    log.decisions.push(decision);
    if (turn.error) {
      decision.error = turn.error;
      outcome = { end: "error", status: "error" };
      break;
    }
    const plan: Plan | null = turn.plan;
    if (plan === null || plan.kind === "end") {
      outcome = { end: plan?.end ?? "unreadable-reply", status: "done" };
      break;
    }
    if (plan.kind === "action") {
      decision.kind = "action";
      decision.action = plan.action;
      const result = await log.step(env, plan.action, index, render);
      observation = result.observation;
      outcome = envEnd(result);
      idle = 0;
      continue;
    }
    decision.kind = "goto";
    decision.goto = { targets: plan.targets, radius_m: plan.radiusM, then: plan.then, why: plan.why };
    const before = log.steps.length;
    const driven = await drive(env, log, plan, index, render, observation, options.signal);
    observation = driven.observation;
    outcome = driven.outcome;
    idle = log.steps.length === before ? idle + 1 : 0;
  }
  const final = log.steps.length > 0 ? log.steps[log.steps.length - 1]!.position : observation.pose.position;
  const remaining = outcome.status === "done" ? await env.shortestPath(final, goals) : null;
  return {
    episode_id: task.id,
    scene_id: task.env.scene_id,
    task_type: task.taskType,
    agent: agent.name,
    intervention: options.intervention,
    status: outcome.status,
    end: outcome.end,
    start: { position: task.env.start_position, heading_deg: degrees(log.observations[0]!.pose.heading), ...(startViews ? { views: startViews } : {}) },
    steps: log.steps,
    decisions: log.decisions,
    instruction: task.instruction,
    prior: task.prior,
    shortest_path_m: shortest ? round4(shortest.distance) : null,
    final_distance_m: remaining ? round4(remaining.distance) : null,
    wall_ms: Math.round(performance.now() - started),
  };
}

/**
 * The executor: actions towards the plan's targets until within its radius, re-planning before
 * each; then STOP (then: "stop") or back to the agent. It gives up on a point after its action
 * budget or when every heading is blocked where it stands (then: "stop" still stops there).
 */
async function drive(env: Environment, log: EpisodeLog, plan: Extract<Plan, { kind: "goto" }>, decision: number, render: boolean, start: Observation, signal: AbortSignal): Promise<{ observation: Observation; outcome: Outcome }> {
  let observation = start;
  const first = await env.shortestPath(observation.pose.position, plan.targets);
  if (first === null) return { observation, outcome: { end: "no-path", status: "done" } };
  const budget = executorBudget(first.distance, env.info.forward_step_m, env.info.turn_step_deg);
  // Headings whose FORWARD was blocked without moving, at the current position.
  let blocked: number[] = [];
  for (let used = 0; used < budget; used++) {
    if (signal.aborted) throw signal.reason ?? new Error("aborted");
    const path = used === 0 ? first : await env.shortestPath(observation.pose.position, plan.targets);
    if (path === null) return { observation, outcome: { end: "no-path", status: "done" } };
    const action = executorAction(observation.pose, path, plan.radiusM, env.info.turn_step_deg, blocked);
    if (action === "arrived" || action === null) break;
    const before = observation.pose;
    const result = await log.step(env, action, decision, render);
    observation = result.observation;
    if (result.done) return { observation, outcome: envEnd(result) };
    const moved = Math.hypot(observation.pose.position[0] - before.position[0], observation.pose.position[2] - before.position[2]) > 1e-6;
    if (moved) blocked = [];
    else if (action === "FORWARD") blocked.push(before.heading);
  }
  if (plan.then === "decide") return { observation, outcome: null };
  const stopped = await log.step(env, "STOP", decision, render);
  return { observation: stopped.observation, outcome: envEnd(stopped) };
}
