/**
 * Prompts for EgoTL-Bench from templates/egotl.yaml (our wording; the paper's Table 5 inputs and
 * output contracts). The user message is: an intro line, then per sampled frame a label
 * ("Frame 12:", with the timestamp when known; a span's frames counted and timed from its first
 * frame, as the clip's own) and the frame as an image part, then the current
 * view when the item has one, then the task's question. Frames come from sampleFrames with the
 * item's spec; when the model's image limit (setup.maxImages) is lower, they are thinned evenly
 * (thinEvenly; the current view always stays). The frame numbers, timestamps and the thinning
 * note are recorded in the prompt info (so in every ItemResult) and the labels put them into the
 * request bytes.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { messagesMentionJson, type BuiltPrompt } from "../../core/benchmark.js";
import { UsageError } from "../../core/problems.js";
import { readTemplateFile } from "../../core/results.js";
import type { Message, Part } from "../../core/types.js";
import { roundMicro } from "../../media/ffmpeg.js";
import { MediaError, sampleFrames, thinEvenly, type SampledFrame } from "../../media/frames.js";
import { samplerSpan, type EgoTLItem } from "./load.js";
import { EGOTL_TASKS, LETTERS, type EgoTLTask } from "./schema.js";

/**
 * Tasks whose reply is a JSON object: planning only ({"scores": {...}, "best": ...}, Table 5 / H.2);
 * the other five answer with an option text, a letter, a phrase or a number, so they go out as plain text.
 */
export const JSON_OBJECT_TASKS: ReadonlySet<EgoTLTask> = new Set<EgoTLTask>(["planning"]);

export const TEMPLATE_KEYS = ["system", "memory_intro", "clip_intro", "frame_label", "frame_label_time", "current_frame_intro", ...EGOTL_TASKS] as const;
type TemplateKey = (typeof TEMPLATE_KEYS)[number];

export type EgoTLTemplates = Record<TemplateKey, string> & { name: string; hash: string };

export const DEFAULT_TEMPLATE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../templates/egotl.yaml");

export function loadTemplates(file = DEFAULT_TEMPLATE_FILE): EgoTLTemplates {
  const { data, hash } = readTemplateFile(file);
  const missing = TEMPLATE_KEYS.filter((k) => typeof data[k] !== "string");
  if (missing.length > 0) throw new UsageError(`template file ${file} lacks: ${missing.join(", ")}`);
  return { ...(data as Record<TemplateKey, string>), name: String(data["name"] ?? path.basename(file)), hash };
}

/** Replace {placeholders} of the template only (values are not scanned again). */
export function fill(template: string, fields: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => fields[key] ?? whole).trim();
}

/** Options as shown: lettered for planning and action recognition, a plain list for the option-text tasks. */
export function formatOptions(task: EgoTLTask, options: readonly string[]): string {
  if (task === "scene_action" || task === "next_action") return options.map((o) => `- ${o}`).join("\n");
  return options.map((o, i) => `${LETTERS[i]}. ${o.replace(/\n/g, "\n   ")}`).join("\n");
}

export function questionText(item: EgoTLItem, templates: EgoTLTemplates): string {
  return fill(templates[item.task], {
    abstract_task: item.abstractTask ?? "",
    chain_of_thought: item.chainOfThought ?? "",
    options: item.options ? formatOptions(item.task, item.options) : "",
  });
}

/** Seconds as shown in a frame label: up to 3 decimals, no trailing zeros. */
export function formatSeconds(t: number): string {
  return String(Number(t.toFixed(3)));
}

export interface PromptMediaOptions {
  maxImages?: number;
  maxPixels?: number;
  cacheDir?: string;
}

/** Clip frames and the current view are both video frames (kind "frame": the frame image budget applies). */
const imagePart = (frame: SampledFrame, source: string): Part => ({ type: "image", mediaType: "image/png", base64: frame.png.toString("base64"), source, kind: "frame" });

/** The messages and prompt info for one item, or an error the run records (a media problem). */
export async function buildPrompt(item: EgoTLItem, templates: EgoTLTemplates, options: PromptMediaOptions = {}): Promise<BuiltPrompt> {
  const sampling = { ...(options.maxPixels ? { maxPixels: options.maxPixels } : {}), ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}) };
  const info: Record<string, unknown> = { task: item.task };
  if (item.rotation) info["rotation"] = item.rotation.k;
  const content: Part[] = [];
  try {
    let current: SampledFrame | null = null;
    if (item.currentFrame) {
      current = (await sampleFrames({ frames: [item.currentFrame.path] }, { mode: "all" }, sampling)).frames[0]!;
      info["current_frame"] = item.currentFrame.display;
    }
    if (item.media) {
      const budget = options.maxImages === undefined ? Infinity : options.maxImages - (current ? 1 : 0);
      if (budget < 1) return { error: `an image limit of ${options.maxImages} leaves no room for the video frames next to the current view` };
      const { frames, provenance } = await sampleFrames(item.media.source, item.media.spec, { ...sampling, ...(item.media.fps ? { sourceFps: item.media.fps } : {}), ...samplerSpan(item.media.span) });
      const thinned = Number.isFinite(budget) ? thinEvenly(frames, budget) : { kept: frames, note: null };
      const kept = thinned.kept;
      info["frames"] = {
        source: item.media.display,
        sha256: provenance.sha256,
        spec: provenance.spec,
        ...(provenance.span ? { span: provenance.span } : {}),
        ...(item.media.overridden ? { spec_from: "command line (--frames / --fps)" } : {}),
        total_frames: provenance.totalFrames,
        fps: provenance.fps,
        sampled: frames.length,
        indices: kept.map((f) => f.index),
        timestamps: kept.map((f) => f.timestamp),
        ...(provenance.span ? { labels: "counted and timed from the span's first frame" } : {}),
        thinning: thinned.note,
        resized_to: provenance.resizedTo,
      };
      const intro = item.task === "planning" ? templates.memory_intro : templates.clip_intro;
      content.push({ type: "text", text: fill(intro, { count: String(kept.length) }) });
      // A span is shown as the clip it stands for: frames numbered and timed from its start, as in
      // a clip file (media forms spans and clips give the same request; an episode's absolute time
      // would tell how far into the plan the clip lies).
      const firstIndex = provenance.span?.[0] ?? 0;
      const startTime = provenance.span ? provenance.spanStart ?? null : 0;
      for (const frame of kept) {
        const index = String(frame.index - firstIndex);
        const time = frame.timestamp === null || startTime === null ? null : roundMicro(frame.timestamp - startTime);
        const label = time === null ? fill(templates.frame_label, { index }) : fill(templates.frame_label_time, { index, time: formatSeconds(time) });
        content.push({ type: "text", text: label }, imagePart(frame, `${item.media.display}#${frame.index}`));
      }
    }
    if (current && item.currentFrame) {
      content.push({ type: "text", text: fill(templates.current_frame_intro, {}) }, imagePart(current, item.currentFrame.display));
    }
  } catch (error) {
    if (error instanceof MediaError || error instanceof RangeError) return { error: `media: ${error.message}` };
    throw error;
  }
  content.push({ type: "text", text: questionText(item, templates) });
  const messages: Message[] = [
    { role: "system", content: [{ type: "text", text: templates.system.trim() }] },
    { role: "user", content },
  ];
  return { messages, info, json: JSON_OBJECT_TASKS.has(item.task) && messagesMentionJson(messages) };
}
