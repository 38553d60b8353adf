/**
 * One audit of a loaded set: per task, the exact chance level, the answer distribution, every
 * blind rule, the cross-validated forest on the non-visual inputs (TsT) and, apart, the cue rules
 * and the forest on cue features; per item, the bias score s(x) and the rules that answer it
 * right. Every reply is read and scored by the benchmark's own readReply/scoreItem/summarize, so
 * each number is what `score` would give on the same replies.
 */
import type { Benchmark, BenchItem, ItemResult } from "../core/benchmark.js";
import { clusterBootstrap } from "../stats/bootstrap.js";
import type { ForestOptions } from "./forest.js";
import { genericRules } from "./rules.js";
import { assignFolds, crossValidatedForest, type ForestVerdict, type Importance } from "./tst.js";
import type { AuditUnit, BenchmarkAudit, BlindRule, Headline, Legibility } from "./types.js";
import { hasCues } from "./units.js";

export interface AuditOptions {
  folds: number;
  seed: number;
  /** Bootstrap resamples for the intervals (the benchmark's own summarize draws them). */
  bootstrap: number;
  forest?: Partial<ForestOptions>;
}

/** `audit`'s defaults: 5 folds (TsT §3), a fixed seed, 500 bootstrap resamples for the intervals. */
export const DEFAULT_AUDIT_OPTIONS: AuditOptions = { folds: 5, seed: 26, bootstrap: 500 };

export interface ScoredAnswerer {
  name: string;
  describe: string;
  score: number | null;
  ci: [number, number] | null;
}

export interface ForestScore {
  score: number | null;
  ci: [number, number] | null;
  folds: number;
  top_features: Importance[];
}

export interface TaskAudit {
  metric: string;
  n: number;
  chance: number | null;
  /** Share of the items whose right answer is of each class (letter, position, count, frame position). */
  answers: Record<string, number>;
  blind: ScoredAnswerer[];
  /** The blind rule that scores highest on these very items: an optimistic figure, since the rule is picked with the answers in view. */
  blind_best: { name: string; score: number } | null;
  /**
   * A blind answerer that picks its rule without the answers: per fold, the rule with the highest
   * mean credit on the other folds (fitted there), scored on the held-out fold.
   */
  blind_selected: { score: number | null; ci: [number, number] | null; chosen: string[] } | null;
  tst: ForestScore | null;
  cues: { rules: ScoredAnswerer[]; best: { name: string; score: number } | null; forest: ForestScore | null } | null;
  legibility?: Legibility;
}

export interface AuditDocument {
  benchmark: string;
  /** The prompt variant whose derived questions were audited (absent: the loaded items). */
  prompt?: string;
  n: number;
  folds: number;
  seed: number;
  tasks: Record<string, TaskAudit>;
  /** The benchmark's overall score (summarize's `score`): its chance, the best blind rule of each task put together, and TsT. */
  overall: { metric: string; chance: number | null; blind_best: { name: string; score: number } | null; blind_selected?: { score: number } | null; tst: number | null };
}

export interface ItemAudit {
  id: string;
  task: string;
  /** TsT's held-out confidence in the right answer. */
  s: number;
  /** The cue forest's, where the benchmark reads cues. */
  s_cues?: number;
  /** Blind and cue rules (and "tst", "cue forest") whose reply earns at least half the item's credit. */
  right: string[];
}

export interface AuditResult {
  document: AuditDocument;
  items: ItemAudit[];
}

/** Replies of one answerer for every unit, keyed by unit id. */
type Replies = Map<string, string>;

/** Held-out replies of a rule: fitted on the other folds for each fold. */
function ruleReplies(rule: BlindRule, units: readonly AuditUnit[], fold: readonly number[], folds: number): Replies {
  const replies: Replies = new Map();
  for (let f = 0; f < folds; f++) {
    const answer = rule.fit(units.filter((_, i) => fold[i] !== f));
    units.forEach((u, i) => {
      if (fold[i] === f) replies.set(u.id, answer(u));
    });
  }
  return replies;
}

