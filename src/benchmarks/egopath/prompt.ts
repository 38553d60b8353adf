import { readImageFile } from "../../core/file-read.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../core/problems.js";
import { readTemplateFile } from "../../core/results.js";
import type { Message, Part } from "../../core/types.js";
import { createRng, seedFromString } from "../../stats/rng.js";
import type { TaskCode } from "./tasks.js";
import type { EgoPathItem } from "./types.js";
import { imagePart } from "../../media/sniff.js";

/**
 * The output instruction the official inference runner appends to every user prompt
 * (EgoPathBench `scripts/run_benchmark_next.py`, build_user_content, object output mode).
 */
export const OFFICIAL_OUTPUT_INSTRUCTION = 'Return only a JSON object of the form {"display_ids":[...]} with no extra text.';

export type PromptSource = "release" | "templates";
export type PromptControl = "none" | "text-only" | "mismatched-overlay";
export const PROMPT_SOURCES: PromptSource[] = ["release", "templates"];
export const PROMPT_CONTROLS: PromptControl[] = ["none", "text-only", "mismatched-overlay"];

export interface PromptTemplates {
  name: string;
  system: string;
  tasks: Record<TaskCode, string>;
  /** sha256 of the template file, recorded with the run. */
  hash: string;
}

export const DEFAULT_TEMPLATE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../templates/egopath.yaml");

export function loadTemplates(file = DEFAULT_TEMPLATE_FILE): PromptTemplates {
  const { data: raw, hash } = readTemplateFile(file);
  const data = raw as Partial<PromptTemplates>;
  const tasks = data?.tasks as Record<string, unknown> | undefined;
  const missing = ["a1", "b1", "a2", "b2", "c"].filter((t) => typeof tasks?.[t] !== "string");
  if (typeof data?.system !== "string" || missing.length > 0) {
    throw new UsageError(`template file ${file} needs a string "system" and tasks.${missing.join("/") || "*"} entries`);
  }
  return {
    name: String(data.name ?? path.basename(file)),
    system: data.system,
    tasks: tasks as Record<TaskCode, string>,
    hash,
  };
}

/** Ground-truth fields that may hold a c question's request, in order of preference. */
export const INTENT_FIELDS = ["intent_text", "generated_question", "intent", "instruction", "intent_instruction", "goal_text"] as const;

/** Values the templates can use, taken from the release row. */
export function templateFields(item: EgoPathItem): Record<string, string> {
  const gt = item.groundTruth;
  const ids = item.kind === "set" ? item.candidates : item.displayed;
  // A generated set names the target by the phrase that singles it out ("leftmost chair");
  // otherwise colour and category.
  const phrase = typeof gt["target_phrase"] === "string" && gt["target_phrase"].length > 0 ? gt["target_phrase"] : undefined;
  const target = phrase ?? [gt["target_color_name"], gt["target_category"] ?? gt["canonical_category"]]
    .filter((v) => typeof v === "string" && v.length > 0)
    .join(" ");
  // `generated_question` is the release's field for the person's request (build_vqa_questions_next.py).
  const intentKey = INTENT_FIELDS.find((k) => typeof gt[k] === "string");
  const diameter = gt["robot_diameter_m"];
  return {
    candidate_ids: ids.map(String).join(", "),
    start_id: item.kind === "route" ? String(item.startId) : "",
    target: target || "target object",
    intent: intentKey ? String(gt[intentKey]) : "",
    robot_diameter_m: typeof diameter === "number" && diameter > 0 ? String(diameter) : "0.6",
  };
}

export function fillTemplate(template: string, fields: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => fields[key] ?? whole);
}

export interface PromptPlan {
  source: PromptSource;
  control: PromptControl;
  templates?: PromptTemplates;
  /** For mismatched-overlay: item id -> the image path shown instead. */
  imageSwap?: Map<string, string>;
}

/** The text parts of the prompt for one item: [system, user]. */
export function promptTexts(item: EgoPathItem, plan: PromptPlan): { system: string; user: string } {
  if (plan.source === "templates") {
    const t = plan.templates!;
    const fields = templateFields(item);
    return { system: fillTemplate(t.system, fields).trim(), user: fillTemplate(t.tasks[item.task], fields).trim() };
  }
  return { system: item.systemPrompt, user: `${item.userPrompt}\n${OFFICIAL_OUTPUT_INSTRUCTION}` };
}

/** The image an item is shown with under the plan (undefined for text-only). */
export function promptImage(item: EgoPathItem, plan: PromptPlan): string | undefined {
  if (plan.control === "text-only") return undefined;
  if (plan.control === "mismatched-overlay") return plan.imageSwap?.get(item.id);
  return item.imagePath;
}

/** Chat messages: system text, then the image followed by the user text (the runner's order). */
export function buildMessages(item: EgoPathItem, plan: PromptPlan, readImage: (file: string) => Buffer = readImageFile): Message[] {
  const { system, user } = promptTexts(item, plan);
  const content: Part[] = [];
  const image = promptImage(item, plan);
  if (image) content.push(imagePart(readImage(image), image));
  content.push({ type: "text", text: user });
  const messages: Message[] = [];
  if (system) messages.push({ role: "system", content: [{ type: "text", text: system }] });
  messages.push({ role: "user", content });
  return messages;
}

function candidateCount(item: EgoPathItem): number {
  return item.kind === "set" ? item.candidates.length : item.displayed.length;
}

/**
 * Table S5's mismatched-overlay control: each question is shown another question's image with the
 * same number of candidates (same task first, then any task), from another view, chosen with a
 * seeded draw. Items with no such partner are listed in `unpaired`.
 */
export function planImageSwap(items: EgoPathItem[], seed: number): { swap: Map<string, string>; unpaired: string[] } {
  const swap = new Map<string, string>();
  const unpaired: string[] = [];
  for (const item of items) {
    const view = `${item.sceneId}/${item.viewId}`;
    const eligible = (other: EgoPathItem) => candidateCount(other) === candidateCount(item) && `${other.sceneId}/${other.viewId}` !== view && other.imagePath !== item.imagePath;
    const sameTask = items.filter((o) => o.task === item.task && eligible(o));
    const pool = sameTask.length > 0 ? sameTask : items.filter(eligible);
    if (pool.length === 0) {
      unpaired.push(item.id);
      continue;
    }
    const rng = createRng(seedFromString(item.id, seed));
    swap.set(item.id, pool[rng.below(pool.length)]!.imagePath);
  }
  return { swap, unpaired };
}
