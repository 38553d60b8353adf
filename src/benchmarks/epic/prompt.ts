/**
 * EPIC-Bench prompts: the official inputs (which text_annotation fields, which images in which
 * order; tools/data_gen/converters) and reply contract (tools/data_gen/prompts), in wording taken
 * from a template file (templates/epic.yaml by default: our own words).
 *
 * The official converters put the first line of the prompt in the system message and the rest,
 * then the response format, then the images, then the text fields in the user message. Here the
 * template says where the images go with an `{images}` marker (without one they come first).
 *
 * Overlay variants (paper Table 5): the release's overlay image (mask-overlay, default); a red
 * 3 px box per reference-mask instance drawn on a copy of the scene (box-overlay); no overlay
 * image at all, the reference given in words only (no-overlay).
 *
 * Count-only (paper Table 4, Sec. 5.2): Target Localization and Contact Relationship samples asked
 * for the count alone, without boxes; the same images as mask-overlay, wording from the template's
 * `count_only` entries (the release has no such prompt: ours).
 */
import { readImageFile } from "../../core/file-read.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { DataError, UsageError } from "../../core/problems.js";
import { readTemplateFile } from "../../core/results.js";
import type { Message, Part } from "../../core/types.js";
import { decodeRle, RleError } from "../../geometry/rle.js";
import { encodePng } from "../../media/png.js";
import { imagePart } from "../../media/sniff.js";
import type { LeafTask } from "./taxonomy.js";
import type { EpicItem, RleJson } from "./types.js";

export const OVERLAY_VARIANTS = ["mask-overlay", "box-overlay", "no-overlay"] as const;
export type OverlayVariant = (typeof OVERLAY_VARIANTS)[number];
export const COUNT_ONLY = "count-only";
/** The --prompt sources: the overlay variants (Table 5) and the count-only prompt (Table 4). */
export const PROMPT_SOURCES = [...OVERLAY_VARIANTS, COUNT_ONLY] as const;
export type PromptSource = (typeof PROMPT_SOURCES)[number];

/** The families with a count-only prompt. */
export const COUNT_ONLY_FAMILIES = ["target_localization", "contact_relationship.type_one", "contact_relationship.type_two", "contact_relationship.type_three"] as const;

/** Whether the count-only prompt applies to a task (TL and CR: the paper's Table 4 samples). */
export function countOnlyApplies(leaf: LeafTask): boolean {
  return leaf.category === "TargetLocalization" || leaf.group === "ContactRelationship";
}

export const COORD_MODES = ["absolute", "0-1", "0-1000"] as const;
export type CoordMode = (typeof COORD_MODES)[number];

/** Template entries, one per task family; contact relationship has one per type (their wording and relation differ). */
export const FAMILY_KEYS = [
  "target_localization",
  "ground_detection",
  "feasible_path_ego",
  "feasible_path_exo",
  "visual_matching",
  "affordance_region",
  "contact_relationship.type_one",
  "contact_relationship.type_two",
  "contact_relationship.type_three",
  "placement_region",
] as const;
export type FamilyKey = (typeof FAMILY_KEYS)[number];

export interface FamilyTemplate {
  system: string;
  user: string;
  /** What the pictures show, per overlay variant (filled into {reference_hint}). */
  reference_hint?: Partial<Record<OverlayVariant, string>>;
}

export interface EpicTemplates {
  name: string;
  file: string;
  /** sha256 of the template file, part of the request hash. */
  hash: string;
  coordinate_instructions: Record<CoordMode, string>;
  families: Record<FamilyKey, FamilyTemplate>;
  /** Count-only wording (Table 4) per family, when the file has a `count_only` section. */
  countOnly: Partial<Record<FamilyKey, FamilyTemplate>>;
}