/**
 * Nested selection: for each fold, every rule is fitted on the other folds and scored there by
 * mean credit; the best (the earlier on ties) answers the held-out fold. The held-out items
 * neither fit nor pick the rule, so the score is what a blind answerer can expect on new items,
 * where the best rule over the same items (blind_best) also counts its luck.
 */
function selectedRuleReplies(rules: readonly BlindRule[], units: readonly AuditUnit[], fold: readonly number[], folds: number, credit: (unit: AuditUnit, reply: string) => number): { replies: Replies; chosen: string[] } {
  const replies: Replies = new Map();
  const chosen: string[] = [];
  for (let f = 0; f < folds; f++) {
    const train = units.filter((_, i) => fold[i] !== f);
    let pick: { name: string; answer: (u: AuditUnit) => string; mean: number } | null = null;
    for (const rule of rules) {
      const answer = rule.fit(train);
      const mean = train.reduce((s, u) => s + credit(u, answer(u)), 0) / Math.max(1, train.length);
      if (pick === null || mean > pick.mean) pick = { name: rule.name, answer, mean };
    }
    if (!pick) break;
    chosen.push(pick.name);
    units.forEach((u, i) => {
      if (fold[i] === f) replies.set(u.id, pick!.answer(u));
    });
  }
  return { replies, chosen };
}

/** Score replies with the benchmark's own reader, scorer and summary; an item without a reply gets "" (unreadable). */
function scoreReplies<I extends BenchItem>(benchmark: Benchmark<I>, audit: BenchmarkAudit<I>, items: readonly I[], units: ReadonlyMap<string, AuditUnit>, replies: Replies, tasks: string[], options: AuditOptions) {
  const credits = new Map<string, number>();
  const results: ItemResult[] = items.map((item) => {
    const prompt = units.get(item.id)?.prompt;
    const answer = benchmark.readReply(item, replies.get(item.id) ?? "", prompt);
    const detail = benchmark.scoreItem(item, answer, prompt);
    credits.set(item.id, audit.credit(item, detail));
    return { id: item.id, task: item.task, cluster: item.cluster, status: "scored", answer, detail, ...(prompt ? { prompt } : {}) };
  });
  const summary = benchmark.summarize(items as I[], results, tasks, { bootstrapResamples: options.bootstrap, bootstrapSeed: options.seed });
  const headline = (task: string): Headline => {
    const h = audit.headline(summary, task);
    if (h.ci || !h.meanOfCredit || options.bootstrap === 0) return h;
    return { ...h, ci: creditInterval(items.filter((i) => (units.get(i.id)?.task ?? i.task) === task), credits, options) };
  };
  return { summary, credits, headline };
}

/** 95% cluster-bootstrap interval (scenes resampled) of the mean credit of `items`. */
function creditInterval(items: readonly BenchItem[], credits: ReadonlyMap<string, number>, options: AuditOptions): [number, number] | null {
  const byCluster = new Map<string, Float64Array>();
  for (const item of items) {
    const v = byCluster.get(item.cluster) ?? byCluster.set(item.cluster, new Float64Array(2)).get(item.cluster)!;
    v[0] = v[0]! + (credits.get(item.id) ?? 0);
    v[1] = v[1]! + 1;
  }
  const ci = clusterBootstrap([...byCluster.values()], (sum) => ({ mean: sum[1]! > 0 ? sum[0]! / sum[1]! : NaN }), { resamples: options.bootstrap, seed: options.seed })["mean"];
  return ci ?? null;
}

const best = (list: readonly ScoredAnswerer[]): { name: string; score: number } | null =>
  list.reduce<{ name: string; score: number } | null>((b, r) => (r.score !== null && (b === null || r.score > b.score) ? { name: r.name, score: r.score } : b), null);

/** Share of each answer class among units. */
function answerShares(units: readonly AuditUnit[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const u of units) counts.set(u.answerClass, (counts.get(u.answerClass) ?? 0) + 1);
  return Object.fromEntries([...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => [k, v / units.length]));
}

