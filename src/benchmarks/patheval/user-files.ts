/**
 * The user's own inputs to `generate patheval`: a folder of environment files in the release's
 * format (`--set environments=DIR`) and a scenario-text file (`--set scenarios=FILE`). Both are
 * untrusted: every defect is a DataProblem naming the file and the line, all of them are reported
 * at once (DataError), and nothing outside the folder is read (DataRoot: no links out).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { FileRefusedError, readRegularFile, tryReadText } from "../../core/file-read.js";
import { DataRoot } from "../../core/dataroot.js";
import { PATH_MEASURE_LIMIT } from "../../core/limits.js";
import { appendAll, countOmitted, DataError, omittedProblems, problemList, type DataProblem } from "../../core/problems.js";
import { EnvironmentParseError, parseEnvironment, pointInPolygon, type Polygon } from "../../geometry/polygon.js";
import { PATHEVAL_GOAL, PATHEVAL_START } from "../../geometry/planners.js";
import { placeholderIn } from "../../core/training-export.js";
import { SCENARIOS } from "./scenarios.js";

/** Largest environment or scenario file read (the release's largest environment file is far smaller). */
export const MAX_USER_FILE_BYTES = 4 * 1024 * 1024;
/** Longest scenario text accepted (the paper's longest is under 400 characters). */
export const MAX_SCENARIO_CHARS = 2000;

export interface UserEnvironment {
  /** File name without `Obstacles.txt` / `.txt`: the release's environment name for release-style files. */
  name: string;
  fileName: string;
  text: string;
}

/** The environment name of a file: `SceneMaze_Dims10_0Obstacles.txt` -> `SceneMaze_Dims10_0`. */
export function environmentNameOf(fileName: string): string {
  return fileName.replace(/\.txt$/i, "").replace(/Obstacles$/, "") || fileName;
}

function inside(point: readonly [number, number], polygons: readonly Polygon[]): number {
  return polygons.findIndex((p) => pointInPolygon(p, point[0], point[1]));
}

/**
 * One environment file's text read: `problems` that make it unreadable (parse errors with their
 * line, no polygons, coordinates out of bounds), and `blocked`, the start or goal inside a polygon:
 * a well-formed environment no PathEval plan can be made in (two of the release's 1,149 files).
 */
function readEnvironment(text: string, fileName: string): { problems: DataProblem[]; blocked: DataProblem[] } {
  let polygons: Polygon[];
  try {
    polygons = parseEnvironment(text, fileName);
  } catch (error) {
    if (error instanceof EnvironmentParseError) return { problems: [{ file: fileName, line: error.line, message: error.detail }], blocked: [] };
    throw error;
  }
  const problems = problemList();
  if (polygons.length === 0) problems.push({ file: fileName, line: 1, message: "declares no polygons: there is nothing to plan around" });
  // Vertices within a million of the origin (core/limits.ts; the planning space is [-100, 100]^2).
  polygons.forEach((p, k) => {
    const far = p.findIndex((v) => Math.abs(v) > PATH_MEASURE_LIMIT);
    if (far >= 0) problems.push({ file: fileName, line: 2, field: `polygon ${k + 1}`, message: `vertex ${(far >> 1) + 1} has a coordinate of ${p[far]}; every coordinate must be between -${PATH_MEASURE_LIMIT} and ${PATH_MEASURE_LIMIT}` });
  });
  const blocked: DataProblem[] = [];
  for (const [what, point] of [["start", PATHEVAL_START], ["goal", PATHEVAL_GOAL]] as const) {
    const k = inside(point, polygons);
    if (k >= 0) blocked.push({ file: fileName, line: 2, field: `polygon ${k + 1}`, message: `contains the ${what} (${point[0]}, ${point[1]}); every PathEval plan starts and ends there` });
  }
  return { problems, blocked };
}

/** The problems of one environment file's text (parse errors with their line; start or goal inside a polygon). */
export function environmentProblems(text: string, fileName: string): DataProblem[] {
  const read = readEnvironment(text, fileName);
  return [...read.problems, ...read.blocked];
}

/**
 * Every `*.txt` file of `dir` (sorted by name), validated: a file that does not read throws
 * DataError listing every problem; a file whose start or goal lies inside a polygon is skipped,
 * with its reason in `skipped` (an error only when no file is left).
 */
