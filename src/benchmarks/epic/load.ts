import { readdirSync } from "node:fs";
import path from "node:path";
import { DataRoot, followUserPath, type DataRootOptions } from "../../core/dataroot.js";
import { parseJson } from "../../core/jsonl.js";
import { MAX_MASK_PIXELS, MAX_MASK_PIXELS_PER_SAMPLE, MAX_MASKS_PER_FIELD } from "../../core/limits.js";
import { appendAll, problemCount, problemList, type DataProblem } from "../../core/problems.js";
import { readRle, RleError } from "../../geometry/rle.js";
import { gtFields, LEAF_TASKS, leafFromPath, overlaySuffix, type LeafTask } from "./taxonomy.js";
import type { EpicItem, RleJson } from "./types.js";
import type { RequestOptions } from "../requests.js";
import { epicRequestProblems, promptText } from "./check.js";

/**
 * Find EPIC-Bench samples below `<data>/EPIC_Bench/` by the official folder rules: a sample is a
 * `*_mask_rle.json` file in a task folder; its images sit next to it (`<id>_image.*` and the task's
 * overlay; Visual Matching: `<a>__<b>_mask_rle.json` with `<a>_image.*`,
 * `<a>_reference_area_overlay.png`, `<b>_image.*`). Every RLE is checked (size, counts summing to
 * H×W) and every problem reported with its file and field; masks stay as RLE until scoring.
 * Text fields are taken as the official converters take them (check.ts promptText). With
 * `requests`, also what a request with that overlay variant needs (check.ts).
 */
export interface EpicLoadResult {
  items: EpicItem[];
  problems: DataProblem[];
  tasks: string[];
}

const GT_SUFFIX = "_mask_rle.json";

export function loadEpic(data: string, options: DataRootOptions & { tasks?: string[]; requests?: RequestOptions } = {}): EpicLoadResult {
  const root = followUserPath(path.resolve(data));
  const dataRoot = new DataRoot(root, options);
  const found = dataRoot.resolve("EPIC_Bench", "dir", { what: "folder" });
  if (!found.ok) {
    const message = found.missing ? "no EPIC_Bench/ folder here: --data must be the folder that holds EPIC_Bench/" : found.message;
    return { items: [], problems: [{ file: data, message }], tasks: [] };
  }
  const bench = found.path;
  const problems = problemList();
  const items: EpicItem[] = [];
  listings = new Map();
  try {
  for (const file of listFiles(bench).filter((f) => f.endsWith(GT_SUFFIX)).sort()) {
    const rel = path.relative(root, file).split(path.sep).join("/");
    const leaf = leafFromPath(rel.split("/"));
    if (!leaf) {
      problems.push({ file: rel, message: "not inside a known EPIC-Bench task folder" });
      continue;
    }
    if (options.tasks && !options.tasks.includes(leaf.byType)) continue;
    const item = readSample(dataRoot, file, rel, leaf, problems, options.requests);
    if (item) items.push(item);
  }
  } finally {
    listings = undefined;
  }
  const tasks = LEAF_TASKS.map((t) => t.byType).filter((t) => items.some((i) => i.task === t));
  if (items.length === 0 && problems.length === 0) problems.push({ file: path.relative(process.cwd(), bench) || bench, message: "no samples found" });
  return { items, problems, tasks };
}

/** Regular files below `dir`, depth first; links (to files or folders) are not followed. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const pending = [dir];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const entry of readdirSync(next, { withFileTypes: true })) {
      const full = path.join(next, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) out.push(full);
    }
  }
  return out;
}

/** Folder listings of one load, so a folder of thousands of samples is listed once. */
let listings: Map<string, string[]> | undefined;

function listing(dir: string): string[] {
  let names = listings?.get(dir);
  if (!names) {
    names = readdirSync(dir);
    listings?.set(dir, names);
  }
  return names;
}

/** `<stem>_image.<ext>` in a folder (any image extension). */
function findImage(dir: string, stem: string): string | undefined {
  const prefix = `${stem}_image.`;
  return listing(dir).find((f) => f.startsWith(prefix) && /\.(jpe?g|png|webp|bmp)$/i.test(f));
}

function imagesOf(dir: string, base: string, leaf: LeafTask): { files: string[]; missing: string[] } {
  const missing: string[] = [];
  const need = (name: string | undefined, what: string) => {
    if (name && listing(dir).includes(name)) return path.join(dir, name);
    missing.push(what);
    return undefined;
  };
  let files: Array<string | undefined>;
  if (leaf.leaf === "VisualMatching") {
    const [a, b] = base.split("__");
    if (!a || !b) return { files: [], missing: [`an "<a>__<b>" sample name (found ${base})`] };
    files = [need(findImage(dir, a), `${a}_image.*`), need(`${a}${overlaySuffix(leaf)}`, `${a}${overlaySuffix(leaf)}`), need(findImage(dir, b), `${b}_image.*`)];
  } else {
    const overlay = overlaySuffix(leaf);
    files = [need(findImage(dir, base), `${base}_image.*`), ...(overlay ? [need(`${base}${overlay}`, `${base}${overlay}`)] : [])];
  }
  return { files: files.filter((f): f is string => f !== undefined), missing };
}

