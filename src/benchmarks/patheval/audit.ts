/**
 * PathEval for `spatialprobe audit` (src/audit/types.ts): can the better path be named without
 * looking at the picture?
 *
 * - Pairs (tasks 2D, 3D; the prompt the default run uses, "plain"): a choice between the two paths
 *   in the order shown (prompt.ts shownPair: names and whether the pair was flipped; the unit's
 *   prompt carries them, so readReply maps a shown position back to the record's path). Replies
 *   are the template's contract ("Answer: <name>."). Candidate features: shown position, name
 *   length, and the descriptor values when the variant states them in the text (with-descriptors,
 *   descriptors-only; never in "plain"). Item features: the dimension, the scenario (its template
 *   id, 1..15, as the text names it), the question's length.
 * - Probe items, when the audit is given them (deriveItems of a probe prompt): the fine-grained
 *   and segment questions are pairs too (task "fine-grained" / "segments"); the attribute
 *   abstraction (task "attribute-abstraction") is, in the paper's list format (Table 12), a subset
 *   of the seven descriptors (label 1: the scenario needs it, Table 7), and in our stances format
 *   a choice among the three uniform answers (all smaller / all larger / all irrelevant), with
 *   partial credit = the share of descriptors whose direction is right.
 * - Rules: always the first shown path, always the second, the position that was right most often
 *   for the same scenario on the training folds; for the abstraction, "name every descriptor"
 *   (Table 12's measure counts a scenario as solved when any needed descriptor is named, and
 *   every scenario needs at least two: it always wins).
 * - Chance: 0.5 for every pair task; Table 12's exact chance for a uniform random subset of the
 *   seven descriptors, the mean over scenarios of 1 - 2^-k (k: descriptors the scenario needs;
 *   88.96% over the 15 scenarios); 1/3 for the stances' per-descriptor direction accuracy.
 * - No cue features: answers are not marks on the picture, so no cue rule applies.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { copyRegularFile, readRegularText } from "../../core/file-read.js";
import path from "node:path";
import type { ScoresDocument } from "../../core/benchmark.js";
import { isInside } from "../../core/dataroot.js";
import type { AuditUnit, BenchmarkAudit, BlindRule, Candidate, Headline } from "../../audit/types.js";
import { abstractionFormatOf, fineGrainedSetOf, trueStances } from "./probes.js";
import { buildMessages, buildProbeMessages, leftPath, loadTemplates, other, shownPair, type PathEvalTemplates, type ShownPair, type Variant } from "./prompt.js";
import { DESCRIPTORS, relevantDescriptors, scenarioById } from "./scenarios.js";
import type { PathEvalItem, PathName } from "./types.js";
import { choiceCandidates } from "../../audit/units.js";

/** The variant the default run asks (`run patheval` without --prompt: the first prompt source). */
const DEFAULT_VARIANT: Variant = "plain";

/** A 2x2 PNG (halves a flipped prompt can swap): stands in for the picture while the prompt's text is built (no file is read). */
const PLACEHOLDER_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADklEQVR4nGP4DwYMEAoAU7oL9ZisIGcAAAAASUVORK5CYII=", "base64");

export const PAIR_TASKS = ["2D", "3D", "fine-grained", "segments"] as const;
export const ABSTRACTION_TASK = "attribute-abstraction";

/** The reply choosing the path shown under `name` (the template's contract, read by parse.ts). */
export const pathReply = (name: string): string => `Answer: ${name}.\nExplanation: blind audit rule.`;
/** The reply naming `descriptors` in the paper's list format (App. C.1.3). */
export const listReply = (descriptors: readonly string[]): string => `Answer: ${descriptors.length > 0 ? descriptors.join("; ") : "none"}.\nExplanation: blind audit rule.`;
const UNIFORM_STANCES = { smaller: "all smaller", larger: "all larger", irrelevant: "all irrelevant" } as const;
const stancesReply = (word: keyof typeof UNIFORM_STANCES): string => DESCRIPTORS.map((d) => `${d}: ${word}`).join("\n");

/** The summary's task a PathEval item is scored under (summarize's tasks[...] key). */
export function auditTask(item: PathEvalItem): string {
  if (!item.probe) return item.task;
  if (item.probe.kind === "attribute-abstraction") return ABSTRACTION_TASK;
  return fineGrainedSetOf(item.probe) === "segments" ? "segments" : "fine-grained";
}

const textOf = (messages: Awaited<ReturnType<typeof buildMessages>>): string =>
  messages.flatMap((m) => m.content.flatMap((p) => (p.type === "text" ? [p.text] : []))).join("\n");

/** The prompt's text parts for this item (no picture read: a placeholder stands in). */
async function promptText(item: PathEvalItem, shown: ShownPair, templates: PathEvalTemplates): Promise<string> {
  const messages = item.probe ? await buildProbeMessages(item, shown, templates, () => PLACEHOLDER_PNG) : await buildMessages(item, shown, templates, () => PLACEHOLDER_PNG);
  return textOf(messages);
}

