import { readImageFile } from "../../core/file-read.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../core/problems.js";
import { readTemplateFile } from "../../core/results.js";
import type { Message, Part } from "../../core/types.js";
import { swapHalves } from "../../media/halves.js";
import { createRng, seedFromString } from "../../stats/rng.js";
import { abstractionFormatOf, DESCRIPTOR_MEANINGS, fineGrainedSetOf } from "./probes.js";
import { DESCRIPTORS, type DescriptorName, type Descriptors } from "./scenarios.js";
import type { PathEvalItem, PathName } from "./types.js";
import { imagePart } from "../../media/sniff.js";

/** Prompt variants (paper §4 and App. C): the question with the image, with descriptor values, values only, random path names, flipped order. */
export const VARIANTS = ["plain", "with-descriptors", "descriptors-only", "random-ids", "flipped"] as const;
export type Variant = (typeof VARIANTS)[number];

export interface PathEvalTemplates {
  name: string;
  hash: string;
  system: string;
  plain: string;
  with_descriptors: string;
  descriptors_only: string;
  attribute_abstraction: string;
  fine_grained: string;
  /** The paper-format abstraction question (a list of descriptors; optional, needed by `--prompt attribute-abstraction-list`). */
  attribute_abstraction_list?: string;
  /** The segment study's question (optional in a custom file; needed only by `--prompt segments`). */
  segments?: string;
}

export const DEFAULT_TEMPLATE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../templates/patheval.yaml");

export function loadTemplates(file = DEFAULT_TEMPLATE_FILE): PathEvalTemplates {
  const { data, hash } = readTemplateFile(file);
  const keys = ["system", "plain", "with_descriptors", "descriptors_only", "attribute_abstraction", "fine_grained"];
  const missing = keys.filter((k) => typeof data[k] !== "string");
  if (missing.length > 0) throw new UsageError(`template file ${file} lacks: ${missing.join(", ")}`);
  for (const key of ["segments", "attribute_abstraction_list"]) {
    if (data[key] !== undefined && typeof data[key] !== "string") throw new UsageError(`template file ${file}: ${key} must be text`);
  }
  return { ...(data as unknown as PathEvalTemplates), name: String(data["name"] ?? path.basename(file)), hash };
}

export function fill(template: string, fields: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => fields[key] ?? whole).trim();
}

