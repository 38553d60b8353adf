/**
 * The paper's comparison tables across runs, computed from each run's per-item list
 * (scores.json `per_item`) on the samples every compared run scored:
 *  - Table 4: counting score with the joint prompt (count + boxes) against the count-only prompt,
 *    on Target Localization and Contact Relationship samples whose count must be precise (Sec. 5.2);
 *  - Table 5: the overlay ablation (no overlay, box, mask) on Feasible Path, Affordance Region,
 *    Contact Relationship and Placement Region (Sec. 5.3);
 *  - the mean over repeats of one run (Sec. 4.1: "the average performance across 6 independent runs").
 */
import type { ScoresDocument } from "../../core/benchmark.js";
import { repeatOf } from "../../report/repeats.js";
import { runIdentity } from "../../report/run-facts.js";
import { PER_ITEM_COLUMNS, type PerItemStatus } from "./aggregate.js";
import { COUNT_ONLY, OVERLAY_VARIANTS } from "./prompt.js";
import { BY_GROUP_ORDER } from "./taxonomy.js";

export interface PerItem {
  id: string;
  group: string;
  status: PerItemStatus;
  score: number | null;
  countScore: number | null;
  countExact: boolean | null;
  gtCount: number | null;
  preciseCount: boolean | null;
}

/** A run's per-item list, or undefined when its scores.json has none (or another layout). */
export function perItemsOf(run: ScoresDocument): PerItem[] | undefined {
  const table = run["per_item"] as { columns?: unknown; rows?: unknown } | undefined;
  if (!table || !Array.isArray(table.rows) || JSON.stringify(table.columns) !== JSON.stringify(PER_ITEM_COLUMNS)) return undefined;
  return (table.rows as unknown[][]).map((r) => ({
    id: String(r[0]),
    group: BY_GROUP_ORDER[r[1] as number] ?? "",
    status: r[2] as PerItemStatus,
    score: r[3] as number | null,
    countScore: r[4] as number | null,
    countExact: r[5] as boolean | null,
    gtCount: r[6] as number | null,
    preciseCount: r[7] as boolean | null,
  }));
}

/** The prompt variant a run answered: the built prompt's, else the one `score --prompt` named, else mask-overlay. */
export const variantOf = (run: ScoresDocument): string =>
  (run["prompt"] as { variant?: string } | undefined)?.variant ?? (run["run_options"] as { prompt_source?: string } | undefined)?.prompt_source ?? OVERLAY_VARIANTS[0];
export const rulesOf = (run: ScoresDocument): string => ((run["scoring"] as { rules?: { in_force?: string } } | undefined)?.rules?.in_force) ?? "official";

/**
 * The model a run stands for: its model spec; for predictions scored with `score` (replay:<file>,
 * one file per variant) the run's --name when it has one, so files of one model pair up.
 */
const modelOf = (run: ScoresDocument): string => {
  const id = runIdentity(run);
  return id.model.startsWith("replay:") && id.name ? id.name : id.model;
};

/** What makes two runs "the same model and settings" apart from the prompt variant: the model, its options, the rules. */
export function settingsKey(run: ScoresDocument): string {
  return JSON.stringify([modelOf(run), runIdentity(run).options, rulesOf(run)]);
}

export function settingsLabel(run: ScoresDocument): string {
  const id = { ...runIdentity(run), model: modelOf(run) };
  const extras = [...id.options.filter((o) => o !== "outside root allowed"), ...(rulesOf(run) === "paper" ? ["paper rules"] : [])];
  return extras.length > 0 ? `${id.model} (${extras.join(", ")})` : id.model;
}

const scored = (s: PerItemStatus) => s === "ok" || s === "invalid";
const mean = (xs: number[]) => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** Ids that every list scored, among those `inScope` accepts. */
export function commonScored(lists: PerItem[][], inScope: (p: PerItem) => boolean): Set<string> {
  if (lists.length === 0) return new Set();
  const sets = lists.map((list) => new Set(list.filter((p) => inScope(p) && scored(p.status)).map((p) => p.id)));
  return new Set([...sets[0]!].filter((id) => sets.every((s) => s.has(id))));
}

export interface ComparisonCell {
  /** The run's label (model and settings) and prompt variant. */
  label: string;
  variant: string;
  /** Mean over the common samples (fraction), null when there are none. */
  value: number | null;
  n: number;
  /** Samples in scope that ended in an error / had no prediction in this run. */
  errors: number;
  missing: number;
  /** The same mean per group over the common samples of that group (Table 5's tasks). */
  byGroup: Record<string, { value: number | null; n: number }>;
  /** Repeats of one run (`run --repeats`) make one cell: the mean of their values, errors and missing summed. */
  repeats: number;
}

export interface Comparison {
  cells: ComparisonCell[];
  /** Samples in the intersection. */
  common: number;
  /** Runs left out because their scores.json has no per-item list. */
  withoutPerItem: string[];
}

/** The repeats of one run as one cell: the plain mean of the repeats' values (the paper's averaging). */
function mergeRepeats(cells: Array<ComparisonCell & { group: string }>): ComparisonCell[] {
  const order: string[] = [];
  const byGroup = new Map<string, ComparisonCell[]>();
  for (const { group, ...cell } of cells) {
    if (!byGroup.has(group)) order.push(group);
    byGroup.set(group, [...(byGroup.get(group) ?? []), cell]);
  }
  return order.map((group) => {
    const list = byGroup.get(group)!;
    if (list.length === 1) return list[0]!;
    const avg = (xs: Array<number | null>) => mean(xs.filter((v): v is number => v !== null));
    const first = list[0]!;
    return {
      ...first,
      value: avg(list.map((c) => c.value)),
      errors: list.reduce((s, c) => s + c.errors, 0),
      missing: list.reduce((s, c) => s + c.missing, 0),
      byGroup: Object.fromEntries(Object.keys(first.byGroup).map((g) => [g, { value: avg(list.map((c) => c.byGroup[g]!.value)), n: first.byGroup[g]!.n }])),
      repeats: list.length,
    };
  });
}

