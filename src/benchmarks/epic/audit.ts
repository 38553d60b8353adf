/**
 * EPIC-Bench's part of `spatialprobe audit` (src/audit/types.ts): can a sample be answered
 * without looking?
 *
 * Answers are boxes, counts, feasibility and paths scored against masks (paper Sec. 4.2), so a
 * blind model answers by choosing among constant-shaped replies (audit-menu.ts): no target, the
 * whole image, halves, thirds, quadrants, the centre box (with count 1 or 2 where the task counts,
 * feasible or not for Placement Region), or one of ten fixed routes for Feasible Path. Each
 * candidate's label is the credit its reply earns from the benchmark's scorer (fractional: IoU
 * and path scores), so the forest learns which constant shape fits which description.
 *
 * Text: the prompt's text parts as the benchmark builds them (prompt.ts, templates/epic.yaml,
 * mask-overlay, absolute coordinates, the coordinates our replies use), without the pictures.
 * Features: the task, the description's length, a number it states, how many references it
 * lists, the image size. Cues (audit-cues.ts): luminance, saturation and edges of the image
 * halves and of each candidate's region or route, and where the overlay tints the picture; never
 * a ground-truth mask. Labels use the default scoring (official rules, "auto" coordinates).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AuditUnit, BenchmarkAudit, BlindRule, Candidate, Headline } from "../../audit/types.js";
import { DataRoot, followUserPath, isInside } from "../../core/dataroot.js";
import { readRegularFile } from "../../core/file-read.js";
import { imageDimensions } from "../../media/dimensions.js";
import { DataError } from "../../core/problems.js";
import { boxCues, itemCues, readPictures, routeCues, type ItemPictures } from "./audit-cues.js";
import { boxTruth, entryReply, HALF_SHAPES, menuCredits, menuOf, pixelBox, pixelRoute, replyJson, replyKind, ROUTES, SHAPES, type BoxTruth, type MenuEntry, type ReplyKind } from "./audit-menu.js";
import { buildEpicMessages, loadEpicTemplates, textFieldsOf, type EpicTemplates } from "./prompt.js";
import { gtFields, LEAF_TASKS, overlaySuffix, type LeafTask } from "./taxonomy.js";
import type { EpicItem } from "./types.js";
import { groundTruth } from "./score.js";
import { decodeRleUnion } from "../../geometry/rle.js";
import { choiceCandidates } from "../../audit/units.js";

/** The headline of every task: the mean sample score (paper Sec. 4.2 and Table 2; summarize()'s tasks[...].mean_score). */
export const HEADLINE_METRIC = "mean score";

const LEAF_BY_TASK = new Map(LEAF_TASKS.map((l) => [l.byType, l]));
const tasksOf = (kinds: readonly ReplyKind[]) => LEAF_TASKS.filter((l) => kinds.includes(replyKind(l))).map((l) => l.byType);
export const BOX_TASKS = tasksOf(["counted", "boxes", "placement"]);
export const PATH_TASKS = tasksOf(["path"]);
/** Box tasks shown an overlay of the reference (VM, AR, CR, PR). */
export const OVERLAY_BOX_TASKS = LEAF_TASKS.filter((l) => overlaySuffix(l) !== undefined && replyKind(l) !== "path").map((l) => l.byType);

const MENUS = new Map<ReplyKind, MenuEntry[]>((["counted", "boxes", "placement", "path"] as const).map((k) => [k, menuOf(k)]));

// ------------------------------------------------------------------ text and features

/** The start of a PNG file: enough for the prompt builder to take it for a picture (media/sniff.ts), so no picture is read. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The text parts of the mask-overlay prompt (system, then user), pictures left out. */
export async function promptTextOf(item: EpicItem, templates: EpicTemplates): Promise<string> {
  try {
    const messages = await buildEpicMessages(item, { templates, variant: "mask-overlay", coordMode: "absolute", readImage: () => PNG_SIGNATURE });
    return messages.flatMap((m) => m.content.flatMap((p) => (p.type === "text" ? [p.text] : []))).join("\n");
  } catch {
    return item.task; // a sample the prompt cannot be built for (the loader reports why)
  }
}

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/** The first number a description states (digits or a word up to ten), or -1. */
export function statedNumber(text: string): number {
  for (const word of text.toLowerCase().match(/[a-z]+|\d+/g) ?? []) {
    if (/^\d+$/.test(word)) return Number(word);
    const k = NUMBER_WORDS.indexOf(word);
    if (k >= 0) return k;
  }
  return -1;
}

