import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DataRoot, type DataRootOptions } from "../../core/dataroot.js";
import { parseJson } from "../../core/jsonl.js";
import { boundedArray, pathMeasure, safeId } from "../../core/limits.js";
import { appendAll, problemList, type DataProblem } from "../../core/problems.js";
import { DESCRIPTORS } from "./scenarios.js";
import type { Dim, PathEvalItem } from "./types.js";
import type { RequestOptions } from "../requests.js";
import { pathevalRequestProblems } from "./check.js";

/**
 * Loading PathEval data: the release's JSON files (`2D/test_dataset_2D.json`, `3D/...`, and the
 * train files), or a set made by `spatialprobe generate patheval` in the same layout.
 * `--data` may be a folder or one JSON file.
 */

// Every number bounded (core/limits.ts): descriptor values and path points within a million.
const descriptorShape = z.object(Object.fromEntries(DESCRIPTORS.map((d) => [d, pathMeasure()])) as Record<(typeof DESCRIPTORS)[number], z.ZodNumber>);
const pathPoints = boundedArray(z.tuple([pathMeasure(), pathMeasure()]));

const recordSchema = z.object({
  id: z.union([z.string(), safeId()]),
  image: z.string().min(1),
  conversations: boundedArray(z.object({ from: z.string(), value: z.string() })).min(2),
  metrics: z.object({ "Path 1": descriptorShape, "Path 2": descriptorShape }),
  scenario_id: z.number().int().min(1).max(15).optional(),
  scenario: z.string().optional(),
  environment: z.string().optional(),
  paths: z.object({ "Path 1": pathPoints, "Path 2": pathPoints }).optional(),
});

export interface LoadResult {
  items: PathEvalItem[];
  problems: DataProblem[];
  tasks: Dim[];
  /**
   * With `renderMissing`: items whose picture is not on disk but can be drawn from the record's
   * paths and its environment file (generated training sets): item id -> the environment file.
   */
  toRender?: Map<string, string>;
}

export interface LoadOptions extends DataRootOptions {
  tasks?: Dim[];
  split?: "test" | "train";
  requests?: RequestOptions;
  /** Keep records whose picture is missing when it can be rendered (see LoadResult.toRender). */
  renderMissing?: boolean;
}

/** The test files under a folder (or the file itself), with the dimension each holds. */
export function findDataFiles(data: string, split: "test" | "train" = "test"): Array<{ file: string; dim: Dim }> {
  if (existsSync(data) && statSync(data).isFile()) return [{ file: data, dim: /3D/i.test(path.basename(data)) ? "3D" : "2D" }];
  const out: Array<{ file: string; dim: Dim }> = [];
  for (const dim of ["2D", "3D"] as const) {
    for (const dir of [path.join(data, dim), data]) {
      if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
      const hit = readdirSync(dir).find((f) => f.endsWith(".json") && f.includes(dim) && (split === "test" ? /test/i.test(f) : /train/i.test(f)));
      if (hit) {
        out.push({ file: path.join(dir, hit), dim });
        break;
      }
    }
  }
  return out;
}

/** Match a scenario text to its id by the agent it names (release texts are the paper's wording). */
const AGENT_PATTERNS: Array<[RegExp, number]> = [
  [/large truck/i, 1], [/firefighting/i, 2], [/war ?zone/i, 3], [/drone/i, 4], [/earthquake/i, 5],
  [/museum/i, 6], [/articulated bus/i, 7], [/harvester/i, 8], [/forklift/i, 9], [/crane/i, 10],
  [/taxi/i, 11], [/mars rover/i, 12], [/visually impaired|blind/i, 13], [/soil/i, 14], [/nuclear/i, 15],
];

export function scenarioIdOf(text: string): number | undefined {
  return AGENT_PATTERNS.find(([pattern]) => pattern.test(text))?.[1];
}

/**
 * The dataset root of a data path: the folder; for one JSON file, its folder, or the release root
 * when the file sits in the release's 2D/ or 3D/ folder (its images are named from the root).
 */
export function pathEvalRoot(data: string): string {
  const abs = path.resolve(data);
  if (!statSync(abs).isFile()) return abs;
  const dir = path.dirname(abs);
  return /^[23]D$/i.test(path.basename(dir)) ? path.dirname(dir) : dir;
}