/**
 * One cell per run (the repeats of a run averaged into one), each the mean of `value` over the
 * samples in scope that every run, every repeat included, scored. Runs are given in display order.
 */
function compare(runs: ScoresDocument[], inScope: (p: PerItem) => boolean, value: (p: PerItem) => number | null, groups: readonly string[] = []): Comparison {
  const withLists = runs.map((run) => ({ run, list: perItemsOf(run) }));
  const usable = withLists.filter((r): r is { run: ScoresDocument; list: PerItem[] } => r.list !== undefined);
  const common = commonScored(usable.map((r) => r.list), inScope);
  const cells = usable.map(({ run, list }, i) => {
    const inside = list.filter((p) => common.has(p.id));
    const valuesOf = (ps: PerItem[]) => ps.map(value).filter((v): v is number => v !== null);
    const values = valuesOf(inside);
    const byGroup = Object.fromEntries(groups.map((g) => {
      const v = valuesOf(inside.filter((p) => p.group === g));
      return [g, { value: mean(v), n: v.length }];
    }));
    return {
      label: settingsLabel(run),
      variant: variantOf(run),
      value: mean(values),
      n: values.length,
      errors: list.filter((p) => inScope(p) && p.status === "error").length,
      missing: list.filter((p) => inScope(p) && p.status === "missing").length,
      byGroup,
      repeats: 1,
      group: repeatOf(run)?.group ?? `#${i}`,
    };
  });
  return { cells: mergeRepeats(cells), common: common.size, withoutPerItem: withLists.filter((r) => !r.list).map((r) => settingsLabel(r.run)) };
}

/** Table 5's scope: the tasks with a reference overlay the paper ablates. */
export const OVERLAY_ABLATION_GROUPS = ["Navigation/FeasiblePath", "Manipulation/AffordanceRegion", "Manipulation/ContactRelationship", "Manipulation/PlacementRegion"];

/** Table 5: overlay-variant runs (no-overlay, box-overlay, mask-overlay) of models run with two or more of them, on the common samples. */
export function overlayAblation(runs: ScoresDocument[]): Comparison {
  const order = ["no-overlay", "box-overlay", "mask-overlay"];
  const chosen = runs.filter((r) => order.includes(variantOf(r)));
  const keys = [...new Set(chosen.map(settingsKey))].filter((k) => new Set(chosen.filter((r) => settingsKey(r) === k).map(variantOf)).size > 1);
  const sorted = keys.flatMap((k) => order.flatMap((v) => chosen.filter((r) => settingsKey(r) === k && variantOf(r) === v)));
  return compare(sorted, (p) => OVERLAY_ABLATION_GROUPS.includes(p.group), (p) => p.score, OVERLAY_ABLATION_GROUPS);
}

/** Table 4's scope: TL and CR samples whose count must be precise. */
export const isPreciseCountSample = (p: PerItem) => p.preciseCount === true && (p.group.startsWith("TargetLocalization/") || p.group === "Manipulation/ContactRelationship");

/** Table 4: joint (mask-overlay) against count-only runs, by model, counting score on the common samples. */
export function jointVsCountOnly(runs: ScoresDocument[]): Comparison {
  const order = [OVERLAY_VARIANTS[0], COUNT_ONLY] as string[];
  const chosen = runs.filter((r) => order.includes(variantOf(r)));
  const keys = [...new Set(chosen.map(settingsKey))].filter((k) => chosen.some((r) => settingsKey(r) === k && variantOf(r) === COUNT_ONLY));
  const sorted = keys.flatMap((k) => order.flatMap((v) => chosen.filter((r) => settingsKey(r) === k && variantOf(r) === v)));
  return compare(sorted, isPreciseCountSample, (p) => p.countScore);
}

export interface RepeatMean {
  label: string;
  repeats: number;
  /** Mean of the repeats' overall scores and of their group means (fractions); null where no repeat has one. */
  overall: number | null;
  byGroup: Record<string, number | null>;
  /** Samples scored in each repeat. */
  n: number[];
}

type Bucket = { mean_score?: number };

/**
 * The mean over repeats of one run (`run --repeats K`), as the paper averages its runs: the plain
 * mean of the per-run overall scores and per-run group means (each run's own sample mean).
 */
export function repeatMeans(runs: ScoresDocument[]): RepeatMean[] {
  const groups = new Map<string, ScoresDocument[]>();
  for (const run of runs) {
    const r = repeatOf(run);
    if (!r) continue;
    groups.set(r.group, [...(groups.get(r.group) ?? []), run]);
  }
  return [...groups.values()].filter((g) => g.length > 1).map((g) => {
    const summaries = g.map((run) => run["summary"] as { overall?: { average_score?: number }; by_group?: Record<string, Bucket> } | undefined);
    const avg = (values: Array<number | undefined>) => mean(values.filter((v): v is number => typeof v === "number"));
    return {
      label: String(g[0]!["name"] ?? g[0]!.model).replace(/ · repeat \d+\/\d+$/, ""),
      repeats: g.length,
      overall: avg(g.map((run) => (run.score === null ? undefined : run.score))),
      byGroup: Object.fromEntries(BY_GROUP_ORDER.map((k) => [k, avg(summaries.map((s) => s?.by_group?.[k]?.mean_score))])),
      n: g.map((run) => run.n),
    };
  });
}
