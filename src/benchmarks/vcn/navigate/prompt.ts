/**
 * The messages of one navigation decision (templates/vcn-navigate.yaml, our own wording): the
 * prior video within the frame budget, the instruction, the four initial views, the latest
 * decisions with the front view each saw, and the four current views (§4.1, Fig. 5) with, by
 * default, what §3.1 gives the agent besides RGB: its position and heading, and depth.
 *
 * Interventions (§6.3, App. D.2), as prompt changes (the goals and scoring stay the episode's):
 *   shuffled-prior  the shown frames in a seeded random order, labelled by shown position
 *                   (the reply's frame is mapped back to the tour frame)
 *   counterfactual  the instruction with its relation swapped (interventions.ts counterfactualOf)
 *   no-prior        no prior video at all
 *   oracle-frame    the prior video plus "the destination is frame k" with that frame again,
 *                   k the middle success frame (the ground-truth target frame)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Message, Part } from "../../../core/types.js";
import { thinEvenly } from "../../../media/frames.js";
import { imagePart } from "../../../media/sniff.js";
import { poseFromStart, VIEW_NAMES, type EnvInfo, type Observation, type ViewName } from "../../../sim/types.js";
import { shuffledOrder } from "../interventions.js";
import { fill, readVcnTemplateFile, type Tour } from "../prompt.js";
import type { NavTask } from "./tasks.js";
import type { Decision } from "./types.js";

export const INTERVENTIONS = ["none", "shuffled-prior", "counterfactual", "no-prior", "oracle-frame"] as const;
export type Intervention = (typeof INTERVENTIONS)[number];
/**
 * What the agent observes at each decision (§3.1: "current RGB and depth observations, and current
 * position and heading"): "rgbd-pose" (the default) adds its pose, as seen from the episode's start,
 * and a depth picture of each current view; "rgb" sends the views alone (RGB-only runs).
 */
export const OBSERVATIONS = ["rgbd-pose", "rgb"] as const;
export type ObservationKind = (typeof OBSERVATIONS)[number];
/** Depth pictures shade 0 m black to this many metres white (media/depth-preview.ts). */
export const DEPTH_PREVIEW_MAX_M = 10;
export const NAV_MODES = ["action", "waypoint"] as const;
export type NavMode = (typeof NAV_MODES)[number];

export interface NavTemplates {
  name: string;
  hash: string;
  max_pixels: number;
  [key: string]: string | number;
}

const TEXT_KEYS = [
  "system", "intro", "intro_shuffled", "thinned", "no_prior", "frame_label", "oracle_frame", "initial_intro", "view_label",
  "history_intro", "history_label", "current_intro", "collided", "pose", "depth_intro", "depth_label", "question_action", "question_waypoint",
] as const;

export const DEFAULT_NAV_TEMPLATE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../templates/vcn-navigate.yaml");

export function loadNavTemplates(file = DEFAULT_NAV_TEMPLATE_FILE): NavTemplates {
  const { data, ...facts } = readVcnTemplateFile(file, TEXT_KEYS);
  return { ...(data as Record<string, string>), ...facts };
}

/** Which prior-video frames a decision shows (annotation indices, in shown order) and how they are labelled. */
export interface PriorPlan {
  /** Annotation indices in shown order. */
  shown: number[];
  labels: "tour-index" | "shown-position";
  total: number;
}

/** The frames of the prior video shown in every decision of an episode (thinned evenly to the budget). */
export function planPrior(task: NavTask, intervention: Intervention, budget: number, seed: number): PriorPlan {
  const all = task.item ? task.item.annotations.map((a) => a.index) : [];
  if (intervention === "no-prior") return { shown: [], labels: "tour-index", total: all.length };
  const kept = thinEvenly(all, budget).kept;
  if (intervention === "shuffled-prior") return { shown: shuffledOrder(task.id, seed, kept), labels: "shown-position", total: all.length };
  return { shown: kept, labels: "tour-index", total: all.length };
}

/** The label a shown frame carries. */
export function priorLabel(plan: PriorPlan, k: number): number {
  return plan.labels === "shown-position" ? k : plan.shown[k]!;
}

/** A reply's frame label -> the annotation index it names (null: not a shown label). */
export function frameOfLabel(plan: PriorPlan, label: number): number | null {
  if (plan.labels === "shown-position") return Number.isInteger(label) && label >= 0 && label < plan.shown.length ? plan.shown[label]! : null;
  return label;
}

/** The oracle frame of the oracle-frame intervention: the middle success frame (null when none). */
export function oracleFrame(task: NavTask): number | null {
  const s = task.successFrames;
  return s.length > 0 ? s[Math.floor((s.length - 1) / 2)]! : null;
}

/** Base64 of each sampled frame, made once: every decision of an episode sends the same prior video. */
const frameBase64 = new WeakMap<object, string>();
function base64Of(frame: { png: Buffer }): string {
  let text = frameBase64.get(frame);
  if (text === undefined) frameBase64.set(frame, (text = frame.png.toString("base64")));
  return text;
}

export interface DecisionInput {
  task: NavTask;
  instruction: string;
  mode: NavMode;
  intervention: Intervention;
  prior: PriorPlan;
  /** The sampled prior video (frames by annotation index); null when none is shown. */
  tour: Tour | null;
  info: EnvInfo;
  initial: Observation;
  current: Observation;
  /** Earlier decisions and the observations they were made on, oldest first, already cut to the window. */
  history: Array<{ decision: Decision; observation: Observation }>;
  /** The current pose, as seen from the start, is stated (§3.1); default false (RGB only). */
  pose?: boolean;
  /** Depth pictures of the current views (depthPreviewPng), shown after them when given. */
  depth?: ReadonlyMap<ViewName, Buffer>;
}

