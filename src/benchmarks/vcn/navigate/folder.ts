/**
 * A navigation run folder (`spatialprobe navigate vcn --out DIR`) as reports and the viewer read
 * it (report/episode-runs.ts): scores.json (kind "navigation"), navigate.json, episodes.jsonl (one
 * EpisodeRecord a line, growing while the run is in progress), episodes/<id>/topdown.png and the
 * step sheets episodes/<id>/steps/<t>.jpg.
 *
 * Every line of episodes.jsonl is untrusted: a line that is not an episode record is a problem
 * with its file and line; fields are read defensively for display (wrong types count as absent,
 * texts are capped), so a damaged record shows what it has and never breaks the page.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { activeWriter } from "../../../core/lock.js";
import { readJsonLines } from "../../../core/outputs.js";
import type { DataProblem } from "../../../core/problems.js";
import { parseJson } from "../../../core/jsonl.js";
import type { DecisionView, EpisodeDetail, EpisodeLine, EpisodeLines, EpisodeRow, EpisodeRunScores } from "../../../report/episode-runs.js";
import type { RunFolder } from "../../../report/run-folder.js";
import { navigationCounts, type NavigationRunScores } from "./report.js";
import { EPISODES_FILE, RUN_HEADER, safeName } from "./files.js";

type Loose = Record<string, unknown>;
const record = (value: unknown): Loose | undefined => (value && typeof value === "object" && !Array.isArray(value) ? (value as Loose) : undefined);
const finite = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const textOf = (value: unknown, max = 2000): string | null => (typeof value === "string" ? (value.length > max ? `${value.slice(0, max)}…` : value) : null);

/** Longest reply text the viewer shows (replies are capped by the run too). */
const REPLY_MAX = 20_000;

/** episodes.jsonl's records; `live`: a last line without its newline is one being written, not a problem. */
export function readEpisodeLines(file: string, live: boolean): EpisodeLines {
  const read = readJsonLines<EpisodeLine>(file, live ? "live" : "final", (value) => {
    const row = record(value);
    return row && typeof row["episode_id"] === "string" && Array.isArray(row["steps"]) ? null : "not an episode record (expected a JSON object with a string episode_id and a steps array)";
  });
  // A resumed run writes an episode again: the later record replaces the earlier one, in its place.
  const byId = new Map<string, EpisodeLine>();
  for (const line of read.values) byId.set(line.episode_id, line);
  return { records: [...byId.values()], problems: read.problems, partialLine: read.partialLine };
}

const mtime = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : -1);

/** navigate.json as written when the run started; a header that does not read is a problem, not an error. */
function readHeader(dir: string): { header: Partial<NavigationRunScores> | null; problems: DataProblem[] } {
  const file = path.join(dir, RUN_HEADER);
  if (!existsSync(file)) return { header: null, problems: [] };
  const parsed = parseJson(readFileSync(file, "utf8"));
  const header = parsed.ok ? record(parsed.value) : undefined;
  return header ? { header: header as Partial<NavigationRunScores>, problems: [] } : { header: null, problems: [{ file, message: parsed.ok ? "not a JSON object" : parsed.message }] };
}

/**
 * The run folder of a navigation run (problems as read: run-folder.ts adds the writer's note). In progress while a process holds the folder's lock, while
 * episodes.jsonl is newer than scores.json, or before scores.json exists; finished otherwise.
 */
export function readNavigationFolder(dir: string, scores: NavigationRunScores | null): RunFolder {
  const file = path.join(dir, EPISODES_FILE);
  const writer = activeWriter(dir);
  const inProgress = writer !== undefined || !scores || mtime(file) > mtime(path.join(dir, "scores.json"));
  const read = readEpisodeLines(file, inProgress);
  const { header, problems } = readHeader(dir);
  const first = read.records[0];
  // Who the run is: scores.json, else the header, else the first record's agent.
  const identity = { ...(header ?? {}), ...(scores ?? {}) } as Partial<NavigationRunScores>;
  const asked = scores ? navigationCounts(scores).episodes : finite(header?.["episodes"]);
  const total = asked ?? read.records.length;
  return {
    dir,
    benchmark: typeof identity.benchmark === "string" ? identity.benchmark : "vcn",
    model: typeof identity.model === "string" ? identity.model : typeof first?.["agent"] === "string" ? (first["agent"] as string) : "(not recorded yet)",
    ...(typeof identity.name === "string" ? { name: identity.name } : {}),
    data: typeof identity.data === "string" ? identity.data : "",
    promptSource: typeof identity.mode === "string" ? identity.mode : "action",
    benchmarkOptions: {},
    state: inProgress ? "in progress" : "finished",
    scores: null,
    results: [],
    total,
    problems: [...problems, ...read.problems],
    partialLine: read.partialLine === null ? null : { line: read.partialLine, writing: writer !== undefined },
    navigation: { scores, header, asked, records: read.records },
  };
}

