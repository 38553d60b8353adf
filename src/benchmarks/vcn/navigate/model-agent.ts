/**
 * A model as a navigation agent: at every decision the prompt (prompt.ts) goes through the
 * response store (core/run.ts askModel), the reply is read (reply.ts) into the goal frame and a
 * move. A move that cannot be read ends the episode as "unreadable-reply" (a navigation failure,
 * scored); a provider error that persists after retries ends it as an error (not scored).
 */
import { askModel } from "../../../core/run.js";
import type { GenerationSettings, Model } from "../../../core/types.js";
import type { ImageBudgets } from "../../../models/shape.js";
import type { ReplyStore } from "../../../store/store.js";
import type { Tour } from "../prompt.js";
import type { VcnItem } from "../types.js";
import { WAYPOINT_RADIUS_M, type AgentState, type AgentTurn, type NavAgent, type Plan } from "./agents.js";
import { depthPreviewPng } from "../../../media/depth-preview.js";
import type { Observation, ViewName } from "../../../sim/types.js";
import { buildDecisionMessages, DEPTH_PREVIEW_MAX_M, frameOfLabel, planPrior, type Intervention, type NavMode, type NavTemplates, type ObservationKind, type PriorPlan } from "./prompt.js";
import { readNavReply } from "./reply.js";
import type { Decision, ReplyReading } from "./types.js";
import { waypointOf } from "./waypoint.js";

export interface ModelAgentOptions {
  model: Model;
  settings: GenerationSettings;
  store?: ReplyStore;
  retryErrors: boolean;
  imageBudget?: ImageBudgets;
  mode: NavMode;
  intervention: Intervention;
  /** What the prompt shows of each observation besides the views (prompt.ts OBSERVATIONS). */
  observation: ObservationKind;
  /** Earlier decisions shown with their front view (DualVLN's 8 history frames, §4). */
  historyWindow: number;
  /** Most prior-video frames per prompt (MV-DualVLN: 50, §4.1). */
  priorFrames: number;
  seed: number;
  templates: NavTemplates;
  sampleTour: (item: VcnItem) => Promise<Tour>;
  /** Reply text kept in the log, characters (the store keeps the whole reply). */
  logReplyChars?: number;
}

const LOG_REPLY_CHARS = 4000;

/** Depth pictures of an observation's views; throws when the environment gave no depth. */
async function depthPictures(observation: Observation): Promise<Map<ViewName, Buffer>> {
  const out = new Map<ViewName, Buffer>();
  for (const view of observation.views) {
    if (!view.depthPng) throw new Error(`the ${view.name} view after ${observation.step} actions has no depth (the environment renders none)`);
    out.set(view.name, await depthPreviewPng(view.depthPng, DEPTH_PREVIEW_MAX_M));
  }
  return out;
}

/** The move a reading asks for (no I/O except the depth lookup of a pixel). */
async function planOf(reading: Extract<ReplyReading, { ok: true }>, state: AgentState, mode: NavMode, goalFrame: number | null): Promise<Plan | string> {
  if (mode === "action") return reading.action ? { kind: "action", action: reading.action } : "the reply names no action";
  if (reading.view && reading.pixel) {
    const point = await waypointOf(state.observation, state.env.info, reading.view, reading.pixel);
    if (typeof point === "string") return point;
    return { kind: "goto", targets: [point], radiusM: WAYPOINT_RADIUS_M, then: reading.stop ? "stop" : "decide", why: `pixel (${reading.pixel.join(", ")}) of the ${reading.view} view` };
  }
  if (reading.stop) return { kind: "action", action: "STOP" };
  if (goalFrame !== null) {
    const place = state.task.framePositions?.[goalFrame] ?? null;
    if (place === null) return `the place of frame ${goalFrame} is not known (the set has no tour poses)`;
    return { kind: "goto", targets: [place], radiusM: WAYPOINT_RADIUS_M, then: "decide", why: `the place of prior-video frame ${goalFrame}` };
  }
  return "the reply names no pixel, frame or stop";
}

export function modelAgent(o: ModelAgentOptions): NavAgent {
  const priors = new Map<string, PriorPlan>();
  return {
    name: o.model.spec,
    needsViews: true,
    async decide(state: AgentState): Promise<AgentTurn> {
      const { task } = state;
      if (state.decisions.length === 0) priors.set(task.id, planPrior(task, o.intervention, o.priorFrames, o.seed));
      const prior = priors.get(task.id)!;
      const tour = prior.shown.length > 0 && task.item ? await o.sampleTour(task.item) : null;
      const first = Math.max(0, state.decisions.length - o.historyWindow);
      const history = state.decisions.slice(first).map((decision, k) => ({ decision, observation: state.observations[first + k]! }));
      const full = o.observation === "rgbd-pose";
      const messages = buildDecisionMessages(
        {
          task, instruction: task.instruction, mode: o.mode, intervention: o.intervention, prior, tour, info: state.env.info,
          initial: state.observations[0]!, current: state.observation, history,
          ...(full ? { pose: true, depth: await depthPictures(state.observation) } : {}),
        },
        o.templates,
      );
      const asked = await askModel(o.model, o.settings, messages, `${task.id}#${state.decisions.length}`, {
        ...(o.store ? { store: o.store } : {}),
        retryErrors: o.retryErrors,
        signal: state.signal,
        ...(o.imageBudget ? { imageBudget: o.imageBudget } : {}),
      });
      if (asked.kind === "aborted" || asked.kind === "not-sent") throw state.signal.reason ?? new Error("aborted");
      if (asked.kind === "unfit") return { plan: null, error: { kind: asked.error.kind, message: asked.error.message } };
      const { response } = asked;
      const log: Partial<Decision> = { request_key: asked.key, cached: asked.cached, latency_ms: response.latencyMs };
      if (response.usage) log.usage = { ...(response.usage.inputTokens !== undefined ? { input_tokens: response.usage.inputTokens } : {}), ...(response.usage.outputTokens !== undefined ? { output_tokens: response.usage.outputTokens } : {}) };
      if (response.outcome === "error") {
        const error = response.error ?? { kind: "other" as const, message: "the provider returned an error" };
        return { plan: null, log, error: { kind: error.kind, ...(error.status !== undefined ? { status: error.status } : {}), message: error.message } };
      }
      log.reply = response.text.length > (o.logReplyChars ?? LOG_REPLY_CHARS) ? response.text.slice(0, o.logReplyChars ?? LOG_REPLY_CHARS) : response.text;
      const reading = readNavReply(response.text, o.mode);
      log.reading = reading;
      if (!reading.ok) return { plan: null, log };
      const goalFrame = reading.frame === null ? null : frameOfLabel(prior, reading.frame);
      log.goal_frame = goalFrame;
      log.goal_correct = goalFrame === null || !task.item ? null : task.successFrames.includes(goalFrame);
      const plan = await planOf(reading, state, o.mode, goalFrame);
      if (typeof plan === "string") {
        log.reading = { ok: false, reason: plan };
        return { plan: null, log };
      }
      return { plan, log };
    },
  };
}