function descriptionOf(item: EpicItem): string {
  try {
    return Object.values(textFieldsOf(item)).join(" ");
  } catch {
    return "";
  }
}

function itemFeatures(item: EpicItem): Record<string, number> {
  const description = descriptionOf(item);
  const words = description.split(/\s+/).filter(Boolean);
  return {
    task: LEAF_TASKS.findIndex((l) => l.byType === item.task),
    description_words: words.length,
    description_chars: description.length,
    stated_number: statedNumber(description),
    // Contact Relationship types two and three list their references separated by commas (prompt.ts normalizeReferenceObjects).
    listed_parts: description ? description.split(",").length : 0,
    image_width: item.width,
    image_height: item.height,
  };
}

function candidateFeatures(entry: MenuEntry, index: number): Record<string, number> {
  if (entry.route !== undefined) {
    const pts = ROUTES[entry.route]!.points;
    let length = 0;
    for (let i = 1; i < pts.length; i++) length += Math.hypot(pts[i]![0] - pts[i - 1]![0], pts[i]![1] - pts[i - 1]![1]);
    const [s, e] = [pts[0]!, pts[pts.length - 1]!];
    return { menu_index: index, route: entry.route, start_x: s[0], start_y: s[1], end_x: e[0], end_y: e[1], route_length: length };
  }
  const box = SHAPES[entry.shape!]!.box;
  return {
    menu_index: index,
    shape: entry.shape!,
    is_empty: box ? 0 : 1,
    area: box ? (box[2] - box[0]) * (box[3] - box[1]) : 0,
    cx: box ? (box[0] + box[2]) / 2 : -1,
    cy: box ? (box[1] + box[3]) / 2 : -1,
    box_w: box ? box[2] - box[0] : 0,
    box_h: box ? box[3] - box[1] : 0,
    count: entry.count ?? -1,
    feasible: entry.feasible === undefined ? -1 : entry.feasible ? 1 : 0,
  };
}

/** Row and column of a point in fractions, as a 3 x 3 cell name. */
function cellName(x: number, y: number): string {
  const row = ["top", "middle", "bottom"][Math.min(2, Math.max(0, Math.floor(y * 3)))]!;
  const col = ["left", "centre", "right"][Math.min(2, Math.max(0, Math.floor(x * 3)))]!;
  return `${row} ${col}`;
}

/**
 * The right answer's class: the count where the task counts (5+ pooled, as Fig. 4); else where the
 * target's centroid lies on a 3 x 3 grid ("empty" for no target; placement also says infeasible);
 * for paths where the target area lies.
 */
function answerClassOf(item: EpicItem, kind: ReplyKind, truth: BoxTruth | null): string {
  if (kind === "counted") {
    const n = truth!.gt.count;
    return n === null ? "count unknown" : n >= 5 ? "count 5+" : `count ${n}`;
  }
  if (kind === "path") {
    const area = decodeRleUnion(item.masks[gtFields(item.leaf).targetAreaMask!] ?? [], { strict: false });
    let n = 0, sx = 0, sy = 0;
    area?.forEachPixel((x, y) => { n++; sx += x + 0.5; sy += y + 0.5; });
    return n === 0 ? "target area none" : `target area ${cellName(sx / n / area!.width, sy / n / area!.height)}`;
  }
  const where = truth!.empty || Number.isNaN(truth!.cx) ? "empty" : cellName(truth!.cx, truth!.cy);
  return kind === "placement" && groundTruth(item).feasibility === false ? `infeasible, ${where}` : where;
}

// ------------------------------------------------------------------ units

/** The item's pictures, each checked to be an image inside the dataset root. */
async function picturesOf(item: EpicItem, dataRoot: DataRoot): Promise<ItemPictures> {
  const files = item.imageRefs.map((ref) => {
    const found = dataRoot.resolve(ref, "image");
    if (!found.ok) throw new DataError([{ file: item.id, field: "images", message: found.message }]);
    return found.path;
  });
  return readPictures(files, overlaySuffix(item.leaf) !== undefined);
}