export const DEFAULT_TEMPLATE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../templates/epic.yaml");

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function loadEpicTemplates(file = DEFAULT_TEMPLATE_FILE): EpicTemplates {
  const { data, hash } = readTemplateFile(file);
  const problems: string[] = [];
  const coords = data["coordinate_instructions"];
  if (!isRecord(coords)) problems.push("coordinate_instructions (a mapping with keys absolute, 0-1, 0-1000)");
  else for (const mode of COORD_MODES) if (typeof coords[mode] !== "string") problems.push(`coordinate_instructions.${mode}`);
  const families = {} as Record<FamilyKey, FamilyTemplate>;
  const countOnly: Partial<Record<FamilyKey, FamilyTemplate>> = {};
  const countOnlySection = data["count_only"];
  if (countOnlySection !== undefined && !isRecord(countOnlySection)) problems.push("count_only (a mapping by family)");
  const wanted: Array<[FamilyKey, string, boolean]> = [
    ...FAMILY_KEYS.map((key) => [key, key, true] as [FamilyKey, string, boolean]),
    ...(isRecord(countOnlySection) ? COUNT_ONLY_FAMILIES.map((key) => [key, `count_only.${key}`, false] as [FamilyKey, string, boolean]) : []),
  ];
  for (const [family, key, main] of wanted) {
    const entry = key.split(".").reduce<unknown>((node, part) => (isRecord(node) ? node[part] : undefined), data);
    if (!isRecord(entry)) {
      problems.push(`${key} (a mapping with system and user)`);
      continue;
    }
    for (const field of ["system", "user"]) if (typeof entry[field] !== "string") problems.push(`${key}.${field}`);
    const hint = entry["reference_hint"];
    if (hint !== undefined) {
      if (!isRecord(hint)) problems.push(`${key}.reference_hint (a mapping by overlay variant)`);
      else
        for (const [variant, text] of Object.entries(hint)) {
          if (!(OVERLAY_VARIANTS as readonly string[]).includes(variant)) problems.push(`${key}.reference_hint.${variant} (variants: ${OVERLAY_VARIANTS.join(", ")})`);
          else if (typeof text !== "string") problems.push(`${key}.reference_hint.${variant} (text)`);
        }
    }
    (main ? families : countOnly)[family] = { system: entry["system"] as string, user: entry["user"] as string, reference_hint: hint as FamilyTemplate["reference_hint"] };
  }
  if (problems.length > 0) throw new UsageError(`template file ${file} lacks or misstates: ${problems.join(", ")}`);
  return {
    name: String(data["name"] ?? path.basename(file)),
    file,
    hash,
    coordinate_instructions: coords as Record<CoordMode, string>,
    families,
    countOnly,
  };
}

/** The template entry an item uses. */
export function familyOf(leaf: LeafTask): FamilyKey {
  if (leaf.category === "TargetLocalization") return "target_localization";
  switch (leaf.leaf) {
    case "GroundDetection": return "ground_detection";
    case "FeasiblePath_Ego": return "feasible_path_ego";
    case "FeasiblePath_Exo": return "feasible_path_exo";
    case "VisualMatching": return "visual_matching";
    case "AffordanceRegion": return "affordance_region";
    case "ContactRelationship_TypeOne": return "contact_relationship.type_one";
    case "ContactRelationship_TypeTwo": return "contact_relationship.type_two";
    case "ContactRelationship_TypeThree": return "contact_relationship.type_three";
    case "PlacementRegion": return "placement_region";
  }
  throw new UsageError(`EPIC-Bench has no prompt for task ${leaf.byType}`);
}

/**
 * The mask the release's overlay image is drawn from (the reference), by family; box-overlay
 * boxes its instances. Field names from the official visualiser's config (tools/visualization/app.py).
 */
export const REFERENCE_MASK: Partial<Record<FamilyKey, string>> = {
  feasible_path_ego: "masklet_target_area",
  feasible_path_exo: "masklet_target_area",
  visual_matching: "masklet_reference_area",
  affordance_region: "masklet_reference_area",
  "contact_relationship.type_one": "masklet_reference_object",
  "contact_relationship.type_two": "masklet_reference_object",
  "contact_relationship.type_three": "masklet_reference_object",
  placement_region: "masklet_reference_object",
};

