/**
 * `report --format md|latex|csv` from the runs readReportRuns read: which tables each format
 * writes (`--table`), all from the same runs.
 *
 * - md, latex: `auto` (default) = the leaderboard when the runs span two or more benchmarks, then
 *   every benchmark's tables; `leaderboard`; `tables` (the benchmark tables only); `all` (both).
 * - csv: `tidy` (default, one row per run x task x metric) or `leaderboard`.
 */
import type { ScoresDocument } from "../../core/benchmark.js";
import { UsageError } from "../../core/problems.js";
import { isEpisodeRunScores } from "../episode-runs.js";
import { markdownReport, type ReportRun } from "../render.js";
import { leaderboard, leaderboardCsv, leaderboardLatex, leaderboardMarkdown } from "./leaderboard.js";
import type { BlindReference } from "../blind-rows.js";
import { LATEX_PREAMBLE_NOTE, markdownToLatex } from "./latex.js";
import { tidyCsv, tidyRows } from "./tidy.js";

export const TABLE_CHOICES: Record<string, readonly string[]> = {
  md: ["auto", "leaderboard", "tables", "all"],
  latex: ["auto", "leaderboard", "tables", "all"],
  csv: ["tidy", "leaderboard"],
};

/** The --table a format uses when none is given; undefined for formats without tables to choose. */
export const defaultTable = (format: string): string | undefined => TABLE_CHOICES[format]?.[0];

export function checkTable(format: string, table: string | undefined): string | undefined {
  const choices = TABLE_CHOICES[format];
  if (table === undefined) return choices?.[0];
  if (!choices) throw new UsageError(`--table applies to md, latex and csv, not ${format}`);
  if (!choices.includes(table)) throw new UsageError(`unknown table "${table}" for --format ${format} (${choices.join(", ")})`);
  return table;
}

const benchmarkCount = (runs: ScoresDocument[]) => new Set(runs.filter((run) => !isEpisodeRunScores(run)).map((run) => run.benchmark)).size;

/** Which parts md and latex write. */
function parts(table: string, runs: ScoresDocument[]): { board: boolean; tables: boolean } {
  if (table === "leaderboard") return { board: true, tables: false };
  if (table === "tables") return { board: false, tables: true };
  if (table === "all") return { board: true, tables: true };
  return { board: benchmarkCount(runs) >= 2, tables: true };
}

const tablesWithBlindRows = (runs: ScoresDocument[], references: readonly BlindReference[]) => markdownReport(runs, references);

export function markdownExport(runs: ScoresDocument[], table: string, references: readonly BlindReference[] = []): string {
  const { board, tables } = parts(table, runs);
  return [...(board ? [`${leaderboardMarkdown(leaderboard(runs, references))}\n`] : []), ...(tables ? [tablesWithBlindRows(runs, references)] : [])].join("\n");
}

export function latexExport(runs: ScoresDocument[], table: string, references: readonly BlindReference[] = []): string {
  const { board, tables } = parts(table, runs);
  return [LATEX_PREAMBLE_NOTE, "", ...(board ? [`${leaderboardLatex(leaderboard(runs, references))}\n`] : []), ...(tables ? [markdownToLatex(tablesWithBlindRows(runs, references))] : [])].join("\n");
}

export function csvExport(runs: ReportRun[], table: string, references: readonly BlindReference[] = []): string {
  return table === "leaderboard" ? leaderboardCsv(leaderboard(runs.map((run) => run.scores), references)) : tidyCsv(tidyRows(runs));
}