export function readUserEnvironments(dir: string): { environments: UserEnvironment[]; skipped: DataProblem[] } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new DataError([{ file: dir, message: "environments: not a folder" }]);
  const root = new DataRoot(dir);
  const names = readdirSync(dir).filter((f) => f.toLowerCase().endsWith(".txt")).sort();
  const problems = problemList();
  const out: UserEnvironment[] = [];
  const skipped: DataProblem[] = [];
  const seen = new Map<string, string>();
  if (names.length === 0) problems.push({ file: dir, message: "environments: the folder holds no .txt environment files" });
  for (const fileName of names) {
    const resolved = root.resolve(fileName, "file", { what: "environment file" });
    if (!resolved.ok) {
      problems.push({ file: fileName, message: resolved.message });
      continue;
    }
    const size = statSync(resolved.path).size;
    if (size > MAX_USER_FILE_BYTES) {
      problems.push({ file: fileName, message: `is ${size} bytes; environment files over ${MAX_USER_FILE_BYTES} bytes are refused` });
      continue;
    }
    const read = tryReadText(resolved.path, { maxBytes: MAX_USER_FILE_BYTES });
    if (!read.ok) {
      problems.push({ file: fileName, message: `environment file ${fileName} ${read.reason}` });
      continue;
    }
    const text = read.text;
    const { problems: found, blocked } = readEnvironment(text, fileName);
    const name = environmentNameOf(fileName);
    if (seen.has(name)) found.push({ file: fileName, message: `names the same environment "${name}" as ${seen.get(name)}` });
    seen.set(name, fileName);
    appendAll(problems, found);
    if (found.length > 0) continue;
    if (blocked.length > 0) skipped.push(...blocked);
    else out.push({ name, fileName, text });
  }
  if (problems.length > 0) throw new DataError(withFolder(problems, dir));
  if (out.length === 0 && skipped.length > 0) throw new DataError(withFolder([{ file: dir, message: "environments: no file can be planned in (each has its start or goal inside a polygon)" }, ...skipped], dir));
  return { environments: out, skipped: withFolder(skipped, dir) };
}

/** The problems with each file named inside `dir` (the count of the problems not kept goes with them). */
function withFolder(problems: DataProblem[], dir: string): DataProblem[] {
  const out = problemList();
  for (const p of problems) out.push(p.file === dir ? p : { ...p, file: path.join(dir, p.file) });
  countOmitted(out, omittedProblems(problems));
  return out;
}

/**
 * A scenario-text file: one scenario a line as `<id>: <text>` (id 1..15, each exactly once; blank
 * lines and lines starting with `#` are skipped). The texts replace our wording in the questions;
 * which descriptors each scenario weighs, and in which direction, stay the paper's (Table 7).
 */
export function parseScenarioFile(text: string, file: string): { texts: Record<number, string>; problems: DataProblem[] } {
  const texts: Record<number, string> = {};
  const problems = problemList();
  const lineOf: Record<number, number> = {};
  const attempted = new Set<number>();
  text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = i + 1;
    const content = raw.trim();
    if (content === "" || content.startsWith("#")) return;
    const colon = content.indexOf(":");
    const head = colon < 0 ? "" : content.slice(0, colon).trim();
    if (!/^\d{1,2}$/.test(head)) {
      problems.push({ file, line, message: `expected "<id>: <scenario text>" with an id 1..15, found ${JSON.stringify(content.slice(0, 40))}` });
      return;
    }
    const id = Number(head);
    const body = content.slice(colon + 1).trim();
    attempted.add(id);
    if (id < 1 || id > SCENARIOS.length) problems.push({ file, line, field: "id", message: `scenario id must be 1..${SCENARIOS.length}, got ${id}` });
    else if (lineOf[id] !== undefined) problems.push({ file, line, field: "id", message: `scenario ${id} is given twice (first on line ${lineOf[id]})` });
    else if (body === "") problems.push({ file, line, field: "text", message: `scenario ${id} has no text` });
    else if (body.length > MAX_SCENARIO_CHARS) problems.push({ file, line, field: "text", message: `scenario ${id} is ${body.length} characters; at most ${MAX_SCENARIO_CHARS}` });
    else if (placeholderIn(body)) problems.push({ file, line, field: "text", message: `scenario ${id} contains ${placeholderIn(body)}, which training formats read as a media placeholder` });
    else {
      texts[id] = body;
      lineOf[id] = line;
    }
  });
  const missing = SCENARIOS.map((s) => s.id).filter((id) => !attempted.has(id));
  if (missing.length > 0) problems.push({ file, message: `no text for scenario${missing.length === 1 ? "" : "s"} ${missing.join(", ")} (all ${SCENARIOS.length} are needed)` });
  return { texts, problems };
}

/** Read and validate a scenario file; throws DataError listing every problem. */
export function readScenarioFile(file: string): { file: string; sha256: string; texts: Record<number, string> } {
  if (!existsSync(file) || !statSync(file).isFile()) throw new DataError([{ file, message: "scenarios: not a file" }]);
  const size = statSync(file).size;
  if (size > MAX_USER_FILE_BYTES) throw new DataError([{ file, message: `is ${size} bytes; scenario files over ${MAX_USER_FILE_BYTES} bytes are refused` }]);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, { followLinks: true, maxBytes: MAX_USER_FILE_BYTES }); // a file the user names
  } catch (error) {
    if (error instanceof FileRefusedError) throw new DataError([{ file, message: `scenarios: ${error.reason}` }]);
    throw error;
  }
  const { texts, problems } = parseScenarioFile(bytes.toString("utf8"), file);
  if (problems.length > 0) throw new DataError(problems);
  return { file: path.resolve(file), sha256: createHash("sha256").update(bytes).digest("hex"), texts };
}