/** `requests`: also check what requests with that variant or probe need (check.ts). */
export function loadPathEval(data: string, options: LoadOptions = {}): LoadResult {
  const problems = problemList();
  if (!existsSync(data)) return { items: [], problems: [{ file: data, message: "data path does not exist" }], tasks: [] };
  const files = findDataFiles(data, options.split).filter((f) => !options.tasks || options.tasks.includes(f.dim));
  if (files.length === 0) problems.push({ file: data, message: "no PathEval JSON files found (expected 2D/test_dataset_2D.json and/or 3D/test_dataset_3D.json)" });
  const items: PathEvalItem[] = [];
  const root = new DataRoot(pathEvalRoot(data), options);
  const toRender = options.renderMissing ? new Map<string, string>() : undefined;
  for (const { file, dim } of files) appendAll(items, loadFile(path.resolve(file), dim, root, problems, toRender));
  if (options.requests) appendAll(problems, pathevalRequestProblems(items, options.requests));
  return { items, problems, tasks: files.map((f) => f.dim), ...(toRender ? { toRender } : {}) };
}

/** The environment file a generated record's picture can be drawn from (environments/<name>Obstacles.txt or <name>.txt). */
function environmentFileOf(root: DataRoot, environment: string): string | null {
  for (const ref of [`environments/${environment}Obstacles.txt`, `environments/${environment}.txt`]) {
    const found = root.resolve(ref, "file");
    if (found.ok) return found.path;
  }
  return null;
}

function loadFile(file: string, dim: Dim, root: DataRoot, problems: DataProblem[], toRender?: Map<string, string>): PathEvalItem[] {
  const display = path.relative(root.dir, file) || path.basename(file);
  const read = root.readText(file, { what: "data file" });
  if (!read.ok) {
    problems.push({ file: display, message: read.message });
    return [];
  }
  const parsed = parseJson(read.text);
  if (!parsed.ok) {
    problems.push({ file: display, message: parsed.message });
    return [];
  }
  const records = parsed.value;
  if (!Array.isArray(records)) {
    problems.push({ file: display, message: "expected a JSON array of records" });
    return [];
  }
  const items: PathEvalItem[] = [];
  const seen = new Set<string>();
  records.forEach((raw, index) => {
    const where = { file: display }; // records are located by their index in the array
    const parsed = recordSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push({ ...where, field: `[${index}].${issue.path.join(".")}`, message: issue.message });
      return;
    }
    const record = parsed.data;
    const answer = record.conversations[1]!.value.trim();
    if (answer !== "Path 1" && answer !== "Path 2") {
      problems.push({ ...where, field: `[${index}].conversations[1].value`, message: `must be "Path 1" or "Path 2", found ${JSON.stringify(answer)}` });
      return;
    }
    // The release's image search: next to the JSON file, from the root, then from the file's parent folder.
    const image = root.search(record.image, "image", [path.dirname(file), root.dir, path.dirname(path.dirname(file))]);
    const id = `${dim}/${record.id}`;
    const environmentFile = !image.ok && image.missing && toRender && record.paths && record.environment ? environmentFileOf(root, record.environment) : null;
    if (!image.ok && environmentFile === null) {
      const hint = toRender && image.missing ? (record.paths && record.environment ? " (and no environments/ file to draw it from)" : " (and the record has no paths and environment to draw it from)") : "";
      problems.push({ ...where, field: `[${index}].image`, message: `${image.message}${hint}` });
      return;
    }
    const imagePath = image.ok ? image.path : path.resolve(root.dir, record.image);
    if (environmentFile !== null && !seen.has(id)) toRender!.set(id, environmentFile);
    if (seen.has(id)) {
      problems.push({ ...where, field: `[${index}].id`, message: `duplicate id ${record.id}` });
      return;
    }
    seen.add(id);
    const question = record.conversations[0]!.value;
    const scenarioId = record.scenario_id ?? scenarioIdOf(record.scenario ?? question);
    items.push({
      id,
      recordId: record.id,
      task: dim,
      cluster: record.environment ?? String(record.id),
      imagePath,
      question,
      ...(scenarioId !== undefined ? { scenarioId } : {}),
      truth: answer,
      metrics: record.metrics,
      ...(record.paths ? { paths: record.paths } : {}),
      ...(record.environment ? { environment: record.environment } : {}),
      source: { file: display, index },
    });
  });
  return items;
}
