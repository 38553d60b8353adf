/**
 * Goal-identification prompts (templates/vcn.yaml, our own wording): the tour frames, each
 * labelled, the four initial views, and the instruction; the reply names one frame.
 *
 * Which frames are shown (planShown, pure):
 * - all tour frames, in tour order, labelled with their tour index;
 * - with a provider image limit (setup.maxImages), the tour is thinned evenly (media/frames.ts
 *   thinEvenly) to maxImages - 4 frames (the four views count too); the frames keep their tour
 *   index labels, and the prompt and its info say how many were dropped;
 * - shuffled-frames: the shown frames in a seeded random order, labelled 0..K-1 in that order.
 * The info records the variant, the label kind, the tour indices in shown order, the tour length,
 * the number dropped, and the video frame numbers of the shown frames.
 */
import { readImageFile } from "../../core/file-read.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../core/problems.js";
import { readTemplateFile } from "../../core/results.js";
import type { Message, Part } from "../../core/types.js";
import { sampleFrames, thinEvenly, type FrameProvenance, type SampledFrame } from "../../media/frames.js";
import { shuffledOrder } from "./interventions.js";
import type { ShownFrames, VcnItem } from "./types.js";
import { imagePart } from "../../media/sniff.js";

export const VARIANTS = ["plain", "shuffled-frames", "counterfactual"] as const;
export type Variant = (typeof VARIANTS)[number];

/** Images besides the tour frames in every request: the four initial views. */
export const VIEW_IMAGES = 4;

export interface VcnTemplates {
  name: string;
  hash: string;
  max_pixels: number;
  system: string;
  intro: string;
  intro_shuffled: string;
  thinned: string;
  thinned_shuffled: string;
  frame_label: string;
  views_intro: string;
  view_label: string;
  question: string;
}

export const DEFAULT_TEMPLATE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../templates/vcn.yaml");

const TEXT_KEYS = ["system", "intro", "intro_shuffled", "thinned", "thinned_shuffled", "frame_label", "views_intro", "view_label", "question"] as const;

/**
 * A VCN template file with every text key given (goal identification's and navigation's): its
 * fields, the frame pixel budget `max_pixels` (default 384 x 384), its name and hash.
 */
export function readVcnTemplateFile(file: string, keys: readonly string[]): { data: Record<string, unknown>; max_pixels: number; name: string; hash: string } {
  const { data, hash } = readTemplateFile(file);
  const missing = keys.filter((k) => typeof data[k] !== "string");
  if (missing.length > 0) throw new UsageError(`template file ${file} lacks: ${missing.join(", ")}`);
  const maxPixels = data["max_pixels"] === undefined ? 147456 : Number(data["max_pixels"]);
  if (!Number.isFinite(maxPixels) || maxPixels < 1) throw new UsageError(`template file ${file}: max_pixels must be a positive number`);
  return { data, max_pixels: maxPixels, name: String(data["name"] ?? path.basename(file)), hash };
}

export function loadTemplates(file = DEFAULT_TEMPLATE_FILE): VcnTemplates {
  const { data, ...facts } = readVcnTemplateFile(file, TEXT_KEYS);
  return { ...(data as unknown as VcnTemplates), ...facts };
}

export function fill(template: string, fields: Record<string, string | number>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => (fields[key] !== undefined ? String(fields[key]) : whole)).trim();
}

/** Which tour frames a prompt shows, in which order, with which labels (no I/O). */
export function planShown(item: Pick<VcnItem, "id" | "annotations">, variant: string, seed: number, maxImages?: number): ShownFrames {
  const tour = item.annotations.map((a) => a.index);
  let shown = tour;
  let note: string | null = null;
  if (maxImages !== undefined) {
    const budget = maxImages - VIEW_IMAGES;
    if (budget < 1) throw new UsageError(`max images ${maxImages} leaves no room for tour frames next to the ${VIEW_IMAGES} initial views`);
    const thinned = thinEvenly(tour, budget);
    shown = thinned.kept;
    note = thinned.note;
  }
  const shuffled = variant === "shuffled-frames";
  return {
    variant,
    labels: shuffled ? "shown-position" : "tour-index",
    shown: shuffled ? shuffledOrder(item.id, seed, shown) : shown.slice(),
    tour_frames: tour.length,
    dropped: tour.length - shown.length,
    note,
  };
}

