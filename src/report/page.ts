/**
 * The HTML page shared by `report --format html` (one self-contained file) and `serve`: the runs
 * table, each benchmark's tables and charts (rendered here, every value escaped) and the shell
 * the viewer script (assets/viewer.js) fills with the gallery and the comparison.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ScoresDocument } from "../core/benchmark.js";
import { formatProblem } from "../core/problems.js";
import type { BlindReference } from "./blind-rows.js";
import { blindSection } from "./render.js";
import { getBenchmark } from "../registry.js";
import { escapeHtml, markdownSection, type SectionHeading } from "./markdown-html.js";
import { repeatGroups, repeatsMarkdown, summarizeRepeats } from "./repeats.js";
import type { RunFolder } from "./run-folder.js";
import { displayFolder, identityText, overallCell, runCounts, runDate, runIdentity, runLabel, runLabels, runNotes, statusCell, type RunDefaults } from "./run-facts.js";
import { uniqueLabels } from "./svg.js";
import { headlineOf, leaderboard, leaderboardBody } from "./export/leaderboard.js";
import { leaderboardHeatmap } from "./heatmap.js";
import { episodeRunsOf, runGroupKey, type EpisodeRunScores } from "./episode-runs.js";

/** JSON for a <script type="application/json"> block: no "<" can close the element early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

// The assets ship as source files (package "files" includes src/); this resolves from src/ and dist/.
const ASSETS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/report/assets");
export const viewerScript = (): string => readFileSync(path.join(ASSETS, "viewer.js"), "utf8");
export const viewerStyle = (): string => readFileSync(path.join(ASSETS, "viewer.css"), "utf8");

const percent = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? (value * 100).toFixed(1) : "–");

/** What a run folder says about itself, as a scores.json (the live header's fields while it is in progress). */
export function folderDocument(run: RunFolder): ScoresDocument {
  if (run.scores) return run.scores;
  return {
    benchmark: run.benchmark, model: run.model, n: run.results.length, score: null, tasks: {}, counts: { parse_failures: 0, errors: 0, missing: 0 },
    ...(run.name ? { name: run.name } : {}),
    ...(run.control ? { control: run.control } : {}),
    run_options: { prompt_source: run.promptSource, benchmark_options: run.benchmarkOptions },
  };
}

/** The benchmark's defaults a label leaves out. */
function defaultsOf(benchmark: string): RunDefaults {
  try {
    const b = getBenchmark(benchmark);
    return { prompt: b.promptSources[0], control: b.promptControls[0] };
  } catch {
    return {};
  }
}

/**
 * One label per run folder (name, else model and what differs from its benchmark's defaults),
 * distinct among the runs of one benchmark, as that benchmark's tables label them.
 */
export function folderLabels(runs: RunFolder[]): string[] {
  const labels: string[] = new Array(runs.length);
  // Runs of episodes are labelled among themselves, as their tables label them.
  const groupOf = (run: RunFolder) => runGroupKey(run.benchmark, run.navigation !== undefined);
  for (const group of new Set(runs.map(groupOf))) {
    const indices = runs.flatMap((run, i) => (groupOf(run) === group ? [i] : []));
    const unique = uniqueLabels(indices.map((i) => {
      const run = runs[i]!;
      return run.navigation ? episodeRunsOf(run.benchmark).runLabel(navigationDocument(run)) : runLabel(folderDocument(run), defaultsOf(run.benchmark));
    }));
    indices.forEach((i, k) => (labels[i] = unique[k]!));
  }
  return labels;
}

/** What a folder of episodes says about itself: its scores.json, or (before one is written) what its header and records tell. */
export function navigationDocument(run: RunFolder): EpisodeRunScores {
  return run.navigation?.scores ?? {
    ...(run.navigation?.header ?? {}),
    kind: "navigation", benchmark: run.benchmark, model: run.model,
    counts: { episodes: run.total, done: run.navigation?.records.length ?? 0, error: 0, not_run: Math.max(0, run.total - (run.navigation?.records.length ?? 0)) },
  };
}

/** The run's identity words, then its folder and when its scores were written: runs of one model stay apart. */
export const folderIdentity = (run: RunFolder): string => {
  const doc = run.navigation ? navigationDocument(run) : folderDocument(run);
  const words = run.navigation ? episodeRunsOf(run.benchmark).identityText(doc as EpisodeRunScores) : identityText(doc as ScoresDocument);
  const date = runDate(doc as ScoresDocument);
  return `${words} · folder ${displayFolder(run.dir)}${date ? ` · ${date}` : ""}`;
};