function readSample(dataRoot: DataRoot, file: string, rel: string, leaf: LeafTask, problems: DataProblem[], requests?: RequestOptions): EpicItem | undefined {
  const before = problemCount(problems);
  const root = dataRoot.dir;
  const base = path.basename(file).slice(0, -GT_SUFFIX.length);
  const { files, missing } = imagesOf(path.dirname(file), base, leaf);
  for (const m of missing) problems.push({ file: rel, field: "images", message: `missing ${m} next to the ground truth` });
  // Images are found by name in the sample's folder; a link out of the root or a file that is not
  // an image is refused like any other dataset path.
  const images = files.map((image) => {
    const checked = dataRoot.resolve(path.relative(root, image), "image");
    if (checked.ok) return checked.path;
    problems.push({ file: rel, field: "images", message: checked.message });
    return image;
  });

  const read = dataRoot.readText(rel, { what: "ground-truth file" });
  if (!read.ok) {
    problems.push({ file: rel, message: read.message });
    return undefined;
  }
  const parsed = parseJson(read.text);
  if (!parsed.ok) {
    problems.push({ file: rel, message: parsed.message });
    return undefined;
  }
  const obj = (parsed.value ?? {}) as Record<string, unknown>;
  const maskAnnotation = obj["mask_annotation"];
  const text = obj["text_annotation"];
  if (typeof maskAnnotation !== "object" || maskAnnotation === null || Array.isArray(maskAnnotation)) {
    problems.push({ file: rel, field: "mask_annotation", message: "must be an object of RLE lists" });
    return undefined;
  }
  if (typeof text !== "object" || text === null || Array.isArray(text)) problems.push({ file: rel, field: "text_annotation", message: "must be an object" });

  const masks: Record<string, RleJson[]> = {};
  let size: [number, number] | undefined;
  let samplePixels = 0;
  const refused = new Set<string>();
  for (const [field, value] of Object.entries(maskAnnotation as Record<string, unknown>)) {
    if (!field.startsWith("masklet_")) continue;
    const list = Array.isArray(value) ? value : value && typeof value === "object" ? [value] : null;
    if (!list) {
      problems.push({ file: rel, field: `mask_annotation.${field}`, message: "must be a list of RLEs ([] for no target)" });
      continue;
    }
    if (list.length > MAX_MASKS_PER_FIELD) {
      problems.push({ file: rel, field: `mask_annotation.${field}`, message: `holds ${list.length} masks; a field may hold at most ${MAX_MASKS_PER_FIELD}` });
      refused.add(field);
      continue;
    }
    list.forEach((rle, i) => {
      try {
        const runs = readRle(rle);
        // A few bytes of RLE unpack to height x width pixels: bounded before scoring unpacks them (core/limits.ts).
        const pixels = runs.height * runs.width;
        if (pixels > MAX_MASK_PIXELS) {
          problems.push({ file: rel, field: `mask_annotation.${field}[${i}]`, message: `bad RLE: size [${runs.height}, ${runs.width}] is more than the ${MAX_MASK_PIXELS} pixels a mask may have` });
          return;
        }
        samplePixels += pixels;
        if (samplePixels > MAX_MASK_PIXELS_PER_SAMPLE) {
          // Said once, at the mask that crosses the budget.
          if (samplePixels - pixels <= MAX_MASK_PIXELS_PER_SAMPLE) problems.push({ file: rel, field: `mask_annotation.${field}[${i}]`, message: `the sample's masks hold more than ${MAX_MASK_PIXELS_PER_SAMPLE} pixels together, the most one sample may unpack` });
          return;
        }
        size ??= [runs.height, runs.width];
      } catch (error) {
        if (!(error instanceof RleError)) throw error;
        problems.push({ file: rel, field: `mask_annotation.${field}[${i}]`, message: `bad RLE: ${error.message}` });
      }
    });
    masks[field] = list as RleJson[];
  }
  const fields = gtFields(leaf);
  for (const needed of [fields.localizationMask, fields.pathMask, fields.targetAreaMask]) {
    if (needed && !(needed in masks) && !refused.has(needed)) problems.push({ file: rel, field: `mask_annotation.${needed}`, message: "missing (the task is scored on it)" });
  }
  if (problemCount(problems) > before) return undefined;
  // Scored size: the scored mask's (Visual Matching: image b's, which its mask has).
  const scored = masks[fields.localizationMask ?? fields.pathMask ?? ""]?.[0];
  const [height, width] = scored ? [scored.size[0], scored.size[1]] : size ?? [0, 0];
  const item: EpicItem = {
    id: rel,
    task: leaf.byType,
    cluster: rel,
    leaf,
    images,
    imageRefs: files.map((f) => path.relative(root, f).split(path.sep).join("/")),
    text: promptText(obj, leaf),
    masks,
    height,
    width,
    gtFile: file,
  };
  if (requests) appendAll(problems, epicRequestProblems(item, rel, requests));
  return item;
}
