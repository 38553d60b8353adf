/**
 * The one way every `report` format (md, json, csv, latex, html) turns its arguments into run
 * folders: a run folder or a scores.json file stands for itself; any other folder stands for the
 * run folders found below it, at any depth (runs/demo, a `run --repeats` folder with repeat-k/,
 * a folder of such folders), in sorted path order. Links are not followed (no cycles, nothing
 * outside the folder named) and the search stops at a run folder: its own sub-folders (episodes/,
 * pictures) are never taken for runs.
 */
import { existsSync, readdirSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import { LIVE_HEADER, LIVE_RESULTS } from "../../core/outputs.js";
import { appendAll, UsageError } from "../../core/problems.js";
import { episodeRunMarkers } from "../episode-runs.js";

/** Files whose presence makes a folder a run folder (finished, in progress, or stopped before scores.json). */
const runMarkers = () => ["scores.json", "items.jsonl", LIVE_HEADER, LIVE_RESULTS, ...episodeRunMarkers()];

/** How deep below a named folder runs are looked for (runs/<group>/<run>/repeat-k is 3). */
export const MAX_SEARCH_DEPTH = 8;

/** A folder `audit` wrote: its items.jsonl holds bias scores, not a run's results. */
export function isAuditFolder(dir: string): boolean {
  return existsSync(path.join(dir, "audit.json")) && !existsSync(path.join(dir, "scores.json"));
}

export function isRunFolder(dir: string): boolean {
  return !isAuditFolder(dir) && runMarkers().some((name) => existsSync(path.join(dir, name)));
}

/** What the HTML page and the viewer can show: a finished run, a run in progress, or a navigation run (items.jsonl alone is a run stopped before its first scores.json). */
const isReadable = (dir: string) => runMarkers().filter((name) => name !== "items.jsonl").some((name) => existsSync(path.join(dir, name)));

export interface ExpandedInputs {
  /** Run folders and scores.json files, in argument order, each folder's finds sorted. */
  runs: string[];
  /** Run folders found below a named folder that the format cannot read: no scores.json yet (md, json, csv, latex), or nothing but items.jsonl (html). */
  unfinished: string[];
}

const subfolders = (dir: string): Dirent[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** Run folders at or below `dir` (depth-first, sorted), not looking inside run folders. */
function findRunFolders(dir: string, depth: number, out: string[]): void {
  if (isRunFolder(dir)) {
    out.push(dir);
    return;
  }
  if (depth >= MAX_SEARCH_DEPTH) return;
  for (const entry of subfolders(dir)) findRunFolders(path.join(dir, entry.name), depth + 1, out);
}

/**
 * `requireScores`: formats built from scores.json (md, json, csv, latex) list found folders without
 * one under `unfinished` instead of failing; a run folder named directly without one is an error.
 * The HTML report and the viewer also show runs in progress (`requireScores` false).
 */
export function expandReportInputs(inputs: string[], options: { requireScores: boolean }): ExpandedInputs {
  const runs: string[] = [];
  const unfinished: string[] = [];
  for (const input of inputs) {
    if (!existsSync(input)) throw new UsageError(`no run at ${input}`);
    if (!statSync(input).isDirectory()) {
      runs.push(input);
      continue;
    }
    if (isRunFolder(input)) {
      if (options.requireScores && !existsSync(path.join(input, "scores.json"))) throw new UsageError(`no scores.json at ${input}`);
      runs.push(input);
      continue;
    }
    const found: string[] = [];
    findRunFolders(input, 0, found);
    if (found.length === 0) throw new UsageError(`${input} is not a run folder and holds none (looked ${MAX_SEARCH_DEPTH} levels down for scores.json)`);
    const finished = found.filter(options.requireScores ? (dir) => existsSync(path.join(dir, "scores.json")) : isReadable);
    if (finished.length === 0) throw new UsageError(`${input} holds no finished run (no scores.json in the ${found.length} run folder${found.length === 1 ? "" : "s"} below it)`);
    appendAll(runs, finished);
    appendAll(unfinished, found.filter((dir) => !finished.includes(dir)));
  }
  return { runs, unfinished };
}