/** Images per family in the official order, and where the overlay sits in that list. */
function imageLayout(family: FamilyKey): { count: number; overlay?: number } {
  if (family === "target_localization" || family === "ground_detection") return { count: 1 };
  if (family === "visual_matching") return { count: 3, overlay: 1 };
  return { count: 2, overlay: 1 };
}

/** Python's str() for the scalar values a text field can hold. */
function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function fieldProblem(item: EpicItem, field: string, message: string): DataError {
  return new DataError([{ file: item.gtFile || item.id, field: `text_annotation.${field}`, message: `${message} (${item.task})` }]);
}

/**
 * A text_annotation field as the official converters read it (`_first_str`): a scalar as a string,
 * a list by its first element. Absent or null: undefined, or an error when required; an empty list
 * is always an error.
 */
export function firstText(item: EpicItem, field: string, required: boolean): string | undefined {
  const value = item.text[field];
  if (value === undefined || value === null) {
    if (required) throw fieldProblem(item, field, "missing; the prompt needs it");
    return undefined;
  }
  const text = (scalar: unknown): string => {
    try {
      return pyStr(scalar);
    } catch (error) {
      // A list nested too deeply for JSON.stringify (Python's str() raises RecursionError there).
      if (error instanceof RangeError) throw fieldProblem(item, field, "is nested too deeply to read as text");
      throw error;
    }
  };
  if (Array.isArray(value)) {
    if (value.length === 0) throw fieldProblem(item, field, "is an empty list; the prompt needs its first element");
    return text(value[0]);
  }
  return text(value);
}

/** Python truthiness of a raw field value (the affordance converter's `a or b`). */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== null && value !== "" && value !== false && value !== 0;
}

/** The official Feasible Path converter's clean-up: runs of two or more "2" separate the areas. */
export function normalizeTargetAreaDescription(text: string): string {
  let s = text.trim();
  if (!s) return s;
  s = s.replace(/2{2,}/g, ",");
  s = s.replace(/\s*,\s*/g, ", ");
  s = s.replace(/\s+/g, " ").trim();
  return s.replace(/^(,\s*)+|(\s*,)+$/g, "").trim();
}

/** The official Contact Relationship type two/three converter's clean-up: any run of "2" separates the objects. */
export function normalizeReferenceObjects(text: string): string {
  let s = text.trim();
  if (!s) return s;
  s = s.replace(/2+/g, ", ");
  s = s.replace(/\s*,\s*/g, ", ");
  return s.replace(/\s+/g, " ").trim();
}

/**
 * The text fields an item's prompt uses, keyed by template placeholder, read as the official
 * converters read them (first element of a list; the converters' clean-ups). The no-overlay
 * variant of Visual Matching also needs the reference described in words.
 */
export function textFieldsOf(item: EpicItem, variant: OverlayVariant = "mask-overlay"): Record<string, string> {
  const family = familyOf(item.leaf);
  switch (family) {
    case "target_localization":
      return { target_object_description: firstText(item, "text_label", true)! };
    case "ground_detection":
      return {};
    case "feasible_path_ego":
    case "feasible_path_exo":
      return { target_area_description: normalizeTargetAreaDescription(firstText(item, "text_label", true)!) };
    case "visual_matching": {
      const described = firstText(item, "reference_area_description_en", variant === "no-overlay");
      return described === undefined ? {} : { reference_area_description: described };
    }
    case "affordance_region": {
      const taskField = ["text_label", "task_description_en"].find((f) => truthy(item.text[f]));
      if (!taskField) throw fieldProblem(item, "text_label", "missing or empty, and so is task_description_en; the prompt needs the task description");
      if (!truthy(item.text["reference_object_description_en"])) throw fieldProblem(item, "reference_object_description_en", "missing or empty; the prompt needs it");
      return {
        reference_object_description: firstText(item, "reference_object_description_en", true)!,
        task_description: firstText(item, taskField, true)!,
      };
    }
    case "contact_relationship.type_one":
      return { reference_object_description: firstText(item, "text_label", true)! };
    case "contact_relationship.type_two":
    case "contact_relationship.type_three":
      return { reference_object_description: normalizeReferenceObjects(firstText(item, "text_label", true)!) };
    case "placement_region":
      return {
        reference_object_description: firstText(item, "reference_object_description_en", true)!,
        placement_region_description: firstText(item, "placement_region_description_en", true)!,
      };
  }
}