async function unitOf(item: EpicItem, templates: EpicTemplates, pictures: ItemPictures | null): Promise<AuditUnit> {
  const kind = replyKind(item.leaf);
  const menu = MENUS.get(kind)!;
  const truth = kind === "path" ? null : boxTruth(item);
  const credits = menuCredits(item, menu, truth ?? undefined);
  const candidates: Candidate[] = menu.map((entry, i) => ({
    reply: entryReply(item.leaf, entry, item.width, item.height),
    label: credits[i]!,
    features: candidateFeatures(entry, i),
    text: entry.name,
    ...(pictures ? { cues: entry.route !== undefined ? routeCues(pictures, ROUTES[entry.route]!.points) : boxCues(pictures, SHAPES[entry.shape!]!.box) } : {}),
  }));
  return {
    id: item.id,
    task: item.task,
    cluster: item.cluster,
    text: await promptTextOf(item, templates),
    prompt: { variant: "mask-overlay", coords: "absolute" },
    features: itemFeatures(item),
    ...(pictures ? { cues: itemCues(pictures) } : {}),
    answer: { kind: "choice", candidates },
    answerClass: answerClassOf(item, kind, truth),
  };
}

/** Pictures are read a few items at a time (sharp decodes on its own threads). */
const PICTURE_BATCH = 8;

/**
 * The item with its picture's size: the loader takes the size from the masks, and a sample with
 * no target and no other mask has none (0 x 0); the picture's header gives it. Left at 0, the size
 * was a feature that told "no target" to the text forest (TsT 46.5 on Geometry, where no model sees
 * such a thing: every picture it gets has its size).
 */
function withPictureSize(item: EpicItem, dataRoot: DataRoot): EpicItem {
  if (item.width > 0 && item.height > 0) return item;
  const ref = item.imageRefs[0];
  const found = ref === undefined ? null : dataRoot.resolve(ref, "image");
  if (!found?.ok) throw new DataError([{ file: item.id, field: "images", message: found ? found.message : "no image" }]);
  const size = imageDimensions(found.path);
  if (!size) throw new DataError([{ file: item.id, field: "images", message: `${ref}: not a picture whose size can be read` }]);
  return { ...item, width: size.width, height: size.height };
}

async function units(items: EpicItem[], options: { root: string; cues: boolean }): Promise<AuditUnit[]> {
  const templates = loadEpicTemplates();
  const dataRoot = new DataRoot(followUserPath(path.resolve(options.root)));
  const out: AuditUnit[] = [];
  for (let start = 0; start < items.length; start += PICTURE_BATCH) {
    const batch = items.slice(start, start + PICTURE_BATCH).map((item) => withPictureSize(item, dataRoot));
    const pictures = options.cues ? await Promise.all(batch.map((item) => picturesOf(item, dataRoot))) : batch.map(() => null);
    for (const [i, item] of batch.entries()) out.push(await unitOf(item, templates, pictures[i]!));
  }
  return out;
}

// ------------------------------------------------------------------ rules


/** The unit's candidate for a shape, stating count 1 / feasible where the task asks (count 0 / not feasible for "empty"). */
function shapeReply(unit: AuditUnit, shapeName: string): string {
  const shape = SHAPES.findIndex((s) => s.name === shapeName);
  const empty = SHAPES[shape]!.box === null;
  const hit = choiceCandidates(unit).find((c) => c.features["shape"] === shape && [-1, empty ? 0 : 1].includes(c.features["count"]!) && [-1, empty ? 0 : 1].includes(c.features["feasible"]!));
  return hit?.reply ?? "";
}

function routeReply(unit: AuditUnit, route: number): string {
  return choiceCandidates(unit).find((c) => c.features["route"] === route)?.reply ?? "";
}