/** The record's path shown at position k (0 = left). */
const pathAt = (shown: ShownPair, k: 0 | 1): PathName => (k === 0 ? leftPath(shown) : other(leftPath(shown)));

/** Which path is right: the fine-grained probe's smaller one, else the record's truth. */
const rightPath = (item: PathEvalItem): PathName => (item.probe?.kind === "fine-grained" ? item.probe.smaller : item.truth);

const STATES_VALUES: readonly Variant[] = ["with-descriptors", "descriptors-only"];

function pairCandidates(item: PathEvalItem, shown: ShownPair): Candidate[] {
  return ([0, 1] as const).map((k) => {
    const shownPath = pathAt(shown, k);
    const features: Record<string, number> = { position: k, is_first: k === 0 ? 1 : 0, options: 2, name_chars: shown.names[k].length };
    if (!item.probe && STATES_VALUES.includes(shown.variant)) {
      DESCRIPTORS.forEach((d, j) => (features[`stated_${j}`] = item.metrics[shownPath][d]));
    }
    return { reply: pathReply(shown.names[k]), label: shownPath === rightPath(item) ? 1 : 0, features, text: shown.names[k] };
  });
}

function abstractionAnswer(item: PathEvalItem): { answer: AuditUnit["answer"]; answerClass: string } {
  const scenarioId = (item.probe as { scenarioId: number }).scenarioId;
  const truth = trueStances(scenarioId);
  if (abstractionFormatOf(item.probe!) === "list") {
    const candidates: Candidate[] = DESCRIPTORS.map((d, k) => ({ reply: d, label: truth[d] !== 0 ? 1 : 0, features: { position: k, name_chars: d.length }, text: d }));
    return {
      answer: { kind: "subset", candidates, reply: (chosen) => listReply(DESCRIPTORS.filter((_, k) => chosen.includes(k))) },
      answerClass: `${relevantDescriptors(scenarioById(scenarioId).directions).length} needed`,
    };
  }
  const direction = { smaller: -1, larger: 1, irrelevant: 0 } as const;
  const candidates: Candidate[] = (Object.keys(UNIFORM_STANCES) as Array<keyof typeof UNIFORM_STANCES>).map((word, k) => ({
    reply: stancesReply(word),
    label: DESCRIPTORS.filter((d) => truth[d] === direction[word]).length / DESCRIPTORS.length,
    features: { position: k },
    text: UNIFORM_STANCES[word],
  }));
  return { answer: { kind: "choice", candidates }, answerClass: `${relevantDescriptors(scenarioById(scenarioId).directions).length} needed` };
}

async function units(items: PathEvalItem[], _options: { root: string; cues: boolean }): Promise<AuditUnit[]> {
  const templates = loadTemplates();
  const out: AuditUnit[] = [];
  for (const item of items) {
    const shown = shownPair(item, DEFAULT_VARIANT, 0);
    const task = auditTask(item);
    const features: Record<string, number> = {
      dim: item.task === "3D" ? 1 : 0,
      scenario: item.scenarioId ?? 0,
      question_words: item.question.split(/\s+/).filter(Boolean).length,
      ...(item.probe?.kind === "fine-grained" ? { descriptor: DESCRIPTORS.indexOf(item.probe.descriptor) } : {}),
    };
    const base = { id: item.id, task, cluster: item.cluster, text: await promptText(item, shown, templates), prompt: { ...shown }, features };
    if (item.probe?.kind === "attribute-abstraction") {
      out.push({ ...base, prompt: { ...shown, probe: abstractionFormatOf(item.probe) === "list" ? "attribute-abstraction-list" : ABSTRACTION_TASK }, ...abstractionAnswer(item) });
      continue;
    }
    const candidates = pairCandidates(item, shown);
    out.push({ ...base, answer: { kind: "choice", candidates }, answerClass: candidates[0]!.label > 0 ? "first shown" : "second shown" });
  }
  return out;
}


/** The unit's scenario (its template id in the text), the key of the per-scenario prior. */
const scenarioKey = (unit: AuditUnit) => `${unit.task}|${unit.features["scenario"] ?? 0}`;

/** Per key, how often each shown position was right on the training units (first position at a tie). */
export function positionPrior(train: readonly AuditUnit[], key: (u: AuditUnit) => string): Map<string, number> {
  const counts = new Map<string, [number, number]>();
  for (const unit of train) {
    const right = choiceCandidates(unit).findIndex((c) => c.label > 0);
    if (right !== 0 && right !== 1) continue;
    const tally = counts.get(key(unit)) ?? counts.set(key(unit), [0, 0]).get(key(unit))!;
    tally[right]! += 1;
  }
  return new Map([...counts].map(([k, [first, second]]) => [k, second > first ? 1 : 0]));
}

