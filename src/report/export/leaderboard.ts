/**
 * The models x benchmarks leaderboard: one row per run label, one column per benchmark with its
 * headline number (scores.json `score`). Markdown and LaTeX print it in % with one decimal, as
 * every benchmark's own tables do; "— (k of n tasks)" when the score does not cover every task it
 * averages (run-facts.ts overallCell, as in report.md); "(s/t)" after it when not every item was
 * scored; blank when the run has no result for that benchmark. The CSV keeps scores.json's values
 * (fractions, every digit) with their interval and N columns, and leaves the value empty where
 * the Markdown prints "—".
 *
 * A repeated run is one row with the mean of its repeats (repeatedCell).
 *
 * Navigation runs (`navigate vcn`) have no single headline number and are not in the leaderboard
 * (they are in the tidy CSV and the navigation tables).
 */
import type { ScoresDocument } from "../../core/benchmark.js";
import { isEpisodeRunScores } from "../episode-runs.js";
import { BENCHMARKS, getBenchmark } from "../../registry.js";
import { table } from "../markdown.js";
import { meanAndSd, repeatOf } from "../repeats.js";
import { coverageOf, overallCell, runCounts } from "../run-facts.js";
import { csvTable, type CsvValue } from "./csv.js";
import { booktabs } from "./latex.js";
import { reportLabels } from "./labels.js";
import { BLIND_CEILING_MARGIN, overallChance, type BlindReference } from "../blind-rows.js";


export interface LeaderboardCell {
  /** scores.json `score` (null when it has none). */
  score: number | null;
  ci: [number, number] | null;
  /** The score covers every task it averages. */
  covered: boolean;
  scored: number;
  total: number;
  /** Every item was scored from a prediction. */
  complete: boolean;
  /** The cell as Markdown and LaTeX print it. */
  text: string;
}

export interface Leaderboard {
  /** Benchmark ids, in the order their first run came. */
  benchmarks: string[];
  rows: Array<{ run: string; cells: Map<string, LeaderboardCell> }>;
  /** The last two rows are the audit's chance and best-blind rows. */
  blindRows?: true;
}

const finite = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

function intervalOf(value: unknown): [number, number] | null {
  return Array.isArray(value) && value.length === 2 && finite(value[0]) !== null && finite(value[1]) !== null ? [value[0] as number, value[1] as number] : null;
}

export function leaderboardCell(run: ScoresDocument): LeaderboardCell {
  const score = finite(run.score);
  const counts = runCounts(run);
  const covered = coverageOf(run).complete;
  const shown = overallCell(run, score === null ? "—" : (100 * score).toFixed(1));
  const text = covered && !counts.complete ? `${shown} (${counts.scored}/${counts.total})` : shown;
  return { score, ci: intervalOf(run["score_ci"]), covered, scored: counts.scored, total: counts.total, complete: counts.complete, text };
}

/**
 * A repeated run (`run --repeats K`) is one row, "<label> · mean of K repeats", with the mean of
 * its repeats' scores (papers report the mean over runs: EPIC-Bench §4), "(mean of k)" in the
 * printed cell; it is incomplete when a repeat is missing, incomplete or does not cover every task.
 */
export function repeatedCell(repeats: ScoresDocument[]): LeaderboardCell {
  const cells = repeats.map(leaderboardCell);
  const of = repeatOf(repeats[0]!)?.of ?? repeats.length;
  const scores = cells.map((c) => c.score);
  const mean = scores.every((v) => v !== null) ? meanAndSd(scores).mean : null;
  const covered = cells.every((c) => c.covered);
  const complete = cells.every((c) => c.complete) && repeats.length === of;
  const scored = Math.min(...cells.map((c) => c.scored));
  const total = Math.max(...cells.map((c) => c.total));
  const shown = !covered ? cells.find((c) => !c.covered)!.text : mean === null ? "—" : (100 * mean).toFixed(1);
  const text = `${shown} (mean of ${repeats.length}${repeats.length === of ? "" : ` of ${of} repeats`}${covered && !cells.every((c) => c.complete) ? `; ${scored}/${total} scored` : ""})`;
  return { score: mean, ci: null, covered, scored, total, complete, text };
}

const repeatedLabel = (run: ScoresDocument, of: number) => `${String(run["name"] ?? run.model).replace(/ · repeat \d+\/\d+$/, "")} · mean of ${of} repeats`;

export function leaderboard(runs: ScoresDocument[], references: readonly BlindReference[] = []): Leaderboard {
  const labels = reportLabels(runs);
  const benchmarks: string[] = [];
  const rows = new Map<string, Map<string, LeaderboardCell>>();
  const put = (label: string, benchmark: string, cell: LeaderboardCell) => {
    if (!benchmarks.includes(benchmark)) benchmarks.push(benchmark);
    const cells = rows.get(label) ?? new Map<string, LeaderboardCell>();
    // Two runs under one label and benchmark cannot happen (labels are unique per benchmark) except for a repeated run's mean row.
    cells.set(benchmark, cell);
    rows.set(label, cells);
  };
  const repeatGroups = new Map<string, ScoresDocument[]>();
  runs.forEach((run, i) => {
    if (isEpisodeRunScores(run)) return;
    const repeat = repeatOf(run);
    if (!repeat) return put(labels[i]!, run.benchmark, leaderboardCell(run));
    const key = `${run.benchmark}\u0000${repeat.group}`;
    if (!repeatGroups.has(key)) {
      repeatGroups.set(key, []);
      put(repeatedLabel(run, repeat.of), run.benchmark, leaderboardCell(run)); // placeholder keeps the row's place; replaced below
    }
    repeatGroups.get(key)!.push(run);
  });
  for (const group of repeatGroups.values()) put(repeatedLabel(group[0]!, repeatOf(group[0]!)!.of), group[0]!.benchmark, repeatedCell(group));
  const board = { benchmarks, rows: [...rows].map(([run, cells]) => ({ run, cells })) };
  return references.length > 0 ? withBlindRows(board, references) : board;
}