/** A reply built from fractions for the unit's task and image size (cue rules). */
function freeReply(unit: AuditUnit, answer: { box?: readonly [number, number, number, number]; points?: ReadonlyArray<readonly [number, number]> }): string {
  const leaf = LEAF_BY_TASK.get(unit.task) as LeafTask;
  const [W, H] = [unit.features["image_width"]!, unit.features["image_height"]!];
  if (answer.points) return replyJson(leaf, { points: pixelRoute(answer.points, W, H) });
  return replyJson(leaf, { boxes: [pixelBox(answer.box!, W, H)!], count: 1, feasible: true });
}

const constant = (name: string, describe: string, tasks: readonly string[], reply: (unit: AuditUnit) => string): BlindRule => ({ name, describe, tasks, fit: () => reply });

/** For each task, the menu entry with the best mean credit on the training units (ties: the earlier entry). */
export const bestConstantPerTask: BlindRule = {
  name: "best-constant-per-task",
  describe: "per task, the constant reply (menu entry: shape, count, feasibility or route) with the best mean credit on the training folds",
  fit(train) {
    const sums = new Map<string, number[]>();
    for (const unit of train) {
      const cands = choiceCandidates(unit);
      const s = sums.get(unit.task) ?? new Array<number>(cands.length).fill(0);
      cands.forEach((c, i) => (s[i] = (s[i] ?? 0) + c.label));
      sums.set(unit.task, s);
    }
    const best = new Map([...sums].map(([task, s]) => [task, s.reduce((b, v, i) => (v > s[b]! ? i : b), 0)]));
    // A task not seen in training falls back to the first menu entry with a box (the whole image) or the first route.
    return (unit) => {
      const cands = choiceCandidates(unit);
      const i = best.get(unit.task) ?? cands.findIndex((c) => c.features["is_empty"] !== 1);
      return cands[Math.max(0, i)]?.reply ?? "";
    };
  },
};

/** The half of the image whose cells have the weakest edges (a floor is smooth). */
const smoothestHalf: BlindRule = {
  name: "smoothest-half",
  describe: "cue: the half of the image (top, bottom, left, right) with the weakest luminance edges, count 1, feasible",
  tasks: BOX_TASKS,
  cue: true,
  fit: () => (unit) => {
    let best = shapeReply(unit, "bottom half"), bestEdge = Infinity;
    for (const name of HALF_SHAPES) {
      const shape = SHAPES.findIndex((s) => s.name === name);
      const c = choiceCandidates(unit).find((k) => k.features["shape"] === shape && [-1, 1].includes(k.features["count"]!) && [-1, 1].includes(k.features["feasible"]!));
      const edge = c?.cues?.["edge"];
      if (c && edge !== undefined && edge < bestEdge) [best, bestEdge] = [c.reply, edge];
    }
    return best;
  },
};

/** One box around the cells the overlay tints. */
const tintBox: BlindRule = {
  name: "overlay-tint-box",
  describe: "cue: one box around the cells the overlay image tints (where it differs from the scene), count 1, feasible; the whole image when nothing is tinted",
  tasks: OVERLAY_BOX_TASKS,
  cue: true,
  fit: () => (unit) => {
    const c = unit.cues;
    if (!c || !(c["tint_x0"]! >= 0)) return shapeReply(unit, "whole image");
    return freeReply(unit, { box: [c["tint_x0"]!, c["tint_y0"]!, c["tint_x1"]!, c["tint_y1"]!] });
  },
};

/** A route to the tinted target area: from the bottom centre (first person) or between the two tinted parts (third person). */
const pathToTint: BlindRule = {
  name: "path-to-tint",
  describe: "cue: a three-point route from the bottom centre to the centre of the tinted target area; in third-person views between the centres of the tint's two halves; straight up the middle when nothing is tinted",
  tasks: PATH_TASKS,
  cue: true,
  fit: () => (unit) => {
    const c = unit.cues;
    if (!c || !(c["tint_cx"]! >= 0)) return routeReply(unit, 0);
    const exo = unit.task.endsWith("FeasiblePath_Exo") && c["tint_ax"]! >= 0 && c["tint_bx"]! >= 0;
    const from: [number, number] = exo ? [c["tint_ax"]!, c["tint_ay"]!] : [0.5, 1];
    const to: [number, number] = exo ? [c["tint_bx"]!, c["tint_by"]!] : [c["tint_cx"]!, c["tint_cy"]!];
    return freeReply(unit, { points: [from, [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2], to] });
  },
};