/** The pose fields of the template: metres forward/left of the start, degrees turned left (2 and 0 decimals). */
export function poseFields(initial: Observation, current: Observation): { forward: string; left: string; turn: string } {
  const p = poseFromStart(initial.pose, current.pose);
  const fixed = (v: number, digits: number) => (Math.abs(v) < 0.5 * 10 ** -digits ? 0 : v).toFixed(digits);
  return { forward: fixed(p.forwardM, 2), left: fixed(p.leftM, 2), turn: fixed((p.turn * 180) / Math.PI, 0) };
}

function depthParts(depth: ReadonlyMap<ViewName, Buffer>, templates: NavTemplates, where: string): Part[] {
  const parts: Part[] = [{ type: "text", text: fill(String(templates["depth_intro"]), { depth_max: DEPTH_PREVIEW_MAX_M }) }];
  for (const name of VIEW_NAMES) {
    const png = depth.get(name);
    if (!png) throw new Error(`the depth of the ${name} view is missing`);
    parts.push({ type: "text", text: fill(String(templates["depth_label"]), { direction: name[0]!.toUpperCase() + name.slice(1) }) });
    parts.push(imagePart(png, `${where}#${name}-depth`));
  }
  return parts;
}

function viewParts(observation: Observation, templates: NavTemplates, where: string): Part[] {
  const parts: Part[] = [];
  for (const name of VIEW_NAMES) {
    const view = observation.views.find((v) => v.name === name);
    if (!view) throw new Error(`the observation after ${observation.step} actions has no ${name} view`);
    parts.push({ type: "text", text: fill(String(templates["view_label"]), { direction: name[0]!.toUpperCase() + name.slice(1) }) });
    parts.push(imagePart(view.data, `${where}#${name}`));
  }
  return parts;
}

/** What a past decision did, in words for the history. */
export function decisionWords(decision: Decision): string {
  if (decision.kind === "action" && decision.action) return decision.action;
  if (decision.kind === "goto" && decision.goto) return `walk to a chosen point${decision.goto.then === "stop" ? " and stop" : ""}`;
  return "nothing";
}

export function buildDecisionMessages(input: DecisionInput, templates: NavTemplates): Message[] {
  const { prior, tour, task } = input;
  const t = (key: string, fields: Record<string, string | number> = {}) => fill(String(templates[key]), fields);
  const labels = prior.shown.map((_, k) => priorLabel(prior, k));
  const fields = {
    shown: prior.shown.length,
    total: prior.total,
    first: labels.length > 0 ? Math.min(...labels) : 0,
    last: labels.length > 0 ? Math.max(...labels) : 0,
    instruction: input.instruction,
    step: input.current.step,
    max_actions: input.info.max_actions,
    width: input.info.camera.width,
    height: input.info.camera.height,
  };
  const content: Part[] = [];
  const frameImage = (k: number): Part => {
    const frame = tour!.frames[k];
    if (!frame) throw new Error(`the prior video of ${task.id} has no frame ${k}`);
    return { type: "image", mediaType: "image/png", base64: base64Of(frame), source: `${task.item!.tour.display}#${frame.index}`, kind: "frame" };
  };
  if (prior.shown.length === 0 || tour === null) {
    content.push({ type: "text", text: t("no_prior") });
  } else {
    const intro = t(prior.labels === "shown-position" ? "intro_shuffled" : "intro", fields);
    const thinned = prior.shown.length < prior.total && prior.labels === "tour-index" ? `\n${t("thinned", fields)}` : "";
    content.push({ type: "text", text: intro + thinned });
    prior.shown.forEach((index, k) => {
      content.push({ type: "text", text: t("frame_label", { label: labels[k]! }) });
      content.push(frameImage(index));
    });
    const goal = input.intervention === "oracle-frame" ? oracleFrame(task) : null;
    if (goal !== null) {
      content.push({ type: "text", text: t("oracle_frame", { goal_frame: goal }) });
      content.push(frameImage(goal));
    }
  }
  content.push({ type: "text", text: t("initial_intro") });
  content.push(...viewParts(input.initial, templates, `${task.id}/start`));
  if (input.history.length > 0) {
    content.push({ type: "text", text: t("history_intro", { n: input.history.length }) });
    for (const { decision, observation } of input.history) {
      content.push({ type: "text", text: t("history_label", { step: decision.at_step, action: decisionWords(decision) }) });
      const front = observation.views.find((v) => v.name === "front");
      if (front) content.push(imagePart(front.data, `${task.id}/step-${observation.step}#front`));
    }
  }
  content.push({ type: "text", text: t("current_intro", fields) + (input.current.collided ? `\n${t("collided")}` : "") });
  content.push(...viewParts(input.current, templates, `${task.id}/step-${input.current.step}`));
  if (input.depth) content.push(...depthParts(input.depth, templates, `${task.id}/step-${input.current.step}`));
  if (input.pose) content.push({ type: "text", text: t("pose", poseFields(input.initial, input.current)) });
  content.push({ type: "text", text: t(input.mode === "action" ? "question_action" : "question_waypoint", fields) });
  return [
    { role: "system", content: [{ type: "text", text: String(templates["system"]).trim() }] },
    { role: "user", content },
  ];
}
