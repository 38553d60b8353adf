/**
 * Statistics of a generated set (issue 12, part 4): questions per task, answer balance (letters,
 * answer positions, direction labels, scene-action classes), the distance histogram and the clip
 * durations, for stats.json and the generator's summary.
 */
import { DIRECTION_LABELS, EGOTL_TASKS, LETTERS, type EgoTLRow } from "../schema.js";
import type { Episode } from "./episode.js";
import { EGOTL_PARAMS as P } from "./params.js";

const DISTANCE_BINS = [0, 0.5, 1, 2, 3, 4, 6] as const;

function tally(values: readonly string[], keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/** The letter of the answer: given, or its position among the options. */
function answerLetter(row: EgoTLRow): string | null {
  if (!("options" in row)) return null;
  const a = row.answer as string;
  return (LETTERS as readonly string[]).includes(a) ? a : LETTERS[row.options.indexOf(a)] ?? null;
}

function summary(xs: readonly number[]): { n: number; mean: number; min: number; max: number } {
  if (xs.length === 0) return { n: 0, mean: 0, min: 0, max: 0 };
  const r = (x: number) => Math.round(x * 100) / 100;
  return { n: xs.length, mean: r(xs.reduce((a, b) => a + b, 0) / xs.length), min: r(Math.min(...xs)), max: r(Math.max(...xs)) };
}

/** The labels of metre bins [edge k, edge k + 1), the last open ("2-4 m", ">= 4 m"). */
export function metreBinLabels(edges: readonly number[]): string[] {
  return edges.map((lo, k) => (k + 1 < edges.length ? `${lo}-${edges[k + 1]} m` : `>= ${lo} m`));
}

/** The bin of a value among ascending edges (below the first edge: the first bin). */
export function binIndex(edges: readonly number[], value: number): number {
  return Math.max(0, edges.filter((lo) => value >= lo).length - 1);
}

/** Counts per distance bin. */
function distanceHistogram(metres: readonly number[]): Record<string, number> {
  const labels = metreBinLabels(DISTANCE_BINS);
  const out: Record<string, number> = Object.fromEntries(labels.map((l) => [l, 0]));
  for (const m of metres) out[labels[binIndex(DISTANCE_BINS, m)]!]!++;
  return out;
}

function splitStats(rows: readonly EgoTLRow[]) {
  return {
    questions: Object.fromEntries(EGOTL_TASKS.map((t) => [t, rows.filter((r) => r.task === t).length])),
    answer_letters: Object.fromEntries(EGOTL_TASKS.filter((t) => t !== "direction" && t !== "distance").map((t) => [t, tally(rows.filter((r) => r.task === t).map((r) => answerLetter(r) ?? "?"), LETTERS)])),
    direction_labels: tally(rows.filter((r) => r.task === "direction").map((r) => r.answer as string), DIRECTION_LABELS),
    scene_action_classes: tally(rows.filter((r) => r.task === "scene_action" && "options" in r).map((r) => String((r.meta?.["kinds"] as string[] | undefined)?.[(r as { options: string[] }).options.indexOf(r.answer as string)] ?? "?")), ["straight", "left", "right", "around"]),
    distance_m: { ...summary(rows.filter((r) => r.task === "distance").map((r) => r.answer as number)), histogram: distanceHistogram(rows.filter((r) => r.task === "distance").map((r) => r.answer as number)) },
    clip_seconds: Object.fromEntries(EGOTL_TASKS.filter((t) => t !== "planning" && t !== "scene_action").map((t) => [t, summary(rows.filter((r) => r.task === t).map((r) => {
      const f = r.meta?.["frames"] as [number, number] | undefined;
      return f ? (f[1] - f[0]) / P.fps : 0;
    }))])),
  };
}

export function datasetStats(test: readonly EgoTLRow[], train: readonly EgoTLRow[], rendered: readonly Episode[]): Record<string, unknown> {
  return {
    test: splitStats(test),
    train: splitStats(train),
    rendered_episodes: {
      n: rendered.length,
      seconds: summary(rendered.map((e) => e.frames.length / P.fps)),
      clips: summary(rendered.map((e) => e.clips.length)),
      templates: tally(rendered.map((e) => e.activity.template), []),
    },
  };
}

/** A few lines for the terminal. */
export function statsSummary(stats: Record<string, unknown>): string {
  const t = stats["test"] as ReturnType<typeof splitStats>;
  const fmt = (r: Record<string, unknown>) => Object.entries(r).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  return [
    `questions: ${fmt(t.questions)}`,
    `answer letters: ${Object.entries(t.answer_letters).map(([task, l]) => `${task} ${Object.values(l).join("/")}`).join("; ")}`,
    `direction labels: ${fmt(t.direction_labels)}`,
    `scene-action classes: ${fmt(t.scene_action_classes)}`,
    `distance: mean ${t.distance_m.mean} m (${t.distance_m.min}-${t.distance_m.max}); ${fmt(t.distance_m.histogram)}`,
    `clip seconds: ${Object.entries(t.clip_seconds).map(([task, s]) => `${task} ${s.mean} (${s.min}-${s.max})`).join("; ")}`,
  ].join("\n");
}