/**
 * A run of episodes' row of the runs table: its benchmark's cells where item runs show prompt,
 * control and options, episodes that ran / asked, and its headline metric as its score.
 */
function navigationRunRow(run: RunFolder, index: number, label: string): string {
  const episodes = episodeRunsOf(run.benchmark);
  const doc = navigationDocument(run);
  const finished = run.state === "finished" && run.navigation?.scores;
  const c = episodes.counts(doc);
  const cells = episodes.runCells(doc, run.navigation!.records, Boolean(finished));
  const state = (finished ? `<span class="${c.complete ? "complete" : "incomplete"}">${escapeHtml(episodes.statusCell(doc))}</span>` : `<span class="live">in progress: ${run.navigation!.asked === null ? `${run.navigation!.records.length} episode${run.navigation!.records.length === 1 ? "" : "s"} so far` : `${run.navigation!.records.length} of ${run.navigation!.asked} episodes`}${partialNote(run)}</span>`) +
    (run.problems.length > 0 ? ` <span class="damaged">${run.problems.length} problem${run.problems.length === 1 ? "" : "s"} (see above)</span>` : "");
  const done = finished ? c.done : run.navigation!.records.length;
  return `<tr data-run="${index}" data-kind="navigation"><td class="label">${escapeHtml(label)}</td><td>${escapeHtml(run.benchmark)} navigation</td><td>${escapeHtml(run.model)}</td><td>${escapeHtml(cells.prompt)}</td>` +
    `<td>${escapeHtml(cells.control)}</td><td>${escapeHtml(cells.option)}</td><td>${state}</td>` +
    `<td class="n" data-scored="${finished ? c.done : ""}" data-total="${run.total}">${done} / ${run.total}</td>` +
    `<td class="score" data-value="${cells.score ?? ""}">${escapeHtml(percent(cells.score))}</td><td>${escapeHtml(cells.metric)}</td>` +
    `<td class="errors">${finished ? c.error : "–"}</td><td class="unreadable">${cells.unreadable}</td></tr>`;
}