/** The label each shown frame carries, in shown order. */
export function shownLabels(shown: ShownFrames): number[] {
  return shown.labels === "shown-position" ? shown.shown.map((_, k) => k) : shown.shown.slice();
}

export interface Tour {
  frames: SampledFrame[];
  provenance: FrameProvenance;
}

/** Build the messages of one item from its sampled tour. */
export function buildMessages(item: VcnItem, shown: ShownFrames, tour: Tour, templates: VcnTemplates, readImage: (file: string) => Buffer = readImageFile): Message[] {
  const labels = shownLabels(shown);
  const fields = {
    shown: shown.shown.length,
    total: shown.tour_frames,
    instruction: item.instruction,
    first: Math.min(...labels),
    last: Math.max(...labels),
  };
  const content: Part[] = [];
  const shuffled = shown.labels === "shown-position";
  const intro = fill(shuffled ? templates.intro_shuffled : templates.intro, fields);
  const thinned = shown.dropped > 0 ? `\n${fill(shuffled ? templates.thinned_shuffled : templates.thinned, fields)}` : "";
  content.push({ type: "text", text: intro + thinned });
  shown.shown.forEach((tourIndex, k) => {
    const frame = tour.frames[tourIndex]!;
    content.push({ type: "text", text: fill(templates.frame_label, { label: labels[k]! }) });
    content.push({ type: "image", mediaType: "image/png", base64: frame.png.toString("base64"), source: `${item.tour.display}#${frame.index}`, kind: "frame" });
  });
  content.push({ type: "text", text: fill(templates.views_intro, fields) });
  for (const direction of ["front", "left", "back", "right"] as const) {
    const file = item.views[direction];
    content.push({ type: "text", text: fill(templates.view_label, { direction: direction[0]!.toUpperCase() + direction.slice(1) }) });
    content.push(imagePart(readImage(file), file));
  }
  content.push({ type: "text", text: fill(templates.question, fields) });
  return [
    { role: "system", content: [{ type: "text", text: templates.system.trim() }] },
    { role: "user", content },
  ];
}

/** Samples each tour once per prompt session (items of a house share it). */
export function tourSampler(templates: Pick<VcnTemplates, "max_pixels">, cacheDir?: string): (item: VcnItem) => Promise<Tour> {
  const cache = new Map<string, Promise<Tour>>();
  return (item) => {
    const key = JSON.stringify([item.tour.source, item.tour.spec]);
    let tour = cache.get(key);
    if (!tour) {
      tour = sampleFrames(item.tour.source, item.tour.spec, { maxPixels: templates.max_pixels, ...(cacheDir ? { cacheDir } : {}) });
      cache.set(key, tour);
    }
    return tour;
  };
}

/** Checks that a sampled tour is the annotated one (same length; same video frames where recorded). */
export function checkTour(item: VcnItem, tour: Tour): string | null {
  if (tour.frames.length !== item.annotations.length) {
    return `the frame spec gives ${tour.frames.length} frames from ${item.tour.display}, but ${item.annotations.length} tour frames are annotated`;
  }
  for (const a of item.annotations) {
    if (a.source_index !== undefined && tour.frames[a.index]!.index !== a.source_index) {
      return `tour frame ${a.index} is video frame ${tour.frames[a.index]!.index}, but the annotation says ${a.source_index}`;
    }
  }
  return null;
}

/** The prompt info of a built prompt. */
export function promptInfo(shown: ShownFrames, tour: Tour | null, item?: Pick<VcnItem, "tour">): Record<string, unknown> {
  const prior = item?.tour.prior;
  return {
    ...shown,
    // A release prior: where each shown frame sits in the tour folder's sorted listing.
    ...(prior ? { prior_positions: shown.shown.map((i) => prior.positions[i]!) } : {}),
    ...(tour
      ? {
          source_indices: shown.shown.map((i) => tour.frames[i]!.index),
          source_timestamps: shown.shown.map((i) => tour.frames[i]!.timestamp),
          tour_sha256: tour.provenance.sha256,
        }
      : {}),
  };
}