export const epicRules: BlindRule[] = [
  constant("empty", "no target: no box, count 0 where the task counts, not feasible (Placement Region)", BOX_TASKS, (u) => shapeReply(u, "empty")),
  constant("whole-image", "one box over the whole image, count 1, feasible (the full-image baseline)", BOX_TASKS, (u) => shapeReply(u, "whole image")),
  constant("bottom-half", "one box over the bottom half of the image, count 1, feasible", BOX_TASKS, (u) => shapeReply(u, "bottom half")),
  constant("centre", "the image centre: one box over the middle half of each side (count 1, feasible); on path tasks a route from the bottom centre up to the centre point", [...BOX_TASKS, ...PATH_TASKS], (u) => (PATH_TASKS.includes(u.task) ? routeReply(u, 1) : shapeReply(u, "centre box"))),
  constant("straight-path", "a straight path up the middle: bottom centre, centre, top centre (the full-image baseline's route)", PATH_TASKS, (u) => routeReply(u, 0)),
  constant("count-2", "one box over the whole image with count 2 (tasks that count)", tasksOf(["counted"]), (u) => choiceCandidates(u).find((c) => c.features["shape"] === 1 && c.features["count"] === 2)?.reply ?? ""),
  bestConstantPerTask,
  smoothestHalf,
  tintBox,
  pathToTint,
];

// ------------------------------------------------------------------ scoring hooks

function headline(summary: { score: number | null; tasks: Record<string, Record<string, unknown>>; [key: string]: unknown }, task: string): Headline {
  if (task === "overall") {
    const ci = summary["score_ci"];
    return { metric: HEADLINE_METRIC, score: summary.score, ci: Array.isArray(ci) && ci.length === 2 ? [ci[0] as number, ci[1] as number] : null };
  }
  const bucket = summary.tasks[task];
  const mean = bucket?.["mean_score"];
  // summarize() keeps a task only when it scored samples; per-task intervals it does not compute.
  return { metric: HEADLINE_METRIC, score: typeof mean === "number" && (bucket?.["total_processed"] as number) > 0 ? mean : null, ci: null, meanOfCredit: true };
}

/** A sample's credit: its score (a weighted mean of components in [0, 1]). */
function credit(_item: EpicItem, detail: Record<string, unknown>): number {
  const s = detail["score"];
  return typeof s === "number" && Number.isFinite(s) ? Math.min(1, Math.max(0, s)) : 0;
}

/**
 * No EPIC task has an exact chance level: every score is an IoU, a path score or a weighted mix of
 * them with counts, whose value under a random reply depends on the random model chosen.
 */
function chance(_items: EpicItem[], _task: string): number | null {
  return null;
}

/**
 * The kept samples in the release layout: each one's ground-truth file and images (Visual Matching's
 * shared pictures once), byte for byte at the same paths below outDir, plus the root's ATTRIBUTION
 * when there is one. Every file read is checked to be a regular file inside the root.
 */
async function writeSubset(root: string, items: EpicItem[], keep: ReadonlySet<string>, outDir: string): Promise<void> {
  const dataRoot = new DataRoot(followUserPath(path.resolve(root)));
  const out = path.resolve(outDir);
  const files = new Set<string>();
  for (const item of items) {
    if (!keep.has(item.id)) continue;
    files.add(item.id);
    for (const ref of item.imageRefs) files.add(ref);
  }
  const attribution = dataRoot.resolve("ATTRIBUTION", "file");
  if (attribution.ok) files.add("ATTRIBUTION");
  for (const rel of [...files].sort()) {
    const found = dataRoot.resolve(rel, "file");
    if (!found.ok) throw new DataError([{ file: rel, message: found.message }]);
    const dest = path.resolve(out, rel);
    if (!isInside(out, dest)) throw new DataError([{ file: rel, message: "does not lie below the dataset root; not copied" }]);
    mkdirSync(path.dirname(dest), { recursive: true });
    writeFileSync(dest, readRegularFile(found.path));
  }
}

export const epicAudit: BenchmarkAudit<EpicItem> = { units, rules: epicRules, credit, headline, chance, overallMetric: "Overall", writeSubset };
