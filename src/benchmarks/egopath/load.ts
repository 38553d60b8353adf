import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { DataRoot, type DataRootOptions, type Resolved } from "../../core/dataroot.js";
import { tryReadText } from "../../core/file-read.js";
import { parseJson, readJsonObjects } from "../../core/jsonl.js";
import { COORDINATE_LIMIT_M, MAX_DISTANCE_M, MAX_ROBOT_SIZE_M, rangeProblem } from "../../core/limits.js";
import { appendAll, countOmitted, DataError, omittedProblems, problemCount, problemList, shownValue, type DataProblem } from "../../core/problems.js";
import { pyFloat } from "../../core/pycompat/float.js";
import { pyIntFromString } from "../../core/pycompat/int.js";
import { pyStr } from "../../core/pycompat/keys.js";
import { releasePaths, TASK_CODES, isRouteTask, type TaskCode } from "./tasks.js";
import type { Adjacency, EgoPathItem, RouteItem, SetItem, Waypoint } from "./types.js";
import type { RequestOptions } from "../requests.js";
import { egopathRequestProblems } from "./check.js";
import { displayToGraph, graphFileCandidates, gridPoint, isEmbodiedRoutingRow, parseWaypointGraph, sceneDirOf, usesDirectPairs, type WaypointGraph } from "./waypoint-graph.js";

/**
 * Ground-truth fields that the official evaluator copies from gt_next_<task>.jsonl into a vqa row
 * when the row's own ground_truth lacks them (missing or null).
 */
const GT_FILL_FIELDS = [
  "start_id", "goal_id", "goal_ids", "path_ids", "optimal_length_m", "canonical_sparse_length_m",
  "target_id", "resolved_goal_display_id", "label", "intent_family", "intent_strength",
  "residual_cue_type", "route_source_task", "route_semantics", "candidate_inventory_ref",
  "acceptable_goal_ids", "goal_ring_min_distance_m", "goal_ring_threshold_m",
  "reference_path_display_ids", "direct_pairs_ref", "robot_diameter_m", "target_category",
  "canonical_category",
];

export interface LoadOptions extends DataRootOptions {
  /** Tasks to load; default: every task whose vqa file exists. */
  tasks?: TaskCode[];
  /** The split to read (default "benchmark", what the evaluator scores); see splitFolders. */
  split?: Split;
  /** Also check what requests with this prompt source and control need (check.ts). */
  requests?: RequestOptions;
}

export interface LoadResult {
  root: string;
  tasks: TaskCode[];
  items: EgoPathItem[];
  problems: DataProblem[];
}

/** The release's splits, formed by source group so no scan crosses them (paper §3). */
export const SPLITS = ["benchmark", "train", "val"] as const;
export type Split = (typeof SPLITS)[number];

/** Where one split's vqa/ and gt/ files are, relative to the dataset root. */
export interface SplitLayout {
  vqa: (task: TaskCode) => string;
  gt: (task: TaskCode) => string;
}

/**
 * The folders a split may live in, in the order they are tried. The benchmark split is the
 * evaluation package the official evaluator reads (benchmark_evalfix/benchmark); train and val are
 * where the public release puts them (release/<split>/{vqa,gt}/, EgoPathBench
 * scripts/prepare_public_dataset.py), or beside the benchmark split (benchmark_evalfix/<split>/).
 */
export function splitFolders(split: Split): string[] {
  return split === "benchmark" ? ["benchmark_evalfix/benchmark"] : [`release/${split}`, `benchmark_evalfix/${split}`];
}

function folderLayout(folder: string): SplitLayout {
  return {
    vqa: (task) => `${folder}/vqa/vqa_next_${task}.jsonl`,
    gt: (task) => `${folder}/gt/gt_next_${task}.jsonl`,
  };
}

/** The layout of a split under `root`: the first of its folders holding a vqa file (else the first). */
export function splitLayout(root: string, split: Split = "benchmark"): SplitLayout {
  if (split === "benchmark") return releasePaths;
  const layouts = splitFolders(split).map(folderLayout);
  return layouts.find((layout) => TASK_CODES.some((t) => existsSync(path.join(root, layout.vqa(t))))) ?? layouts[0]!;
}