const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\}/g;

/** Fill `{name}` placeholders; every placeholder must have a value (an error names the template and the placeholder). */
export function fillStrict(template: string, fields: Record<string, string>, where: string): string {
  const unknown = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((k) => fields[k] === undefined);
  if (unknown.length > 0) throw new UsageError(`template ${where} uses ${[...new Set(unknown)].map((k) => `{${k}}`).join(", ")}, which this item does not provide`);
  return template.replace(PLACEHOLDER, (_whole, key: string) => fields[key]!);
}

/** A binary mask readable by pixel (x right, y down); the project's BitMask is one. */
export interface MaskLike {
  width: number;
  height: number;
  get(x: number, y: number): number | boolean;
  /** Optional fast path: the box around the set pixels, exclusive ends [x1, y1, x2, y2], or null. */
  bounds?(): readonly [number, number, number, number] | null;
}

export type MaskDecoder = (rle: RleJson) => MaskLike | Promise<MaskLike>;

export interface MaskBox {
  /** Inclusive pixel bounds of the mask's set pixels. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The tight bounding box of a mask's set pixels (undefined when it has none). */
export function maskBox(mask: MaskLike): MaskBox | undefined {
  if (typeof mask.bounds === "function") {
    const b = mask.bounds();
    return b ? { x0: b[0], y0: b[1], x1: b[2] - 1, y1: b[3] - 1 } : undefined;
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      if (!mask.get(x, y)) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? undefined : { x0, y0, x1, y1 };
}

export const BOX_COLOR: readonly [number, number, number] = [255, 0, 0];
export const BOX_THICKNESS = 3;

/**
 * Whether pixel (x, y) lies on the drawn border of a box: a stroke BOX_THICKNESS wide centred on
 * the box's edge pixels (for 3 px: one pixel outside, the edge itself, one pixel inside).
 */
export function onBoxBorder(box: MaskBox, x: number, y: number, thickness = BOX_THICKNESS): boolean {
  const out = Math.floor((thickness - 1) / 2);
  const inn = thickness - 1 - out;
  const inOuter = x >= box.x0 - out && x <= box.x1 + out && y >= box.y0 - out && y <= box.y1 + out;
  const inInner = x > box.x0 + inn && x < box.x1 - inn && y > box.y0 + inn && y < box.y1 - inn;
  return inOuter && !inInner;
}

/** Decode any image to packed 8-bit RGB (alpha flattened over white, greyscale expanded), without EXIF rotation. */
async function decodeRgb3(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes).flatten({ background: "#ffffff" }).toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  if (info.channels === 3) return { data, width: info.width, height: info.height };
  const rgb = Buffer.alloc(info.width * info.height * 3);
  for (let i = 0; i < info.width * info.height; i++) {
    const v = data[i * info.channels]!;
    rgb[i * 3] = v;
    rgb[i * 3 + 1] = info.channels >= 3 ? data[i * info.channels + 1]! : v;
    rgb[i * 3 + 2] = info.channels >= 3 ? data[i * info.channels + 2]! : v;
  }
  return { data: rgb, width: info.width, height: info.height };
}

/** A copy of the image with a red 3 px box around each box, as a deterministically encoded PNG. */
export async function drawBoxes(image: Buffer, boxes: MaskBox[]): Promise<Buffer> {
  const { data, width, height } = await decodeRgb3(image);
  for (const box of boxes) {
    const out = Math.floor((BOX_THICKNESS - 1) / 2);
    for (let y = Math.max(0, box.y0 - out); y <= Math.min(height - 1, box.y1 + out); y++) {
      for (let x = Math.max(0, box.x0 - out); x <= Math.min(width - 1, box.x1 + out); x++) {
        if (!onBoxBorder(box, x, y)) continue;
        const i = (y * width + x) * 3;
        data[i] = BOX_COLOR[0];
        data[i + 1] = BOX_COLOR[1];
        data[i + 2] = BOX_COLOR[2];
      }
    }
  }
  return encodePng(data, width, height, 3);
}

/** The reference mask's instances of an item (box-overlay); errors name the task and field. */
function referenceInstances(item: EpicItem, family: FamilyKey): { field: string; rles: RleJson[] } {
  const field = REFERENCE_MASK[family];
  const fail = (message: string) =>
    new DataError([{ file: item.gtFile || item.id, field: `mask_annotation.${field ?? "?"}`, message: `box-overlay for ${item.task}: ${message}` }]);
  if (!field) throw new UsageError(`box-overlay: ${item.task} has no overlay image to replace`);
  const raw = item.masks[field] as unknown;
  if (raw === undefined || raw === null) throw fail(`the reference mask ${field} is not in mask_annotation, so no box can be drawn (use mask-overlay or no-overlay)`);
  const rles = (Array.isArray(raw) ? raw : [raw]) as RleJson[];
  if (rles.length === 0) throw fail(`the reference mask ${field} is empty, so no box can be drawn`);
  return { field, rles };
}

async function boxOverlay(item: EpicItem, family: FamilyKey, base: Buffer, decodeMask: MaskDecoder): Promise<{ bytes: Buffer; field: string }> {
  const { field, rles } = referenceInstances(item, family);
  const meta = await sharp(base).metadata();
  const boxes: MaskBox[] = [];
  for (const [i, rle] of rles.entries()) {
    let mask: MaskLike;
    try {
      mask = await decodeMask(rle);
    } catch (e) {
      if (!(e instanceof RleError)) throw e;
      throw new DataError([{ file: item.gtFile || item.id, field: `mask_annotation.${field}[${i}]`, message: `box-overlay for ${item.task}: ${e.message}` }]);
    }
    if (mask.width !== meta.width || mask.height !== meta.height) {
      throw new DataError([{ file: item.gtFile || item.id, field: `mask_annotation.${field}[${i}]`, message: `box-overlay for ${item.task}: mask is ${mask.width}x${mask.height} but ${item.images[0]} is ${meta.width}x${meta.height}` }]);
    }
    const box = maskBox(mask);
    if (box) boxes.push(box);
  }
  if (boxes.length === 0) {
    throw new DataError([{ file: item.gtFile || item.id, field: `mask_annotation.${field}`, message: `box-overlay for ${item.task}: the reference mask has no set pixels, so no box can be drawn` }]);
  }
  return { bytes: await drawBoxes(base, boxes), field };
}

/** The project's strict RLE decoder (a malformed reference mask is an error, not a missing box). */
const defaultDecodeMask: MaskDecoder = (rle) => decodeRle(rle);

export interface EpicPromptOptions {
  templates: EpicTemplates;
  variant?: PromptSource;
  coordMode: CoordMode;
  readImage?: (file: string) => Buffer;
  /** RLE -> mask, for box-overlay (default: decodeRle from src/geometry/rle.ts). */
  decodeMask?: MaskDecoder;
}

/**
 * System message (when the template's system text is not empty), then one user message: the
 * images in the official order (TL/GD: image; FP/AR/CR/PR: image, overlay; VM: image a, overlay a,
 * image b; no-overlay drops the overlay, box-overlay replaces it) and the filled user text, split
 * around the template's {images} marker. Same input, same bytes.
 */
export async function buildEpicMessages(item: EpicItem, options: EpicPromptOptions): Promise<Message[]> {
  const { templates, coordMode } = options;
  const source = options.variant ?? "mask-overlay";
  if (!(PROMPT_SOURCES as readonly string[]).includes(source)) throw new UsageError(`unknown prompt variant "${source}" (choose ${PROMPT_SOURCES.join(", ")})`);
  // Count-only shows what mask-overlay shows.
  const variant: OverlayVariant = source === COUNT_ONLY ? "mask-overlay" : source;
  if (!(COORD_MODES as readonly string[]).includes(coordMode)) throw new UsageError(`unknown coordinate mode "${coordMode}" (choose ${COORD_MODES.join(", ")})`);
  const readImage = options.readImage ?? readImageFile;
  const family = familyOf(item.leaf);
  const template = source === COUNT_ONLY ? templates.countOnly[family] : templates.families[family];
  if (!template) throw new UsageError(`template file ${templates.file} has no count_only.${family} entry, so ${item.task} cannot be asked for the count alone`);
  const layout = imageLayout(family);
  if (item.images.length !== layout.count) {
    throw new DataError([{ file: item.gtFile || item.id, message: `${item.task} needs ${layout.count} image(s) in the official order, the item has ${item.images.length}` }]);
  }

  const fields: Record<string, string> = { ...textFieldsOf(item, variant), coordinate_instruction: templates.coordinate_instructions[coordMode].trim() };
  const where = `${family}.user in ${templates.file}`;
  if (layout.overlay !== undefined) {
    const usesHint = /\{reference_hint\}/.test(template.user) || /\{reference_hint\}/.test(template.system);
    const hint = template.reference_hint?.[variant];
    if (variant !== "mask-overlay" && !usesHint) {
      throw new UsageError(`template ${where} has no {reference_hint}, so it cannot tell the model that the overlay is ${variant === "no-overlay" ? "missing" : "a box"} (${variant})`);
    }
    if (usesHint) {
      if (hint === undefined) throw new UsageError(`template ${family}.reference_hint in ${templates.file} has no "${variant}" entry`);
      fields["reference_hint"] = fillStrict(hint, fields, `${family}.reference_hint.${variant} in ${templates.file}`).trim();
    }
  }

  const images: Part[] = [];
  for (const [i, file] of item.images.entries()) {
    const ref = item.imageRefs[i] ?? file;
    if (i === layout.overlay && variant === "no-overlay") continue;
    if (i === layout.overlay && variant === "box-overlay") {
      const { bytes, field } = await boxOverlay(item, family, readImage(item.images[0]!), options.decodeMask ?? defaultDecodeMask);
      images.push({ type: "image", mediaType: "image/png", base64: bytes.toString("base64"), source: `${item.imageRefs[0] ?? item.images[0]}#box-overlay:${field}` });
      continue;
    }
    images.push(imagePart(readImage(file), ref));
  }

  const system = fillStrict(template.system, fields, `${family}.system in ${templates.file}`).trim();
  const pieces = template.user.split("{images}");
  if (pieces.length > 2) throw new UsageError(`template ${where} uses {images} more than once`);
  const [before, after] = pieces.map((p) => fillStrict(p, fields, where).trim());
  const content: Part[] = [];
  if (after === undefined) {
    content.push(...images, { type: "text", text: before! });
  } else {
    if (before) content.push({ type: "text", text: before });
    content.push(...images);
    if (after) content.push({ type: "text", text: after });
  }
  const messages: Message[] = [];
  if (system) messages.push({ role: "system", content: [{ type: "text", text: system }] });
  messages.push({ role: "user", content });
  return messages;
}