/** A reference cell (chance, blind): a number with nothing to cover or complete. */
function referenceCell(score: number | null, note = ""): LeaderboardCell {
  return { score, ci: null, covered: true, scored: 0, total: 0, complete: true, text: score === null ? "—" : `${(100 * score).toFixed(1)}${note}` };
}

/**
 * The chance and best-blind rows (one benchmark's set each: with several sets of one benchmark,
 * the highest blind score), and "†" on every model cell the blind score comes within
 * BLIND_CEILING_MARGIN of.
 */
function withBlindRows(board: Leaderboard, references: readonly BlindReference[]): Leaderboard {
  const chance = new Map<string, LeaderboardCell>();
  const blind = new Map<string, LeaderboardCell>();
  for (const id of board.benchmarks) {
    // The loaded questions' audit (a prompt variant's derived questions, such as PathEval's Table 12, have their own table under the benchmark).
    const refs = references.filter((r) => r.benchmark === id && !r.prompt);
    if (refs.length === 0) continue;
    const chances = refs.map(overallChance);
    chance.set(id, referenceCell(chances.every((c) => c !== null && c === chances[0]) ? chances[0]! : null));
    const best = refs.map((r) => r.document.overall.blind_best).reduce<{ name: string; score: number } | null>((b, x) => (x && (!b || x.score > b.score) ? x : b), null);
    blind.set(id, referenceCell(best?.score ?? null, best ? ` (${best.name})` : ""));
  }
  const rows = board.rows.map((row) => ({
    run: row.run,
    cells: new Map([...row.cells].map(([id, cell]) => {
      const ceiling = blind.get(id)?.score;
      return [id, typeof ceiling === "number" && cell.score !== null && ceiling >= cell.score - BLIND_CEILING_MARGIN ? { ...cell, text: `${cell.text} †` } : cell];
    })),
  }));
  return { benchmarks: board.benchmarks, rows: [...rows, { run: "chance", cells: chance }, { run: "best blind rule (no picture)", cells: blind }], blindRows: true };
}

const titleOf = (id: string) => getBenchmark(id).title;
/** What a benchmark's headline score is called (Benchmark.scoreName; "score" for one the tool does not know). */
export const headlineOf = (id: string): string => BENCHMARKS[id]?.scoreName ?? "score";

/** Column headers of the printed tables: "EgoPathBench (EgoPath Score)". */
const printedHeader = (board: Leaderboard) => ["Run", ...board.benchmarks.map((id) => `${titleOf(id)} (${headlineOf(id)})`)];
const printedRows = (board: Leaderboard) => board.rows.map((row) => [row.run, ...board.benchmarks.map((id) => row.cells.get(id)?.text ?? "")]);

export const LEADERBOARD_NOTE =
  "Headline score of each benchmark in %, as each benchmark's table prints it; — (k of n tasks): the score does not cover every task it averages; (s/t): s of t items scored; (mean of k): the mean over the k repeats of a repeated run; blank: no run of that benchmark under this label.";

/** Said under a leaderboard that has the audit's rows. */
export const BLIND_ROWS_NOTE =
  "chance: the headline's exact chance level (— where it has none; EgoPathBench: the label-free random-route guess, when a run recorded it); best blind rule: the best audit rule that answers without looking at the picture, on the same data (`spatialprobe audit`); †: a score that rule comes within 10 points of, or beats.";

const notesOf = (board: Leaderboard) => (board.blindRows ? [LEADERBOARD_NOTE, BLIND_ROWS_NOTE] : [LEADERBOARD_NOTE]);

/** The leaderboard's notes and table in Markdown, without a heading (the HTML page gives its own). */
export function leaderboardBody(board: Leaderboard): string {
  return [...notesOf(board).flatMap((note) => [note, ""]), table(printedHeader(board), printedRows(board))].join("\n");
}

export function leaderboardMarkdown(board: Leaderboard): string {
  return ["## Leaderboard", "", leaderboardBody(board)].join("\n");
}

export function leaderboardLatex(board: Leaderboard): string {
  return booktabs({ caption: "Leaderboard: headline score of each benchmark (%)", label: "leaderboard", header: printedHeader(board), rows: printedRows(board), notes: notesOf(board) });
}

/** Columns: run, then per benchmark <id>, <id>_ci_low, <id>_ci_high, <id>_n, <id>_n_total. */
export function leaderboardCsv(board: Leaderboard): string {
  const header = ["run", ...board.benchmarks.flatMap((id) => [id, `${id}_ci_low`, `${id}_ci_high`, `${id}_n`, `${id}_n_total`])];
  const rows = board.rows.map((row): CsvValue[] => [
    row.run,
    ...board.benchmarks.flatMap((id): CsvValue[] => {
      const cell = row.cells.get(id);
      if (!cell) return [null, null, null, null, null];
      return cell.covered ? [cell.score, cell.ci?.[0], cell.ci?.[1], cell.scored, cell.total] : [null, null, null, cell.scored, cell.total];
    }),
  ]);
  return csvTable(header, rows);
}