// ------------------------------------------------------------------ the viewer's rows

/** The per-episode metrics scores.json holds, by episode id. */
function metricsById(scores: EpisodeRunScores | null): Map<string, Loose> {
  const perEpisode = record(scores?.["navigation"])?.["per_episode"];
  const list = Array.isArray(perEpisode) ? (perEpisode as unknown[]) : [];
  const out = new Map<string, Loose>();
  for (const entry of list) {
    const e = record(entry);
    if (e && typeof e["episode_id"] === "string") out.set(e["episode_id"], e);
  }
  return out;
}

/** The relative path of an episode's top-down picture. */
export const topdownPath = (episodeId: string) => `episodes/${safeName(episodeId)}/topdown.png`;

function outcomeOf(line: EpisodeLine, metrics: Loose | undefined): string {
  if (line["status"] === "error") return "error";
  if (!metrics) return "not scored";
  return finite(metrics["success"]) === 1 || metrics["success"] === true ? "success" : "failure";
}

/** One row per episode of a navigation run (empty for item runs). */
export function episodeRows(run: RunFolder, runIndex: number): EpisodeRow[] {
  if (!run.navigation) return [];
  const metrics = metricsById(run.navigation.scores);
  return run.navigation.records.map((line, index) => {
    const m = metrics.get(line.episode_id);
    return {
      run: runIndex,
      index,
      id: line.episode_id,
      task: textOf(line["task_type"], 100) ?? "unknown",
      outcome: outcomeOf(line, m),
      spl: finite(m?.["spl"]),
      steps: line.steps.length,
      collisions: line.steps.filter((s) => record(s)?.["collided"] === true).length,
      end: textOf(line["end"], 100) ?? "–",
      instruction: textOf(line["instruction"], 1000) ?? "",
    };
  });
}

// ------------------------------------------------------------------ one episode in full

const vec = (value: unknown): string => (Array.isArray(value) && value.every((v) => typeof v === "number") ? value.map((v) => (v as number).toFixed(2)).join(", ") : "–");

/** A reply's reading in words (navigate/types.ts ReplyReading). */
export function readingWords(value: unknown): string | null {
  const r = record(value);
  if (!r) return null;
  if (r["ok"] !== true) return `unreadable: ${textOf(r["reason"], 500) ?? "no reason given"}`;
  const parts: string[] = [];
  if (typeof r["action"] === "string") parts.push(`action ${r["action"]}`);
  const pixel = Array.isArray(r["pixel"]) ? (r["pixel"] as unknown[]) : null;
  if (pixel) parts.push(`point (${pixel.map((v) => finite(v) ?? "?").join(", ")}) in the ${textOf(r["view"], 20) ?? "?"} view`);
  if (r["stop"] === true) parts.push(pixel ? "then stop" : "stop");
  if (finite(r["frame"]) !== null) parts.push(`goal frame ${r["frame"]}`);
  return `read by rule ${textOf(r["rule"], 100) ?? "?"}: ${parts.join(", ") || "nothing to do"}`;
}

function askedWords(d: Loose): string {
  if (d["kind"] === "action") return textOf(d["action"], 40) ?? "an action";
  const go = record(d["goto"]);
  if (d["kind"] === "goto" && go) {
    const targets = Array.isArray(go["targets"]) ? go["targets"] : [];
    const where = targets.length === 1 ? `(${vec(targets[0])})` : `the nearest of ${targets.length} points`;
    return `go to ${where} within ${finite(go["radius_m"])?.toFixed(2) ?? "?"} m, then ${textOf(go["then"], 20) ?? "?"}${textOf(go["why"], 300) ? `: ${textOf(go["why"], 300)}` : ""}`;
  }
  return "nothing";
}

