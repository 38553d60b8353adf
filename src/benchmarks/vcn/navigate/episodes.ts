/**
 * VCN-Bench's navigation runs as reports and the viewer show them (the benchmark's `episodes`,
 * report/episode-runs.ts): the folder's files and reading (folder.ts), the tables (report.ts), and
 * the runs table's cells and the tidy CSV's rows of one run.
 */
import type { EpisodeLine, EpisodeMetricRow, EpisodeRunCells, EpisodeRuns, EpisodeRunScores } from "../../../report/episode-runs.js";
import { blockMetrics } from "../../../report/export/tidy.js";
import { asNumber, asRecord } from "../../../report/svg.js";
import { EPISODES_FILE, RUN_HEADER } from "./files.js";
import { episodeDetail, episodeRows, readEpisodeLines, readNavigationFolder, topdownPath } from "./folder.js";
import { navigationCounts, navigationIdentityText, navigationRunLabel, navigationRunLabels, navigationRunsMarkdown, navigationStatusCell, type NavigationRunScores } from "./report.js";

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * The runs table's cells: mode and intervention where item runs show prompt and control, the agent
 * as its option, and SR (the paper's primary metric, §5.1) as its score once the run is finished.
 */
export function navigationRunCells(run: EpisodeRunScores, records: readonly EpisodeLine[], finished: boolean): EpisodeRunCells {
  const summary = asRecord(asRecord(run["navigation"])?.["summary"]);
  const agent = text(run["agent"]);
  return {
    prompt: text(run["mode"]) ?? "–",
    control: text(run["intervention"]) ?? "–",
    option: agent ? `agent ${agent}` : "–",
    score: finished ? asNumber(summary?.["SR"]) : null,
    metric: "SR",
    unreadable: records.filter((r) => r["end"] === "unreadable-reply").length,
  };
}

/**
 * The tidy CSV's metrics of a run: its pooled summary ("overall") and each instruction type's
 * (scores.json navigation.summary and navigation.by_task); n = that row's episodes (RSR: the
 * episodes with a known target room, rsr_n); nTotal = episodes asked, known for "overall" only.
 */
export function navigationMetricRows(run: EpisodeRunScores): EpisodeMetricRow[] {
  const nav = asRecord(run["navigation"]) ?? {};
  const episodes = navigationCounts(run).episodes;
  const rows: EpisodeMetricRow[] = [];
  const add = (task: string, summary: unknown) => {
    const s = asRecord(summary);
    if (!s) return;
    for (const [metric, value] of blockMetrics(s)) {
      rows.push({ task, metric, value, n: metric === "RSR" ? asNumber(s["rsr_n"]) : asNumber(s["n"]), nTotal: task === "overall" ? episodes : null });
    }
  };
  add("overall", nav["summary"]);
  for (const [task, summary] of Object.entries(asRecord(nav["by_task"]) ?? {})) add(task, summary);
  return rows;
}

export const navigationEpisodes: EpisodeRuns = {
  headerFile: RUN_HEADER,
  episodesFile: EPISODES_FILE,
  readEpisodeLines,
  // The navigation functions read scores.json of kind "navigation" (NavigationRunScores, an EpisodeRunScores).
  readFolder: readNavigationFolder,
  counts: navigationCounts,
  statusCell: navigationStatusCell,
  runLabel: navigationRunLabel,
  runLabels: navigationRunLabels,
  identityText: navigationIdentityText,
  runsMarkdown: (runs) => navigationRunsMarkdown(runs),
  runCells: navigationRunCells,
  metricRows: navigationMetricRows,
  episodeRows,
  episodeDetail,
  topdownPath,
};