/** One row per run (keyed by its position, never its model): identity, state, N scored / N total, headline score and counts; data-* carry the exact values. */
export function runsTable(runs: RunFolder[]): string {
  const labels = folderLabels(runs);
  const rows = runs.map((run, index) => {
    if (run.navigation) return navigationRunRow(run, index, labels[index]!);
    const scores = run.scores && run.state === "finished" ? run.scores : null;
    const counts = (scores?.counts ?? {}) as Record<string, unknown>;
    const score = scores?.score ?? null;
    const id = runIdentity(folderDocument(run));
    const note = scores ? runNotes(scores).join(" · ") : "";
    const state = (scores ? `<span class="${runCounts(scores).complete ? "complete" : "incomplete"}">${escapeHtml(statusCell(scores))}</span>` : `<span class="live">in progress: ${run.results.length} of ${run.total}${partialNote(run)}</span>`) +
      (note ? ` <span class="first-error">${escapeHtml(note)}</span>` : "") +
      (run.problems.length > 0 ? ` <span class="damaged">${run.problems.length} problem${run.problems.length === 1 ? "" : "s"} (see above)</span>` : "");
    const scored = scores ? runCounts(scores) : undefined;
    const scoreCell = scores ? overallCell(scores, percent(score)) : percent(score);
    return `<tr data-run="${index}"><td class="label">${escapeHtml(labels[index]!)}</td><td>${escapeHtml(run.benchmark)}</td><td>${escapeHtml(id.model)}</td><td>${escapeHtml(run.promptSource)}</td>` +
      `<td>${escapeHtml(id.control ?? "–")}</td><td>${escapeHtml(id.options.join(", ") || "–")}</td><td>${state}</td>` +
      `<td class="n" data-scored="${scored?.scored ?? ""}" data-total="${scored?.total ?? run.total}">${scored ? `${scored.scored} / ${scored.total}` : `${run.results.length} / ${run.total}`}</td>` +
      `<td class="score" data-value="${score ?? ""}">${escapeHtml(scoreCell)}</td>` +
      `<td>${escapeHtml(String(scores?.["score_name"] ?? headlineOf(run.benchmark)))}</td>` +
      `<td class="errors">${counts["errors"] ?? "–"}</td><td class="unreadable">${counts["parse_failures"] ?? "–"}</td></tr>`;
  });
  return `<table id="runs"><thead><tr><th>Run</th><th>Benchmark</th><th>Model</th><th>Prompt</th><th>Control</th><th>Options</th><th>State</th><th>Scored / total</th><th>Score (%)</th><th>Headline</th><th>Errors</th><th>Unreadable</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** A last live.jsonl line without its newline: still being written, or cut off by a run that stopped. */
function partialNote(run: RunFolder): string {
  if (!run.partialLine) return "";
  return run.partialLine.writing
    ? ` · 1 result being written (line ${run.partialLine.line})`
    : ` · line ${run.partialLine.line} cut off (the run stopped while writing it; running it again rewrites it)`;
}

/** Damaged lines and mismatched outputs, each with its file and line, above everything else. */
export function problemsHtml(runs: RunFolder[]): string {
  const problems = runs.flatMap((run) => run.problems);
  if (problems.length === 0) return "";
  const items = problems.slice(0, 50).map((p) => `<li>${escapeHtml(formatProblem(p))}</li>`).join("");
  const more = problems.length > 50 ? `<li>… and ${problems.length - 50} more</li>` : "";
  return `<div class="problems" role="alert"><h2>Problems in the run folders</h2><p>Results on damaged lines are left out of the gallery and the counts; outputs that do not belong together may describe different runs.</p><ul>${items}${more}</ul></div>`;
}

/** A rendered part of the summary and the headings it adds to the table of contents. */
export interface Rendered {
  html: string;
  headings: SectionHeading[];
}

/** A repeated run's label: its repeats' name without " · repeat k/K" (as render.ts labels them). */
const repeatLabel = (run: ScoresDocument) => String(run["name"] ?? run.model).replace(/ · repeat \d+\/\d+$/, "");

/**
 * A part of a benchmark's Markdown that is about one run (its heading starts with the run's label
 * and a colon, e.g. "oracle: where routes fail") folds away: the comparison tables stay in view.
 */
function perRunHeading(labels: string[]): (text: string, level: number) => boolean {
  return (text, level) => level >= 3 && labels.some((label) => text.startsWith(`${label}: `));
}

/**
 * Each benchmark's section, as report.md has it (its tables, then the mean and SD of repeated
 * runs), with its heading on top and its charts right under the heading.
 */
export function benchmarkSections(runs: ScoresDocument[], seen: Set<string> = new Set(), references: readonly BlindReference[] = []): Rendered {
  const byBenchmark = new Map<string, ScoresDocument[]>();
  for (const run of runs) byBenchmark.set(run.benchmark, [...(byBenchmark.get(run.benchmark) ?? []), run]);
  const headings: SectionHeading[] = [];
  const html = [...byBenchmark].map(([id, group]) => {
    const benchmark = getBenchmark(id);
    const charts = benchmark.charts ? benchmark.charts(group) : [];
    // Each SVG draws its own title; the figure carries it for assistive technology.
    const figures = charts.map((chart) => `<figure aria-label="${escapeHtml(chart.title)}">${chart.svg}</figure>`).join("");
    const markdown = [
      benchmark.markdown(group),
      ...repeatGroups(group).map((repeats) => `\n${repeatsMarkdown(summarizeRepeats(repeats), repeatLabel(repeats[0]!))}\n`),
      // Chance and blind scores of this benchmark's data, where its audit exists or took seconds (blind-rows.ts).
      ...blindSection(id, group, references),
    ].join("");
    const labels = [...runLabels(group, defaultsOf(id)), ...group.map((run) => String(run["name"] ?? run.model))];
    const section = markdownSection(markdown, {
      idPrefix: id, seen, collapsible: perRunHeading(labels),
      afterFirstHeading: figures ? `<div class="charts">${figures}</div>` : "",
    });
    headings.push(...section.headings);
    return `<section class="benchmark" data-benchmark="${escapeHtml(id)}">${section.html}</section>`;
  }).join("\n");
  return { html, headings };
}

/** The tables of the finished runs of episodes (the Markdown report's, as HTML), a section per benchmark. */
export function navigationSection(runs: RunFolder[], seen: Set<string> = new Set()): Rendered {
  const finished = runs.filter((run) => run.navigation?.scores && run.state === "finished");
  const parts = [...new Set(finished.map((run) => run.benchmark))].map((benchmark) => {
    const episodes = episodeRunsOf(benchmark);
    const docs = finished.filter((run) => run.benchmark === benchmark).map((run) => run.navigation!.scores!);
    const labels = docs.map((doc) => episodes.runLabel(doc));
    const section = markdownSection(episodes.runsMarkdown(docs), { idPrefix: `${benchmark}-navigation`, seen, collapsible: perRunHeading(labels) });
    return { html: `<section class="benchmark" data-benchmark="${escapeHtml(benchmark)}-navigation">${section.html}</section>`, headings: section.headings };
  });
  return { html: parts.map((p) => p.html).join("\n"), headings: parts.flatMap((p) => p.headings) };
}

/** The sections the viewer fills (their headings are in GALLERY below). */
const VIEWER_HEADINGS = (runs: RunFolder[]): SectionHeading[] => [
  ...(runs.some((run) => !run.navigation) ? [{ level: 2, text: "Items", id: "gallery-section" }, { level: 2, text: "Compare runs", id: "compare-section" }] : []),
  ...(runs.some((run) => run.navigation) ? [{ level: 2, text: "Navigation episodes", id: "episodes-section" }] : []),
];

/** The table of contents: every h2 of the page, with the h3 under it; per-run parts are listed under their section. */
export function tocHtml(headings: SectionHeading[]): string {
  const items: string[] = [];
  let sub: string[] = [];
  const flush = () => {
    if (sub.length > 0 && items.length > 0) items[items.length - 1] = items[items.length - 1]!.replace(/<\/li>$/, `<ol>${sub.join("")}</ol></li>`);
    sub = [];
  };
  for (const h of headings) {
    const link = `<li><a href="#${escapeHtml(h.id)}">${escapeHtml(h.text)}</a></li>`;
    if (h.level <= 2) {
      flush();
      items.push(link);
    } else if (h.level === 3) sub.push(link);
  }
  flush();
  return `<nav id="toc" aria-label="Contents"><h2>Contents</h2><ol>${items.join("")}</ol></nav>`;
}

/** The summary block (contents, runs table, tables and charts); `serve` re-sends it when runs change. */
export function summaryHtml(runs: RunFolder[], references: readonly BlindReference[] = []): string {
  const finished = runs.filter((run) => run.scores && run.state === "finished").map((run) => run.scores!);
  const seen = new Set(["runs-section", "toc", "gallery-section", "compare-section", "episodes-section", "leaderboard-section"]);
  const board = finished.length > 0 ? leaderboardHtml(finished, references) : undefined;
  const sections = benchmarkSections(finished, seen, references);
  const navigation = navigationSection(runs, seen);
  const headings = [...(board ? [{ level: 2, text: "Leaderboard", id: "leaderboard-section" }] : []), { level: 2, text: "Runs", id: "runs-section" }, ...sections.headings, ...navigation.headings, ...VIEWER_HEADINGS(runs)];
  // Damaged folders first (an alert), then the leaderboard (as report.md has it), the runs and each benchmark's tables.
  return `${problemsHtml(runs)}${tocHtml(headings)}${board ?? ""}<h2 id="runs-section">Runs</h2>${runsTable(runs)}${sections.html}${navigation.html}`;
}

/** The models x benchmarks leaderboard: its table (as report.md prints it) and a shaded chart of it. */
function leaderboardHtml(runs: ScoresDocument[], references: readonly BlindReference[]): string {
  const board = leaderboard(runs, references);
  const titles = Object.fromEntries(board.benchmarks.map((id) => [id, getBenchmark(id).title]));
  const { html } = markdownSection(leaderboardBody(board), { idPrefix: "leaderboard", seen: new Set() });
  const chart = `<figure aria-label="Headline score per model and benchmark">${leaderboardHeatmap(board, titles)}<figcaption>Headline score (%) per run and benchmark; hatched: the score misses a task or the run is incomplete.</figcaption></figure>`;
  return `<section id="leaderboard-section"><h2>Leaderboard</h2><div class="charts">${chart}</div>${html}</section>`;
}

/** The gallery and comparison controls the viewer script fills. */
const GALLERY = `<section id="gallery-section"><h2>Items</h2>
<div class="controls">
<label>Run <select id="f-run"></select></label>
<label>Task <select id="f-task"></select></label>
<label>Outcome <select id="f-outcome"></select></label>
<label>Sort <select id="f-sort"><option value="failures">failures first</option><option value="score-asc">score, lowest first</option><option value="score-desc">score, highest first</option><option value="id">id</option><option value="run">run order</option></select></label>
<label>Search <input id="f-query" type="search" maxlength="200" placeholder="ids, prompts, replies, answers"></label>
<label id="f-pictured-label"><input id="f-pictured" type="checkbox"> only items with pictures</label>
</div>
<div class="pager"><button id="prev" type="button">previous</button><span id="page-info"></span><button id="next" type="button">next</button></div>
<div id="grid" class="grid"></div>
</section>
<section id="compare-section"><h2>Compare runs</h2>
<p class="hint">Two runs of one benchmark on the items both answered. Right = the item's outcome is right (a route that succeeds, an exact set, a full score); everything else scored counts as not right; failed requests and missing predictions are left out. p: McNemar's exact two-sided test on the items only one run got right.</p>
<div class="controls"><label>A <select id="c-a"></select></label><label>B <select id="c-b"></select></label><label>Show <select id="c-show"><option value="">all items</option><option value="onlyA">only A right</option><option value="onlyB">only B right</option><option value="bothRight">both right</option><option value="bothWrong">both not right</option></select></label><label><input id="c-diff" type="checkbox" checked> only items whose outcomes differ</label><span id="compare-count"></span></div>
<div id="compare-counts"></div>
<div id="compare-rows"></div>
</section>
<section id="episodes-section" hidden><h2>Navigation episodes</h2>
<div class="controls">
<label>Run <select id="e-run"></select></label>
<label>Task <select id="e-task"></select></label>
<label>Outcome <select id="e-outcome"></select></label>
<label>Id <input id="e-query" type="search" placeholder="filter by id"></label>
</div>
<div class="pager"><button id="e-prev" type="button">previous</button><span id="e-page-info"></span><button id="e-next" type="button">next</button></div>
<table id="episodes"><thead><tr><th>Run</th><th>Episode</th><th>Task</th><th>Outcome</th><th>SPL</th><th>Steps</th><th>Collisions</th><th>End</th></tr></thead><tbody></tbody></table>
</section>
<dialog id="detail"><div class="detail-bar"><button id="detail-prev" type="button" title="previous item (←)">← previous</button><span id="detail-pos"></span><button id="detail-next" type="button" title="next item (→)">next →</button><a id="detail-link" href="#">link to this item</a><button id="detail-close" type="button">close</button></div><div id="detail-body"></div></dialog>`;

export interface PageParts {
  title: string;
  subtitle: string;
  summary: string;
  notes: string[];
  data: unknown;
  /** "inline": the script is in the page (self-contained file); "external": served as /viewer.js. */
  script: "inline" | "external";
  /**
   * The item pictures (data: URIs by item key), placed after the viewer script: the gallery works
   * while the browser is still reading them, and fills them in once it has (assets/viewer.js).
   */
  pictures?: Record<string, string>;
}

export function page(parts: PageParts): string {
  const script = viewerScript();
  const scriptTag = parts.script === "inline" ? `<script>${script}</script>` : `<script src="/viewer.js" defer></script>`;
  // Scripts may run only if they are exactly ours: by hash in the file, by origin when served.
  const scriptSource = parts.script === "inline" ? `'sha256-${createHash("sha256").update(script).digest("base64")}'` : "'self'";
  const imgSource = parts.script === "inline" ? "data:" : "'self' data:";
  const connect = parts.script === "inline" ? "'none'" : "'self'";
  const csp = `default-src 'none'; script-src ${scriptSource}; style-src 'unsafe-inline'; img-src ${imgSource}; connect-src ${connect}; base-uri 'none'; form-action 'none'`;
  const notes = parts.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style>${viewerStyle()}</style></head>
<body><header><h1>${escapeHtml(parts.title)}</h1><p id="live-status">${escapeHtml(parts.subtitle)}</p></header>
<main>${notes}<div id="summary">${parts.summary}</div>
${GALLERY}</main>
<script type="application/json" id="sp-data">${scriptJson(parts.data)}</script>
${scriptTag}
${parts.pictures ? `<script type="application/json" id="sp-pictures">${scriptJson(parts.pictures)}</script>\n` : ""}</body></html>
`;
}