/** Tasks whose vqa file exists under the dataset root (in the benchmark split unless told). */
export function availableTasks(root: string, split: Split = "benchmark"): TaskCode[] {
  const layout = splitLayout(root, split);
  return TASK_CODES.filter((t) => existsSync(path.join(root, layout.vqa(t))));
}

/**
 * Load an EgoPathBench release (or a set in the same layout) and check every row. Problems are
 * collected, never thrown, so `validate` can list them all.
 */
export function loadRelease(root: string, options: LoadOptions = {}): LoadResult {
  const absRoot = path.resolve(root);
  const problems = problemList();
  if (!existsSync(absRoot) || !statSync(absRoot).isDirectory()) {
    problems.push({ file: root, message: "dataset root does not exist or is not a folder" });
    return { root: absRoot, tasks: [], items: [], problems };
  }
  const split = options.split ?? "benchmark";
  const layout = splitLayout(absRoot, split);
  const tasks = options.tasks ?? availableTasks(absRoot, split);
  if (tasks.length === 0) {
    const looked = split === "benchmark" ? "" : ` for the ${split} split (looked in ${splitFolders(split).map((f) => `${f}/vqa/`).join(" and ")})`;
    problems.push({
      file: layout.vqa("a1").replace("_a1", "_<task>"),
      message: `no vqa files found${looked}: --data must point at the release root (the folder holding benchmark_evalfix/ and assets/)`,
    });
  }
  const items: EgoPathItem[] = [];
  const cache: FileCache = { files: new Map(), rowUsedBadFile: false };
  const dataRoot = new DataRoot(absRoot, options);
  for (const task of tasks) appendAll(items, loadTask(dataRoot, layout, task, problems, cache));
  if (options.requests) appendAll(problems, egopathRequestProblems(items, options.requests));
  return { root: absRoot, tasks, items, problems: dedupe(problems) };
}

/** Load and throw a DataError listing every problem, if any. */
export function loadReleaseOrThrow(root: string, options: LoadOptions = {}): LoadResult {
  const result = loadRelease(root, options);
  if (result.problems.length > 0) throw new DataError(result.problems);
  return result;
}

/**
 * Shared files (visible waypoints, sidecars) are read and checked once per load, and their problems
 * reported once (a file shared by 10,000 rows must not fill the bounded problem list with copies).
 * `rowUsedBadFile` marks the row being checked when a file it reads had problems: the row is refused.
 */
interface FileCache {
  files: Map<string, { value: unknown; problems: DataProblem[] }>;
  rowUsedBadFile: boolean;
}

function cached<T>(cache: FileCache, key: string, problems: DataProblem[], read: (sink: DataProblem[]) => T): T {
  let entry = cache.files.get(key);
  if (!entry) {
    const sink = problemList();
    entry = { value: read(sink), problems: sink };
    cache.files.set(key, entry);
    appendAll(problems, sink);
  }
  if (problemCount(entry.problems) > 0) cache.rowUsedBadFile = true;
  return entry.value as T;
}