function decisionView(value: unknown, position: number): DecisionView {
  const d = record(value) ?? {};
  const error = record(d["error"]);
  const frame = d["goal_frame"];
  return {
    index: finite(d["index"]) ?? position,
    at_step: finite(d["at_step"]),
    asked: askedWords(d),
    reply: textOf(d["reply"], REPLY_MAX),
    reading: readingWords(d["reading"]),
    error: error ? `${textOf(error["kind"], 60) ?? "error"}${finite(error["status"]) !== null ? ` ${error["status"]}` : ""}: ${textOf(error["message"], 2000) ?? ""}` : null,
    goal: finite(frame) !== null ? `goal frame ${frame}${d["goal_correct"] === true ? " (a success frame)" : d["goal_correct"] === false ? " (not a success frame)" : ""}` : frame === null && "goal_frame" in d ? "no goal frame named" : null,
    cached: d["cached"] === true,
  };
}

const METRIC_WORDS: Array<[string, string, (v: number) => string]> = [
  ["success", "success", (v) => (v === 1 ? "yes" : "no")],
  ["spl", "SPL", (v) => v.toFixed(3)],
  ["soft_spl", "soft SPL", (v) => v.toFixed(3)],
  ["distance_to_goal", "final distance to the goal", (v) => `${v.toFixed(2)} m`],
  ["shortest_path", "shortest path", (v) => `${v.toFixed(2)} m`],
  ["path_length", "path length", (v) => `${v.toFixed(2)} m`],
  ["ssr", "SSR", (v) => (v === 1 ? "yes" : "no")],
  ["rsr", "RSR", (v) => (v === 1 ? "yes" : "no")],
];

/**
 * Everything the viewer shows of one episode; `fileUrl` turns a path relative to the run folder
 * into a URL the page may load (null: no such picture inside the folder).
 */
export function episodeDetail(run: RunFolder, runIndex: number, index: number, fileUrl: (relative: string) => string | null): EpisodeDetail | undefined {
  const line = run.navigation?.records[index];
  if (!line) return undefined;
  const m = metricsById(run.navigation!.scores).get(line.episode_id);
  const start = record(line["start"]) ?? {};
  const prior = record(line["prior"]);
  const picture = (value: unknown) => (typeof value === "string" ? fileUrl(value) : null);
  return {
    run: runIndex,
    index,
    id: line.episode_id,
    task: textOf(line["task_type"], 100) ?? "unknown",
    instruction: textOf(line["instruction"], 5000) ?? "",
    status: textOf(line["status"], 40) ?? "–",
    end: textOf(line["end"], 100) ?? "–",
    agent: textOf(line["agent"], 200) ?? "–",
    intervention: textOf(line["intervention"], 100) ?? "–",
    prior: prior ? `prior video: ${finite(prior["frames"]) ?? "?"} frames, ${finite(prior["rooms"]) ?? "?"} rooms, ${finite(prior["area_m2"])?.toFixed(1) ?? "?"} m² covered` : "",
    metrics: m ? METRIC_WORDS.filter(([key]) => finite(m[key]) !== null).map(([key, name, format]) => `${name} ${format(m[key] as number)}`) : [],
    topdown: fileUrl(topdownPath(line.episode_id)),
    start: { position: vec(start["position"]), heading_deg: finite(start["heading_deg"]), image: picture(start["views"]) },
    decisions: (Array.isArray(line["decisions"]) ? (line["decisions"] as unknown[]) : []).map(decisionView),
    steps: line.steps.map((value) => {
      const s = record(value) ?? {};
      return {
        t: finite(s["t"]),
        action: textOf(s["action"], 40) ?? "?",
        collided: s["collided"] === true,
        position: vec(s["position"]),
        heading_deg: finite(s["heading_deg"]),
        decision: finite(s["decision"]),
        image: picture(s["views"]),
      };
    }),
  };
}