/** Descriptor values as one line: sharp turns as an integer, the rest with 2 decimals. */
export function formatDescriptors(d: Descriptors): string {
  return DESCRIPTORS.map((name) => `${name} ${name === "Sharp turns" ? String(d[name]) : d[name].toFixed(2)}`).join(", ");
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Two distinct random 4-character path names for an item (seeded), as the release's random-ids variant. */
export function randomNames(itemId: string, seed: number): [string, string] {
  const rng = createRng(seedFromString(itemId, seed));
  const name = () => Array.from({ length: 4 }, () => ALPHANUMERIC[rng.below(ALPHANUMERIC.length)]).join("");
  const first = name();
  let second = name();
  while (second === first || second.includes(first) || first.includes(second)) second = name();
  return [first, second];
}

export const other = (p: PathName): PathName => (p === "Path 1" ? "Path 2" : "Path 1");

/** What the reader of a reply needs: the names shown (left first) and whether the pair was flipped. */
export interface ShownPair {
  variant: Variant;
  names: [string, string];
  flipped: boolean;
}

export function shownPair(item: PathEvalItem, variant: Variant, seed: number): ShownPair {
  const names: [string, string] = variant === "random-ids" ? randomNames(item.id, seed) : ["Path 1", "Path 2"];
  return { variant, names, flipped: variant === "flipped" };
}

/** The record's path shown on the left (Path 1 unless flipped). */
export function leftPath(shown: Pick<ShownPair, "flipped">): PathName {
  return shown.flipped ? "Path 2" : "Path 1";
}

export async function buildMessages(item: PathEvalItem, shown: ShownPair, templates: PathEvalTemplates, readImage: (file: string) => Buffer = readImageFile): Promise<Message[]> {
  const left = leftPath(shown);
  const fields = {
    scenario: item.question,
    left: shown.names[0],
    right: shown.names[1],
    descriptors_left: formatDescriptors(item.metrics[left]),
    descriptors_right: formatDescriptors(item.metrics[other(left)]),
  };
  const template = shown.variant === "with-descriptors" ? templates.with_descriptors : shown.variant === "descriptors-only" ? templates.descriptors_only : templates.plain;
  const content: Part[] = [];
  if (shown.variant !== "descriptors-only") {
    const image = readImage(item.imagePath);
    const bytes = shown.flipped ? await swapHalves(image) : image;
    content.push(imagePart(bytes, item.imagePath));
  }
  content.push({ type: "text", text: fill(template, fields) });
  return [
    { role: "system", content: [{ type: "text", text: templates.system.trim() }] },
    { role: "user", content },
  ];
}

/** The text a descriptors-only prompt shows for an item (plain names, not flipped: the variant has no picture). */
export function descriptorsOnlyText(item: PathEvalItem, templates: PathEvalTemplates): string {
  return fill(templates.descriptors_only, {
    scenario: item.question, left: "Path 1", right: "Path 2",
    descriptors_left: formatDescriptors(item.metrics["Path 1"]), descriptors_right: formatDescriptors(item.metrics["Path 2"]),
  });
}

/**
 * `--prompt descriptors-only` asks each distinct text once: items whose prompt text and truth are
 * the same (e.g. the 2D and 3D record of one pair and scenario) collapse to the first one.
 * `copies` says how many records each kept item stands for.
 */
export function distinctPromptItems(items: PathEvalItem[], templates: PathEvalTemplates): { items: PathEvalItem[]; copies: Map<PathEvalItem, PathEvalItem[]> } {
  const first = new Map<string, PathEvalItem>();
  const copies = new Map<PathEvalItem, PathEvalItem[]>();
  for (const item of items) {
    const key = `${item.truth}\u0000${descriptorsOnlyText(item, templates)}`;
    const kept = first.get(key);
    if (kept) copies.get(kept)!.push(item);
    else {
      first.set(key, item);
      copies.set(item, [item]);
    }
  }
  return { items: [...first.values()], copies };
}

/** Probe prompts: the scenario alone (abstraction), or the picture and one descriptor (fine-grained). */
export async function buildProbeMessages(item: PathEvalItem, shown: ShownPair, templates: PathEvalTemplates, readImage: (file: string) => Buffer = readImageFile): Promise<Message[]> {
  const probe = item.probe!;
  const system: Message = { role: "system", content: [{ type: "text", text: templates.system.trim() }] };
  if (probe.kind === "attribute-abstraction" && abstractionFormatOf(probe) === "list") {
    if (templates.attribute_abstraction_list === undefined) throw new UsageError(`template ${templates.name} has no "attribute_abstraction_list" text (needed by --prompt attribute-abstraction-list)`);
    return [system, { role: "user", content: [{ type: "text", text: fill(templates.attribute_abstraction_list, { scenario: item.question }) }] }];
  }
  if (probe.kind === "attribute-abstraction") {
    return [system, { role: "user", content: [{ type: "text", text: fill(templates.attribute_abstraction, { scenario: item.question }) }] }];
  }
  const image = readImage(item.imagePath);
  if (fineGrainedSetOf(probe) === "segments") {
    if (templates.segments === undefined) throw new UsageError(`template ${templates.name} has no "segments" text (needed by --prompt segments)`);
    return [system, { role: "user", content: [imagePart(image, item.imagePath), { type: "text", text: fill(templates.segments, { left: shown.names[0], right: shown.names[1] }) }] }];
  }
  const text = fill(templates.fine_grained, { left: shown.names[0], right: shown.names[1], descriptor: probe.descriptor, descriptor_meaning: DESCRIPTOR_MEANINGS[probe.descriptor] });
  return [system, { role: "user", content: [imagePart(image, item.imagePath), { type: "text", text }] }];
}

export type { DescriptorName };