/** Audit `items` (a benchmark's loaded set, or a kept subset of it) given their units. */
export function auditUnits<I extends BenchItem>(benchmark: Benchmark<I>, items: readonly I[], allUnits: readonly AuditUnit[], options: AuditOptions, legibility?: Record<string, Legibility>): AuditResult {
  const audit = benchmark.audit;
  if (!audit) throw new Error(`${benchmark.id} has no audit`);
  const ids = new Set(items.map((i) => i.id));
  const units = allUnits.filter((u) => ids.has(u.id));
  const unitById = new Map(units.map((u) => [u.id, u]));
  // The tasks the benchmark's summary is asked for (the items' own), and the audit's (the units': a derived question may be scored under another key, e.g. PathEval's Table 12).
  const tasks = [...new Set(items.map((i) => i.task))];
  const taskOf = new Map(units.map((u) => [u.id, u.task]));
  const byTask = new Map<string, AuditUnit[]>();
  for (const u of units) (byTask.get(u.task) ?? byTask.set(u.task, []).get(u.task)!).push(u);

  // Held-out replies of every answerer, task by task; an answerer absent from a task leaves its items unanswered.
  const answerers = new Map<string, { describe: string; cue: boolean; replies: Replies; tasks: Set<string> }>();
  const itemById = new Map(items.map((i) => [i.id, i]));
  const creditOf = (unit: AuditUnit, reply: string): number => {
    const item = itemById.get(unit.id)!;
    return audit.credit(item, benchmark.scoreItem(item, benchmark.readReply(item, reply, unit.prompt), unit.prompt));
  };
  const selected: Replies = new Map();
  const chosenRules = new Map<string, string[]>();
  const forests = new Map<string, { tst: ForestVerdict; cues: ForestVerdict | null }>();
  for (const [task, taskUnits] of byTask) {
    const fold = assignFolds(taskUnits.map((u) => u.id), Math.max(2, Math.min(options.folds, taskUnits.length)), options.seed);
    const folds = Math.max(...fold) + 1;
    const withCues = taskUnits.some(hasCues);
    // Cue rules read the picture's features: without them (--no-cues) they are not run.
    const rules = [...genericRules(taskUnits), ...audit.rules.filter((r) => (!r.tasks || r.tasks.includes(task)) && (withCues || !r.cue))];
    for (const rule of rules) {
      const entry = answerers.get(rule.name) ?? { describe: rule.describe, cue: rule.cue === true, replies: new Map(), tasks: new Set<string>() };
      for (const [id, reply] of ruleReplies(rule, taskUnits, fold, folds)) entry.replies.set(id, reply);
      entry.tasks.add(task);
      answerers.set(rule.name, entry);
    }
    const pick = selectedRuleReplies(rules.filter((r) => !r.cue), taskUnits, fold, folds, creditOf);
    for (const [id, reply] of pick.replies) selected.set(id, reply);
    chosenRules.set(task, pick.chosen);
    const forestOptions = { ...options.forest, seed: options.seed };
    const tst = crossValidatedForest(taskUnits, fold, "text", forestOptions);
    const cues = withCues ? crossValidatedForest(taskUnits, fold, "cues", forestOptions) : null;
    forests.set(task, { tst, cues });
  }
  const joined = (pick: (v: { tst: ForestVerdict; cues: ForestVerdict | null }) => ForestVerdict | null): Replies => {
    const out: Replies = new Map();
    for (const v of forests.values()) for (const [id, r] of pick(v)?.replies ?? []) out.set(id, r);
    return out;
  };

  const scored = new Map<string, ReturnType<typeof scoreReplies<I>>>();
  for (const [name, a] of answerers) scored.set(name, scoreReplies(benchmark, audit, items, unitById, a.replies, tasks, options));
  const tstScored = scoreReplies(benchmark, audit, items, unitById, joined((v) => v.tst), tasks, options);
  const selectedScored = scoreReplies(benchmark, audit, items, unitById, selected, tasks, options);
  const anyCues = [...forests.values()].some((v) => v.cues);
  const cueScored = anyCues ? scoreReplies(benchmark, audit, items, unitById, joined((v) => v.cues), tasks, options) : null;

  const taskDocs: Record<string, TaskAudit> = {};
  for (const [task, taskUnits] of byTask) {
    const taskItems = items.filter((i) => taskOf.get(i.id) === task);
    const list = (cue: boolean): ScoredAnswerer[] =>
      [...answerers.entries()].filter(([, a]) => a.cue === cue && a.tasks.has(task)).map(([name, a]) => {
        const h = scored.get(name)!.headline(task);
        return { name, describe: a.describe, score: h.score, ci: h.ci };
      });
    const forestScore = (s: ReturnType<typeof scoreReplies<I>> | null, verdict: ForestVerdict | null | undefined): ForestScore | null => {
      if (!s || !verdict) return null;
      const h = s.headline(task);
      return { score: h.score, ci: h.ci, folds: Math.min(options.folds, taskUnits.length), top_features: verdict.importance.filter((f) => f.drop > 0).slice(0, 8) };
    };
    const blind = list(false);
    const cueRules = list(true);
    const chosen = chosenRules.get(task) ?? [];
    const picked = selectedScored.headline(task);
    const forest = forests.get(task);
    const cueForest = forestScore(cueScored, forest?.cues);
    taskDocs[task] = {
      metric: tstScored.headline(task).metric,
      n: taskItems.length,
      chance: audit.chance(taskItems as I[], task),
      answers: answerShares(taskUnits),
      blind,
      blind_best: best(blind),
      blind_selected: chosen.length > 0 ? { score: picked.score, ci: picked.ci, chosen } : null,
      tst: forestScore(tstScored, forest?.tst),
      cues: cueRules.length > 0 || cueForest ? { rules: cueRules, best: best(cueRules), forest: cueForest } : null,
      ...(legibility?.[task] ? { legibility: legibility[task] } : {}),
    };
  }

  const overallOf = (s: ReturnType<typeof scoreReplies<I>>) => (typeof s.summary.score === "number" ? s.summary.score : null);
  // The overall score of the best blind rule of each task, put together (as the "rules that read only the question and options score Avg. 85.8").
  const perTask: Replies = new Map();
  for (const [task, doc] of Object.entries(taskDocs)) {
    const replies = doc.blind_best ? answerers.get(doc.blind_best.name)!.replies : null;
    for (const u of byTask.get(task) ?? []) perTask.set(u.id, replies?.get(u.id) ?? "");
  }
  const perTaskScore = overallOf(scoreReplies(benchmark, audit, items, unitById, perTask, tasks, { ...options, bootstrap: 0 }));
  const overallBlind = perTaskScore === null ? null : { name: "best rule per task", score: perTaskScore };
  const selectedScore = overallOf(selectedScored);
  const scoreName = tstScored.summary["score_name"];
  const document: AuditDocument = {
    benchmark: benchmark.id,
    n: items.length,
    folds: options.folds,
    seed: options.seed,
    tasks: taskDocs,
    overall: { metric: typeof scoreName === "string" ? scoreName : (audit.overallMetric ?? "score"), chance: audit.overallChance?.(items as I[]) ?? null, blind_best: overallBlind, blind_selected: selectedScore === null ? null : { score: selectedScore }, tst: overallOf(tstScored) },
  };

  const itemDocs: ItemAudit[] = items.map((item) => {
    const task = taskOf.get(item.id) ?? item.task;
    const forest = forests.get(task);
    const right = [...answerers.keys()].filter((name) => answerers.get(name)!.tasks.has(task) && (scored.get(name)!.credits.get(item.id) ?? 0) >= 0.5);
    if ((tstScored.credits.get(item.id) ?? 0) >= 0.5) right.push("tst");
    if (cueScored && forest?.cues && (cueScored.credits.get(item.id) ?? 0) >= 0.5) right.push("cue forest");
    const sCues = forest?.cues?.s.get(item.id);
    return { id: item.id, task, s: forest?.tst.s.get(item.id) ?? 0, ...(sCues !== undefined ? { s_cues: sCues } : {}), right };
  });
  return { document, items: itemDocs };
}