export const pathevalRules: BlindRule[] = [
  { name: "first-shown", describe: "always the path shown first (on the left)", tasks: PAIR_TASKS, fit: () => (unit) => choiceCandidates(unit)[0]!.reply },
  { name: "second-shown", describe: "always the path shown second (on the right)", tasks: PAIR_TASKS, fit: () => (unit) => choiceCandidates(unit)[1]!.reply },
  {
    name: "scenario-position-prior",
    describe: "the shown position that was right most often for the same scenario on the training folds (the task's majority when the scenario was not seen)",
    tasks: PAIR_TASKS,
    fit: (train) => {
      const byScenario = positionPrior(train, scenarioKey);
      const byTask = positionPrior(train, (u) => u.task);
      return (unit) => choiceCandidates(unit)[byScenario.get(scenarioKey(unit)) ?? byTask.get(unit.task) ?? 0]!.reply;
    },
  },
  {
    name: "name-every-descriptor",
    describe: "names all seven descriptors (Table 12's measure then always succeeds: every scenario needs at least two); in the stances format, every descriptor \"smaller\"",
    tasks: [ABSTRACTION_TASK],
    fit: () => (unit) => (unit.answer.kind === "subset" ? unit.answer.reply(unit.answer.candidates.map((_, k) => k)) : stancesReply("smaller")),
  },
];

/** scoreItem's detail -> credit: a pair or fine-grained answer right; Table 12's success; the stances' share of right directions. */
function credit(item: PathEvalItem, detail: Record<string, unknown>): number {
  if (detail["kind"] === "attribute-abstraction") {
    if (detail["format"] === "list") return detail["chose_relevant"] === true ? 1 : 0;
    const correct = detail["correct"] as Record<string, boolean> | undefined;
    return correct ? DESCRIPTORS.filter((d) => correct[d] === true).length / DESCRIPTORS.length : 0;
  }
  void item;
  return detail["correct"] === true ? 1 : 0;
}

function headline(summary: Omit<ScoresDocument, "benchmark" | "model">, task: string): Headline {
  const row = (summary["tasks"] as Record<string, Record<string, unknown>> | undefined)?.[task];
  if (task === ABSTRACTION_TASK) {
    if (row?.["format"] === "list") {
      const t12 = row["table_12"] as { at_least_one_relevant?: number } | undefined;
      return { metric: "Table 12: at least one needed descriptor named", score: t12?.at_least_one_relevant ?? null, ci: null };
    }
    return { metric: "direction accuracy per descriptor", score: typeof row?.["accuracy"] === "number" ? (row["accuracy"] as number) : null, ci: null };
  }
  const ci = (row?.["ci"] as { accuracy?: [number, number] } | undefined)?.accuracy;
  return { metric: "accuracy", score: typeof row?.["accuracy"] === "number" ? (row["accuracy"] as number) : null, ci: Array.isArray(ci) ? [ci[0], ci[1]] : null };
}

/** Table 12's exact chance for one scenario: a uniform random subset of the seven descriptors names a needed one. */
export function table12Chance(scenarioId: number): number {
  return 1 - 2 ** -relevantDescriptors(scenarioById(scenarioId).directions).length;
}

function chance(items: PathEvalItem[], task: string): number | null {
  const group = items.filter((i) => auditTask(i) === task);
  if (group.length === 0) return null;
  if (task !== ABSTRACTION_TASK) return 0.5;
  if (group.some((i) => abstractionFormatOf(i.probe!) !== "list")) return 1 / 3;
  return group.reduce((s, i) => s + table12Chance((i.probe as { scenarioId: number }).scenarioId), 0) / group.length;
}

/**
 * The kept items' records (probe items keep the record they were derived from), each JSON file
 * rewritten with its kept records in their order, and the pictures they name.
 */
async function writeSubset(root: string, items: PathEvalItem[], keep: ReadonlySet<string>, outDir: string): Promise<void> {
  const absRoot = path.resolve(root);
  const keptIndices = new Map<string, Set<number>>();
  const pictures = new Set<string>();
  for (const item of items) {
    if (!keep.has(item.id)) continue;
    (keptIndices.get(item.source.file) ?? keptIndices.set(item.source.file, new Set()).get(item.source.file)!).add(item.source.index);
    if (isInside(absRoot, item.imagePath)) pictures.add(path.relative(absRoot, item.imagePath));
  }
  for (const [file, indices] of keptIndices) {
    const from = path.join(absRoot, file);
    if (!isInside(absRoot, from)) continue;
    const records = JSON.parse(readRegularText(from)) as unknown[];
    const to = path.join(outDir, file);
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, JSON.stringify(records.filter((_, k) => indices.has(k)), null, 2));
  }
  for (const rel of [...pictures].sort()) {
    const to = path.join(outDir, rel);
    mkdirSync(path.dirname(to), { recursive: true });
    copyRegularFile(path.join(absRoot, rel), to);
  }
}

/** The run's accuracy over pairs at chance: 0.5 when every item is a pair (two paths, one right); probes have their own tasks' chance. */
function overallChance(items: PathEvalItem[]): number | null {
  return items.length > 0 && items.every((i) => auditTask(i) !== ABSTRACTION_TASK) ? 0.5 : null;
}

export const pathevalAudit: BenchmarkAudit<PathEvalItem> = { units, rules: pathevalRules, credit, headline, chance, overallMetric: "accuracy", overallChance, writeSubset };
