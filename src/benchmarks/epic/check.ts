/**
 * EPIC-Bench requests: the text fields a sample's prompt reads, taken as the official converters
 * take them (GitHub rxc205/EPIC-Bench-Eval, tools/data_gen/converters/*_convert.py), and what
 * each overlay variant needs (load.ts runs the checks when asked, benchmarks/requests.ts).
 *
 * Converter fallbacks (promptText): Target Localization, Feasible Path and Contact Relationship
 * read `text_annotation.text_label`, else (absent or null there) the row's top-level
 * `text_label`; Affordance Region reads the first non-empty of `text_annotation.text_label` and
 * `text_annotation.task_description_en`, else a non-empty top-level `text_label`, and its
 * reference object from `text_annotation.reference_object_description_en`, else a non-empty
 * `mask_annotation.target_en`; Placement Region reads `reference_object_description_en` and
 * `placement_region_description_en` from text_annotation, else (absent or null)
 * `mask_annotation.target_en` and `mask_annotation.placement_region_en`.
 *
 * Variants (prompt.ts): every variant needs the text fields (textFieldsOf, the builder's own
 * reading, so the two cannot disagree); no-overlay Visual Matching also the reference described in
 * words; box-overlay draws a box per instance of the reference mask (REFERENCE_MASK) on the first
 * image, so that mask must be there, non-empty, the first image's size, with pixels set. The
 * overlay images mask-overlay sends are required by the loader for every variant.
 */
import { DataError, type DataProblem } from "../../core/problems.js";
import { rleArea } from "../../geometry/rle.js";
import { imageDimensions } from "../../media/dimensions.js";
import { imageHeaderProblem } from "../../media/image-check.js";
import type { RequestOptions } from "../requests.js";
import { familyOf, REFERENCE_MASK, textFieldsOf, type OverlayVariant } from "./prompt.js";
import type { LeafTask } from "./taxonomy.js";
import type { EpicItem, RleJson } from "./types.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python truthiness of a JSON value (the converters' `a or b` and `if x:`). */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== null && value !== "" && value !== false && value !== 0;
}

/** The row's text_annotation with the converters' fallbacks filled in (module comment). */
export function promptText(row: Record<string, unknown>, leaf: LeafTask): Record<string, unknown> {
  const text: Record<string, unknown> = isRecord(row["text_annotation"]) ? { ...row["text_annotation"] } : {};
  const masks = isRecord(row["mask_annotation"]) ? row["mask_annotation"] : {};
  switch (familyOf(leaf)) {
    case "ground_detection":
    case "visual_matching":
      break;
    case "affordance_region":
      if (!truthy(text["text_label"]) && !truthy(text["task_description_en"]) && truthy(row["text_label"])) text["text_label"] = row["text_label"];
      if (!truthy(text["reference_object_description_en"]) && truthy(masks["target_en"])) text["reference_object_description_en"] = masks["target_en"];
      break;
    case "placement_region":
      if (text["reference_object_description_en"] == null && masks["target_en"] != null) text["reference_object_description_en"] = masks["target_en"];
      if (text["placement_region_description_en"] == null && masks["placement_region_en"] != null) text["placement_region_description_en"] = masks["placement_region_en"];
      break;
    default:
      if (text["text_label"] == null && row["text_label"] != null) text["text_label"] = row["text_label"];
  }
  return text;
}

/** The text problems of one sample for a variant, worded for a file that may also hold a top-level text_label. */
function textProblems(item: EpicItem, rel: string, variant: OverlayVariant): DataProblem[] {
  try {
    textFieldsOf(item, variant);
    return [];
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    return error.problems.map((p) => {
      const noLabel = p.field === "text_annotation.text_label" && item.text["text_label"] == null;
      return { file: rel, ...(p.field ? { field: p.field } : {}), message: noLabel ? p.message.replace(/^missing;/, "missing, and so is the top-level text_label;") : p.message };
    });
  }
}

/** The picture's size from its header; undefined when it cannot be read (a refused file is reported by the loader). */
function headerSize(file: string): ReturnType<typeof imageDimensions> {
  try {
    return imageDimensions(file);
  } catch {
    return undefined;
  }
}

/** What box-overlay needs of a sample: a reference mask to box, the first image's size, with pixels set. */
function boxOverlayProblems(item: EpicItem, rel: string): DataProblem[] {
  const field = REFERENCE_MASK[familyOf(item.leaf)];
  if (!field) return []; // no overlay image in this task: box-overlay changes nothing
  const problem = (message: string, at = `mask_annotation.${field}`): DataProblem => ({ file: rel, field: at, message: `box-overlay for ${item.task}: ${message}` });
  const rles = item.masks[field] as RleJson[] | undefined;
  if (rles === undefined) return [problem(`the reference mask ${field} is not in mask_annotation, so no box can be drawn (use mask-overlay or no-overlay)`)];
  if (rles.length === 0) return [problem(`the reference mask ${field} is empty, so no box can be drawn`)];
  const image = item.imageRefs[0] ?? "the first image";
  const size = item.images[0] ? headerSize(item.images[0]) : undefined;
  if (!size) return [{ file: rel, field: "images", message: `box-overlay for ${item.task}: the size of ${image} cannot be read from its header` }];
  const problems: DataProblem[] = [];
  let pixels = 0;
  rles.forEach((rle, i) => {
    // The loader has checked every RLE of mask_annotation (size, counts summing to H x W).
    const [height, width] = rle.size;
    if (width !== size.width || height !== size.height) problems.push(problem(`mask is ${width}x${height} but ${image} is ${size.width}x${size.height}`, `mask_annotation.${field}[${i}]`));
    else pixels += rleArea(rle);
  });
  if (problems.length === 0 && pixels === 0) problems.push(problem("the reference mask has no set pixels, so no box can be drawn"));
  return problems;
}

/** Pictures whose header sharp cannot decode (media/image-check.ts), by their path in the data. */
function pictureProblems(item: EpicItem, rel: string): DataProblem[] {
  return item.images.flatMap((file, i) => {
    const problem = imageHeaderProblem(file, item.imageRefs[i] ?? file);
    return problem === null ? [] : [{ file: rel, field: "images", message: problem }];
  });
}

/** Everything a request for this sample needs under `requests.source` (an overlay variant). */
export function epicRequestProblems(item: EpicItem, rel: string, requests: RequestOptions): DataProblem[] {
  const variant = requests.source as OverlayVariant;
  const pictures = pictureProblems(item, rel);
  return [...textProblems(item, rel, variant), ...pictures, ...(variant === "box-overlay" && pictures.length === 0 ? boxOverlayProblems(item, rel) : [])];
}