/** The same defect in a shared file is reported once (among the problems kept; the others stay counted). */
function dedupe(problems: DataProblem[]): DataProblem[] {
  const seen = new Set<string>();
  const out = problemList();
  for (const p of problems) {
    const key = `${p.file}|${p.line}|${p.field}|${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  countOmitted(out, omittedProblems(problems));
  return out;
}

function loadTask(dataRoot: DataRoot, layout: SplitLayout, task: TaskCode, problems: DataProblem[], cache: FileCache): EgoPathItem[] {
  const vqaRef = layout.vqa(task);
  const vqa = dataRoot.resolve(vqaRef, "file", { what: "vqa file" });
  if (!vqa.ok) {
    problems.push({ file: vqaRef, message: vqa.missing ? `missing vqa file for task ${task}` : vqa.message });
    return [];
  }
  const rows = readJsonObjects(vqa.path, vqaRef, problems);
  const gtRows = loadGtRows(dataRoot, layout, task, problems);
  const seen = new Map<string, number>();
  const items: EgoPathItem[] = [];
  // Legacy-graph rows: the evaluator picks the point or embodied graph from the file's first row.
  const embodiedGraph = rows.length > 0 && isEmbodiedRoutingRow(mergeGroundTruth(rows[0]!.value, gtRows));
  for (const { line, value } of rows) {
    const merged = mergeGroundTruth(value, gtRows);
    const at = { file: vqaRef, line };
    const item = checkRow(dataRoot, task, embodiedGraph, merged, at, problems, cache);
    if (!item) continue;
    const previous = seen.get(item.id);
    if (previous !== undefined) {
      problems.push({ ...at, field: "question_id", message: `duplicate question_id ${item.id} (first on line ${previous})` });
      continue;
    }
    seen.set(item.id, line);
    items.push(item);
  }
  return items;
}

function loadGtRows(dataRoot: DataRoot, layout: SplitLayout, task: TaskCode, problems: DataProblem[]): Map<string, Record<string, unknown>> {
  const gtRef = layout.gt(task);
  const gt = dataRoot.resolve(gtRef, "file", { what: "gt file" });
  const byId = new Map<string, Record<string, unknown>>();
  if (!gt.ok) {
    if (!gt.missing) problems.push({ file: gtRef, message: gt.message });
    return byId;
  }
  for (const { value } of readJsonObjects(gt.path, gtRef, problems)) {
    const qid = value["question_id"];
    if (qid !== null && qid !== undefined) byId.set(pyStr(qid), value);
  }
  return byId;
}

/** Fill missing/null routing fields of the row's ground_truth from the gt file (official rule). */
export function mergeGroundTruth(
  row: Record<string, unknown>,
  gtRows: Map<string, Record<string, unknown>>,
): Record<string, unknown> {
  const gtRow = gtRows.get(pyStr(row["question_id"]));
  if (!gtRow) return row;
  const groundTruth = isObject(row["ground_truth"]) ? { ...row["ground_truth"] } : {};
  for (const key of GT_FILL_FIELDS) {
    if (groundTruth[key] == null && gtRow[key] != null) groundTruth[key] = gtRow[key];
  }
  return { ...row, ground_truth: groundTruth };
}

interface Where {
  file: string;
  line: number;
}

function checkRow(
  dataRoot: DataRoot,
  task: TaskCode,
  embodiedGraph: boolean,
  row: Record<string, unknown>,
  at: Where,
  problems: DataProblem[],
  cache: FileCache,
): EgoPathItem | undefined {
  const before = problemCount(problems);
  cache.rowUsedBadFile = false;
  const report = (field: string, message: string) => problems.push({ ...at, field, message });

  const rawId = row["question_id"];
  const idOk = typeof rawId === "string" || (typeof rawId === "number" && Number.isSafeInteger(rawId));
  if (!idOk) report("question_id", "must be a string or an integer");
  if (row["task"] !== task) report("task", `expected "${task}" (the file's task), found ${shownValue(row["task"])}`);
  const sceneId = row["scene_id"];
  if (typeof sceneId !== "string" && typeof sceneId !== "number") report("scene_id", "must be a string or a number");

  const imageRef = requireString(row, "image_path", report);
  const image = imageRef !== undefined ? dataRoot.resolve(imageRef, "image", { what: "image file" }) : undefined;
  if (image && !image.ok) report("image_path", image.message);
  const imagePath = image?.ok ? image.path : "";

  const userPrompt = requireString(row, "user_prompt", report);
  const systemPrompt = row["system_prompt"] === undefined ? "" : requireString(row, "system_prompt", report);

  const waypointsRef = requireString(row, "visible_waypoints_path", report);
  const waypointsFile = waypointsRef !== undefined ? dataRoot.resolve(waypointsRef, "file", { what: "visible-waypoints file" }) : undefined;
  let waypoints: Waypoint[] | undefined;
  if (waypointsFile && !waypointsFile.ok) report("visible_waypoints_path", waypointsFile.message);
  else if (waypointsFile?.ok) {
    waypoints = cached(cache, `wp:${waypointsRef}`, problems, (sink) => readWaypoints(waypointsFile.path, waypointsRef!, sink));
  }

  const gt = row["ground_truth"];
  if (!isObject(gt)) {
    report("ground_truth", "must be an object");
    return undefined;
  }
  groundTruthLengths(gt, report);
  const base = {
    id: plainString(rawId),
    rawId: rawId as string | number,
    task,
    sceneId: plainString(sceneId),
    cluster: plainString(sceneId),
    viewId: plainString(row["view_id"] ?? ""),
    imagePath,
    imageRef: imageRef ?? "",
    systemPrompt: systemPrompt ?? "",
    userPrompt: userPrompt ?? "",
    waypoints: waypoints ?? [],
    groundTruth: gt,
    source: at,
  };
  const item = isRouteTask(task)
    ? routeItem(dataRoot, embodiedGraph, row, gt, base, waypointsRef, at, problems, cache)
    : setItem(gt, base, waypoints, report);
  return problemCount(problems) === before && !cache.rowUsedBadFile ? item : undefined;
}

type Report = (field: string, message: string) => void;

/** JSON text of a value for a message; numbers JSON cannot write (1e400 reads as Infinity) as themselves. */

/**
 * Optional ground-truth sizes and distances, metres (core/limits.ts): when given, Python float() of
 * each must be a finite number from 0 to its physical maximum. A robot is at most 10 m wide; a
 * route or ring radius at most 100 km. (A negative robot_diameter_m once passed validate.)
 */
const GROUND_TRUTH_METRES: ReadonlyArray<[key: string, max: number]> = [
  ["robot_diameter_m", MAX_ROBOT_SIZE_M],
  ["canonical_sparse_length_m", MAX_DISTANCE_M],
  ["goal_ring_min_distance_m", MAX_DISTANCE_M],
  ["goal_ring_threshold_m", MAX_DISTANCE_M],
];

function groundTruthLengths(gt: Record<string, unknown>, report: Report): void {
  for (const [key, max] of GROUND_TRUTH_METRES) {
    const raw = gt[key];
    if (raw == null) continue;
    const value = pyFloat(raw);
    const problem = value === null ? `must be a number, found ${shownValue(raw)}` : rangeProblem(value, 0, max, " (metres)");
    if (problem) report(`ground_truth.${key}`, problem);
  }
}
type Base = Omit<SetItem, "kind" | "candidates" | "positives">;

function setItem(gt: Record<string, unknown>, base: Base, waypoints: Waypoint[] | undefined, report: Report): SetItem | undefined {
  let candidates: bigint[] | undefined;
  if (gt["all_ids"] == null) {
    // Official fallback: every display id in the visible-waypoints file.
    candidates = waypoints?.map((w) => BigInt(w.displayId));
  } else {
    candidates = intList(gt["all_ids"], "ground_truth.all_ids", report);
  }
  // The official evaluator reads `walkable_ids or answer or []` (an empty list falls through).
  const walkable = gt["walkable_ids"];
  const answer = gt["answer"];
  const source = isNonEmptyArray(walkable) ? "walkable_ids" : isNonEmptyArray(answer) ? "answer" : undefined;
  for (const field of ["walkable_ids", "answer"]) {
    if (gt[field] != null && !Array.isArray(gt[field])) report(`ground_truth.${field}`, "must be a list of ids");
  }
  if (gt["walkable_ids"] === undefined && gt["answer"] === undefined) {
    report("ground_truth.walkable_ids", "missing (neither walkable_ids nor answer is present)");
  }
  const positives = source ? intList(gt[source], `ground_truth.${source}`, report) : [];
  if (!candidates || !positives) return undefined;
  return { ...base, kind: "set", candidates, positives };
}

function routeItem(
  dataRoot: DataRoot,
  embodiedGraph: boolean,
  row: Record<string, unknown>,
  gt: Record<string, unknown>,
  base: Base,
  waypointsRef: string | undefined,
  at: Where,
  problems: DataProblem[],
  cache: FileCache,
): RouteItem | undefined {
  const report: Report = (field, message) => problems.push({ ...at, field, message });
  const startId = intValue(gt["start_id"], "ground_truth.start_id", report);
  // The evaluator reads `gt.direct_pairs_ref or row.direct_pairs_ref`; a row that names none of the
  // eval-fix fields is scored on the scene's legacy waypoint graph.
  const pairsRef = truthy(gt["direct_pairs_ref"]) ? gt["direct_pairs_ref"] : row["direct_pairs_ref"];
  const legacy = !usesDirectPairs(gt, pairsRef);
  let acceptableGoals: bigint[] | undefined;
  if (legacy) acceptableGoals = legacyGoalIds(gt, report);
  else if (gt["acceptable_goal_ids"] == null) report("ground_truth.acceptable_goal_ids", "missing (needed to judge the route's endpoint)");
  else acceptableGoals = intList(gt["acceptable_goal_ids"], "ground_truth.acceptable_goal_ids", report, true);
  const optimal = gt["optimal_length_m"];
  let optimalLengthM: number | undefined;
  if (optimal == null) report("ground_truth.optimal_length_m", "missing (needed for SPL)");
  else {
    const value = pyFloat(optimal);
    if (value === null || !(value > 0 && value <= MAX_DISTANCE_M)) report("ground_truth.optimal_length_m", `must be a positive number of metres up to ${MAX_DISTANCE_M}, found ${shownValue(optimal)}`);
    else optimalLengthM = value;
  }

  let adjacency: Adjacency | undefined;
  let mapping: Map<bigint, bigint> | undefined;
  if (legacy) {
    const graph = loadSceneGraph(dataRoot, base.imageRef, embodiedGraph, at, problems, cache);
    if (graph) {
      adjacency = graph.adjacency;
      mapping = displayToGraph(base.waypoints, graph);
    }
  } else if (typeof pairsRef !== "string" || pairsRef === "") {
    report("ground_truth.direct_pairs_ref", "missing (the sidecar of legal direct steps)");
  } else {
    const anchors = [
      waypointsRef ? path.dirname(waypointsRef) : undefined,
      base.imageRef ? path.dirname(base.imageRef) : undefined,
      path.dirname(at.file),
      path.dirname(path.dirname(at.file)),
      ".",
    ].filter((a): a is string => a !== undefined);
    const resolved = resolveSidecar(dataRoot, pairsRef, anchors);
    if (!resolved.ok) report("ground_truth.direct_pairs_ref", resolved.missing ? `cannot resolve sidecar ${pairsRef}` : resolved.message);
    else {
      const file = resolved.path;
      const key = `dp:${file}|${waypointsRef}`;
      adjacency = cached(cache, key, problems, (sink) => readDirectPairs(file, path.relative(dataRoot.dir, file), base.waypoints, sink));
    }
  }
  const reference = gt["reference_path_display_ids"] ?? gt["answer"];
  const referenceRoute = reference == null ? [] : intList(reference, "ground_truth.answer", report) ?? [];
  if (startId === undefined || !acceptableGoals || optimalLengthM === undefined || !adjacency) return undefined;
  return {
    ...base,
    kind: "route",
    displayed: base.waypoints.map((w) => BigInt(w.displayId)),
    startId,
    acceptableGoals,
    optimalLengthM,
    adjacency,
    graph: legacy ? "waypoint_graph" : "direct_pairs",
    ...(mapping ? { displayToGraph: mapping } : {}),
    referenceRoute,
  };
}

/** Legacy rows: the goals are `goal_ids`, else `[goal_id]`, else none (nulls skipped). */
function legacyGoalIds(gt: Record<string, unknown>, report: Report): bigint[] | undefined {
  if (gt["goal_ids"] != null) return intList(gt["goal_ids"], "ground_truth.goal_ids", report, true);
  if (gt["goal_id"] != null) return intList([gt["goal_id"]], "ground_truth.goal_id", report);
  return [];
}

/**
 * The scene's waypoint graph for a legacy row: assets/<scene>/waypoint_graph_{embodied,pointmass}.json,
 * else waypoint_graph.json (the scene folder is two levels above the row's image).
 */
function loadSceneGraph(
  dataRoot: DataRoot,
  imageRef: string,
  embodied: boolean,
  at: Where,
  problems: DataProblem[],
  cache: FileCache,
): WaypointGraph | undefined {
  const [preferred, fallback] = graphFileCandidates(sceneDirOf(imageRef), embodied);
  const first = dataRoot.resolve(preferred, "file", { what: "waypoint graph" });
  const chosen = first.ok || !first.missing ? first : dataRoot.resolve(fallback, "file", { what: "waypoint graph" });
  if (!chosen.ok) {
    const message = chosen.missing
      ? `no direct-pairs sidecar and no scene waypoint graph (${preferred} or ${fallback}) for the legacy routing contract`
      : chosen.message;
    problems.push({ ...at, field: "image_path", message });
    return undefined;
  }
  const file = chosen.path;
  const ref = path.relative(dataRoot.dir, file);
  return cached(cache, `graph:${file}`, problems, (sink) => {
    const data = readJsonFile(file, ref, sink);
    return data === undefined ? undefined : parseWaypointGraph(data, ref, toIdOrNull, sink);
  });
}

/** Python truthiness of a JSON value. */
function truthy(value: unknown): boolean {
  if (value == null || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/**
 * The official search order: anchors (waypoints dir, image dir, vqa dir, its parent, root), then
 * as given. The first candidate that exists is the sidecar; one outside the root is refused.
 */
function resolveSidecar(dataRoot: DataRoot, ref: string, anchors: string[]): Resolved {
  const folders = path.isAbsolute(ref) ? [dataRoot.dir] : anchors.map((anchor) => path.resolve(dataRoot.dir, anchor));
  return dataRoot.search(ref, "file", folders, { what: "direct-pairs sidecar" });
}

function readWaypoints(file: string, ref: string, problems: DataProblem[]): Waypoint[] | undefined {
  const data = readJsonFile(file, ref, problems);
  if (data === undefined) return undefined;
  const list = isObject(data) ? data["visible_waypoints"] : undefined;
  if (!Array.isArray(list)) {
    problems.push({ file: ref, field: "visible_waypoints", message: "must be a list" });
    return undefined;
  }
  const out: Waypoint[] = [];
  list.forEach((w, index) => {
    const field = `visible_waypoints[${index}]`;
    if (!isObject(w)) {
      problems.push({ file: ref, field, message: "must be an object" });
      return;
    }
    if (w["display_id"] == null) return; // skipped by the official code
    const id = toIdOrNull(w["display_id"]);
    if (id === null || id > BigInt(Number.MAX_SAFE_INTEGER) || id < -BigInt(Number.MAX_SAFE_INTEGER)) {
      problems.push({ file: ref, field: `${field}.display_id`, message: "must be an integer" });
      return;
    }
    const waypoint: Waypoint = { displayId: Number(id) };
    const xyz = w["world_xyz"];
    const coords = Array.isArray(xyz) && xyz.length === 3 ? xyz.map(pyFloat) : [];
    if (coords.length === 3 && coords.every((v) => v !== null)) {
      // A world position within 10 km of the origin (core/limits.ts); NaN or Infinity is no position.
      const far = coords.findIndex((v) => rangeProblem(v!, -COORDINATE_LIMIT_M, COORDINATE_LIMIT_M) !== null);
      if (far >= 0) {
        problems.push({ file: ref, field: `${field}.world_xyz[${far}]`, message: rangeProblem(coords[far]!, -COORDINATE_LIMIT_M, COORDINATE_LIMIT_M, " (metres)")! });
        return;
      }
      waypoint.worldXYZ = coords as [number, number, number];
    }
    const uv = w["image_xy"];
    if (Array.isArray(uv) && uv.length === 2 && uv.every((v) => typeof v === "number")) {
      if (!uv.every(Number.isFinite)) {
        problems.push({ file: ref, field: `${field}.image_xy`, message: `must be two finite pixel coordinates, found [${uv.join(", ")}]` });
        return;
      }
      waypoint.imageXY = uv as [number, number];
    }
    const label = w["label_xy"];
    if (Array.isArray(label) && label.length === 2 && label.every((v) => typeof v === "number" && Number.isFinite(v))) waypoint.labelXY = label as [number, number];
    const waypointId = w["waypoint_id"] == null ? null : toIdOrNull(w["waypoint_id"]);
    if (waypointId !== null) waypoint.waypointId = waypointId;
    const grid = gridPoint(w["grid_xy"], toIdOrNull);
    if (grid) waypoint.gridXY = grid;
    out.push(waypoint);
  });
  return out;
}

/**
 * Read a direct-pairs sidecar into an adjacency map with the official tolerance: keys or ids that
 * are not integers are skipped; a missing distance_m falls back to the 3-D distance between the
 * two waypoints' world_xyz, and the entry is dropped when that is unknown too.
 */
export function readDirectPairs(file: string, ref: string, waypoints: Waypoint[], problems: DataProblem[]): Adjacency | undefined {
  const data = readJsonFile(file, ref, problems);
  if (data === undefined) return undefined;
  const neighbours = isObject(data) ? data["direct_neighbors"] ?? {} : undefined;
  if (!isObject(neighbours)) {
    problems.push({ file: ref, field: "direct_neighbors", message: "must be an object" });
    return undefined;
  }
  const xyz = new Map<bigint, [number, number, number]>();
  for (const w of waypoints) if (w.worldXYZ) xyz.set(BigInt(w.displayId), w.worldXYZ);
  const adjacency: Adjacency = new Map();
  let ok = true;
  for (const [srcKey, entries] of Object.entries(neighbours)) {
    const src = pyIntFromString(srcKey);
    if (src === null) continue;
    const row = adjacency.get(src) ?? new Map<bigint, number>();
    adjacency.set(src, row);
    if (entries == null) continue;
    if (!Array.isArray(entries)) {
      problems.push({ file: ref, field: `direct_neighbors.${srcKey}`, message: "must be a list" });
      ok = false;
      continue;
    }
    entries.forEach((entry, index) => {
      const field = `direct_neighbors.${srcKey}[${index}]`;
      if (!isObject(entry)) {
        problems.push({ file: ref, field, message: "must be an object with display_id and distance_m" });
        ok = false;
        return;
      }
      const dst = toIdOrNull(entry["display_id"]);
      if (dst === null) return;
      let distance = entry["distance_m"];
      if (distance == null) {
        const a = xyz.get(src);
        const b = xyz.get(dst);
        if (a && b) distance = euclidean3(a, b);
      }
      if (distance == null) return;
      const length = pyFloat(distance);
      const problem = length === null ? `must be a number, found ${shownValue(distance)}` : rangeProblem(length, 0, MAX_DISTANCE_M, " (metres)");
      if (problem) {
        problems.push({ file: ref, field: `${field}.distance_m`, message: problem });
        ok = false;
        return;
      }
      row.set(dst, length!);
    });
  }
  return ok ? adjacency : undefined;
}

/** sqrt(dx*dx + dy*dy + dz*dz), summed in this order as the official code does. */
export function euclidean3(a: readonly number[], b: readonly number[]): number {
  const dx = a[0]! - b[0]!;
  const dy = a[1]! - b[1]!;
  const dz = a[2]! - b[2]!;
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** Python int() of a JSON value used as an id; null where Python would raise (the entry is skipped). */
export function toIdOrNull(value: unknown): bigint | null {
  if (typeof value === "number") return Number.isFinite(value) ? BigInt(Math.trunc(value)) : null;
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "string") return pyIntFromString(value);
  return null;
}

/** An id field read with Python's int(): 3, 3.0, "3" and true are accepted as the official code accepts them. */
function intValue(value: unknown, field: string, report: Report): bigint | undefined {
  const id = value == null ? null : toIdOrNull(value);
  if (id !== null && isSafeId(id)) return id;
  report(field, value == null ? "missing" : id === null ? `must be an integer, found ${shownValue(value)}` : `must be an integer within ±(2^53 - 1), found ${shownValue(value)}`);
  return undefined;
}

/** A waypoint id is a marker's number: anything beyond a safe integer is a mistake (ids are read as Python ints). */
const isSafeId = (id: bigint): boolean => id <= BigInt(Number.MAX_SAFE_INTEGER) && id >= -BigInt(Number.MAX_SAFE_INTEGER);

function intList(value: unknown, field: string, report: Report, allowNull = false): bigint[] | undefined {
  if (!Array.isArray(value)) {
    report(field, "must be a list of integers");
    return undefined;
  }
  const out: bigint[] = [];
  for (const v of value) {
    if (v === null && allowNull) continue;
    const id = v === null ? null : toIdOrNull(v);
    if (id === null) {
      report(field, `must hold integers only, found ${shownValue(v)}`);
      return undefined;
    }
    if (!isSafeId(id)) {
      report(field, `must hold integers within ±(2^53 - 1), found ${shownValue(v)}`);
      return undefined;
    }
    out.push(id);
  }
  return out;
}

/** String(value), or a fixed text where String() overflows the stack (a list nested 100,000 deep; such an id is reported). */
function plainString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "<nested too deeply>";
  }
}

function requireString(row: Record<string, unknown>, field: string, report: Report): string | undefined {
  const value = row[field];
  if (typeof value === "string") return value;
  report(field, value === undefined ? "missing" : "must be a string");
  return undefined;
}

function readJsonFile(file: string, ref: string, problems: DataProblem[]): unknown {
  const read = tryReadText(file);
  if (!read.ok) {
    problems.push({ file: ref, message: `${path.basename(file)} ${read.reason}` });
    return undefined;
  }
  const parsed = parseJson(read.text);
  if (parsed.ok) return parsed.value;
  problems.push({ file: ref, message: parsed.message });
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNonEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
