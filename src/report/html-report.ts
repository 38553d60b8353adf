/** `report --format html`: one self-contained file with tables, charts and the item gallery. */
import { blindReferences, findAudits } from "./blind-rows.js";
import { attachPrompts, embedOverlays, galleryItem, type EmbedSummary, type GalleryItem } from "./gallery.js";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { episodeRunsOf, runGroupKey, type EpisodeRow } from "./episode-runs.js";
import { folderIdentity, folderLabels, navigationDocument, page, summaryHtml } from "./page.js";
import { runCounts } from "./run-facts.js";
import { seriesColor } from "./svg.js";
import { comparisonTable } from "./compare.js";
import { assertIntact, expandRunFolders, fileInRunFolder, readRunFolder, type RunFolder } from "./run-folder.js";

export interface HtmlReportOptions {
  /** Most bytes of embedded pictures (base64); items beyond it are listed without pictures. */
  budgetBytes: number;
  /** Longest side of each embedded picture. */
  maxSide: number;
  /** Called as the pictures are drawn (items done, items in all). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * 20 MB of pictures, each at most 1024 px: composite overlays are drawn for a 1024 px row with
 * 12 px labels (media/draw.ts), so the item view shows them at that size, labels readable.
 */
export const DEFAULT_HTML_OPTIONS: HtmlReportOptions = { budgetBytes: 20 * 1024 * 1024, maxSide: 1024 };

/**
 * Each run's colour as its benchmark's charts draw it: the charts colour the finished runs of one
 * benchmark by their order (svg.ts seriesColor); runs still in progress take the next colours.
 */
export function runColors(runs: RunFolder[]): string[] {
  const colors: string[] = new Array(runs.length);
  const groupOf = (run: RunFolder) => runGroupKey(run.benchmark, run.navigation !== undefined);
  for (const group of new Set(runs.map(groupOf))) {
    const indices = runs.flatMap((run, i) => (groupOf(run) === group ? [i] : []));
    const finished = indices.filter((i) => runs[i]!.state === "finished" && (runs[i]!.scores || runs[i]!.navigation?.scores));
    const ordered = [...finished, ...indices.filter((i) => !finished.includes(i))];
    ordered.forEach((i, k) => (colors[i] = seriesColor(k)));
  }
  return colors;
}

/**
 * A run's name in links (#item/<key>/<id>): from its folder, not its position, so a link copied
 * from report.html opens the same run in `serve` (or in a report of other runs beside it).
 */
export function runKey(dir: string): string {
  return `r${createHash("sha256").update(path.resolve(dir)).digest("hex").slice(0, 10)}`;
}

/** What the viewer script needs to know about each run; runs are told apart by index and label, never by model. */
export function runMeta(runs: RunFolder[]) {
  const labels = folderLabels(runs);
  const colors = runColors(runs);
  return runs.map((run, index) => ({
    index,
    key: runKey(run.dir),
    label: labels[index]!,
    color: colors[index]!,
    identity: folderIdentity(run),
    benchmark: run.benchmark,
    model: run.model,
    ...(run.name ? { name: run.name } : {}),
    variant: run.promptSource,
    ...(run.control ? { control: run.control } : {}),
    state: run.state,
    ...(run.scores && run.state === "finished" ? { scored: runCounts(run.scores).scored, complete: runCounts(run.scores).complete } : {}),
    ...(run.navigation ? { kind: "navigation", ...(run.navigation.scores && run.state === "finished" ? episodeCounts(run) : {}) } : {}),
    done: run.navigation ? run.navigation.records.length : run.results.length,
    total: run.total,
    problems: run.problems.length,
    partial_line: run.partialLine,
  }));
}

export function galleryItems(runs: RunFolder[]): GalleryItem[] {
  return runs.flatMap((run, r) => run.results.map((result, i) => galleryItem(r, i, result)));
}

/** A finished run of episodes: episodes done, and whether it is complete. */
function episodeCounts(run: RunFolder): { scored: number; complete: boolean } {
  const counts = episodeRunsOf(run.benchmark).counts(navigationDocument(run));
  return { scored: counts.done, complete: counts.complete };
}

/** The episodes of the runs of episodes, one row each (the viewer's episode list). */
export function navigationEpisodes(runs: RunFolder[]): EpisodeRow[] {
  return runs.flatMap((run, r) => (run.navigation ? episodeRunsOf(run.benchmark).episodeRows(run, r) : []));
}

/** Top-down pictures into the rows as data: URIs, in order, while `budgetBytes` of base64 lasts; returns the bytes used. */
export function embedTopdowns(runs: RunFolder[], rows: EpisodeRow[], budgetBytes: number): { pictured: number; bytes: number } {
  let bytes = 0;
  let pictured = 0;
  for (const row of rows) {
    const run = runs[row.run]!;
    const file = fileInRunFolder(run.dir, episodeRunsOf(run.benchmark).topdownPath(row.id));
    if (file === "forbidden" || file === "missing") continue;
    const uri = `data:image/png;base64,${readFileSync(file).toString("base64")}`;
    if (bytes + uri.length > budgetBytes) break;
    row.topdown = uri;
    bytes += uri.length;
    pictured++;
  }
  return { pictured, bytes };
}

function budgetNotes(summary: EmbedSummary, options: HtmlReportOptions): string[] {
  const notes: string[] = [];
  const missing = summary.total - summary.pictured;
  const failed = [...summary.failures.values()].reduce((a, b) => a + b, 0);
  if (missing - failed > 0) {
    const mb = (options.budgetBytes / 1024 / 1024).toFixed(0);
    notes.push(`Pictures for ${summary.pictured} of ${summary.total} items: the size budget (${mb} MB) is spent, so ${missing - failed} items are listed without pictures (spread over runs, tasks and outcomes). Raise it with --max-size, or browse every item with \`spatialprobe serve\`.`);
  }
  for (const [reason, count] of summary.failures) notes.push(`No picture for ${count} item${count === 1 ? "" : "s"}: ${reason}`);
  return notes;
}

export async function htmlReport(inputs: string[], options: HtmlReportOptions = DEFAULT_HTML_OPTIONS): Promise<{ html: string; summary: EmbedSummary }> {
  const runs = expandRunFolders(inputs).map(readRunFolder);
  assertIntact(runs); // a damaged folder is an error here; the viewer shows it instead

  const items = galleryItems(runs);
  const prompts = await attachPrompts(runs, items);
  const summary = await embedOverlays(runs, items, options);
  const episodes = navigationEpisodes(runs);
  const topdowns = embedTopdowns(runs, episodes, options.budgetBytes - summary.bytes);
  const notes = budgetNotes(summary, options);
  if (episodes.length > 0) notes.push(`Top-down pictures for ${topdowns.pictured} of ${episodes.length} navigation episodes; the step-by-step observations are in \`spatialprobe serve\`.`);
  const meta = runMeta(runs);
  // The pictures go in a block of their own after the script; each entry keeps only a flag.
  const pictures: Record<string, string> = {};
  const entries = items.map((item) => {
    if (!item.image) return item;
    pictures[item.key] = item.image;
    return { ...item, image: null, pictured: true };
  });
  const html = page({
    title: "spatialprobe report",
    subtitle: `${runs.length} run${runs.length === 1 ? "" : "s"} · written ${new Date().toISOString()}`,
    summary: summaryHtml(runs, await blindReferences(runs.filter((run) => run.scores && run.state === "finished").map((run) => run.scores!), findAudits(inputs))),
    notes,
    data: { mode: "report", runs: meta, items: entries, prompts, comparisons: comparisonTable(meta, items), episodes },
    script: "inline",
    pictures,
  });
  return { html, summary };
}
