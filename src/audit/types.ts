/**
 * What a benchmark gives the audit (its folder's audit.ts) and what the audit reports. The audit
 * asks: can this set be answered without the visual reasoning it names? Each item becomes an
 * AuditUnit: the text a model would read, non-visual features, cue features read off the
 * picture without reasoning, and the answers a blind model may give (candidates it can choose,
 * or a number). Every reply a blind rule or the forest gives is read and scored by the
 * benchmark's own readReply/scoreItem/summarize, so audit scores are the numbers `score` would
 * give on the same replies. This layer knows no benchmark by name.
 */
import type { BenchItem, ScoresDocument } from "../core/benchmark.js";

/** One answer a blind model may give: its reply in the task's output contract and what can be known of it without looking. */
export interface Candidate {
  /** The reply text, in the task's output contract. */
  reply: string;
  /** 1 when this candidate is the right answer (or belongs to the right set), 0 when not; in between for partial credit. */
  label: number;
  /** Non-visual features of this candidate: position, length, overlaps, order of first mention elsewhere in the prompt. */
  features: Record<string, number>;
  /** The candidate's own text (option text), hashed into word n-gram features. */
  text?: string;
  /** Features read off the picture or video without reasoning (marker density around it, colour, area, frame position). */
  cues?: Record<string, number>;
}

/**
 * How a blind model answers an item:
 * - choice: exactly one candidate (multiple choice, a frame, a box, a route): per-option scoring;
 * - subset: any set of candidates (sets of ids, per-marker yes/no), each in or out;
 * - number: a value by regression (distances, counts), replied through `reply`.
 */
export type AnswerForm =
  | { kind: "choice"; candidates: Candidate[] }
  | { kind: "subset"; candidates: Candidate[]; reply: (chosen: number[]) => string }
  | { kind: "number"; truth: number; reply: (value: number) => string; bounds: [number, number] };

export interface AuditUnit {
  id: string;
  task: string;
  cluster: string;
  /** The text a model would receive (the prompt's text parts), hashed into word n-gram features. */
  text: string;
  /** The built prompt's info the benchmark's readReply/scoreItem take (names shown, flipped, variant). */
  prompt?: Record<string, unknown>;
  /** Item-level non-visual features (numbers stated, template, counts, lengths). */
  features: Record<string, number>;
  /** Item-level cue features (picture or video read without reasoning). */
  cues?: Record<string, number>;
  answer: AnswerForm;
  /** The answer's class for the answer distribution ("B", "position 2", "count 3", "last frame"). */
  answerClass: string;
}

/** A rule that answers without looking; `fit` sees the training folds' units (for priors) and returns a replier for held-out units. */
export interface BlindRule {
  name: string;
  describe: string;
  /** Tasks the rule applies to (all when absent). */
  tasks?: readonly string[];
  /** Reads the picture (a cue rule, reported apart from blind rules) rather than only text and metadata. */
  cue?: boolean;
  fit(train: readonly AuditUnit[]): (unit: AuditUnit) => string;
}

/** A task's headline number from a summarize() document, as a fraction like scores.json (null when nothing was scored). */
export interface Headline {
  metric: string;
  score: number | null;
  ci: [number, number] | null;
  /** The score is the mean of the items' credit: where the summary gives no interval, the audit draws one (cluster bootstrap over scenes). */
  meanOfCredit?: boolean;
}

/** A legibility measurement where answers are drawn on the picture. */
export interface Legibility {
  /** Share of drawn labels whose box is covered by later-drawn marks (or cut by the border). */
  labels_covered: number;
  /** Share of questions where some acceptable answer's label cannot be read. */
  questions_unreadable: number;
  labels: number;
  questions: number;
  /** Ids of the questions counted unreadable. */
  unreadable_ids: string[];
}

/** What one benchmark's folder supplies (src/benchmarks/<id>/audit.ts). */
export interface BenchmarkAudit<I extends BenchItem = BenchItem> {
  /** The audit units of the loaded items; `cues` asks for picture-read features (slower). */
  units(items: I[], options: { root: string; cues: boolean }): Promise<AuditUnit[]>;
  /** The benchmark's own blind and cue rules (the generic ones come from audit/rules.ts). */
  rules: BlindRule[];
  /** Per-item credit in [0, 1] from scoreItem's detail: what "this rule answers it right" means. */
  credit(item: I, detail: Record<string, unknown>): number;
  /** Each task's headline metric from a summarize() document. */
  headline(summary: Omit<ScoresDocument, "benchmark" | "model">, task: string): Headline;
  /** The exact chance level of a task's items in its headline metric, where one exists. */
  chance(items: I[], task: string): number | null;
  /** The name of the benchmark's overall score (summarize's `score`) where its summary does not say it. */
  overallMetric?: string;
  /** The exact chance level of the benchmark's overall score (summarize's `score`), where one exists. */
  overallChance?(items: I[]): number | null;
  /** Label legibility per task, where answers are drawn on the picture. */
  legibility?(items: I[], options: { root: string }): Promise<Record<string, Legibility>>;
  /** Write the kept items as a dataset in the release layout (every command reads it). */
  writeSubset(root: string, items: I[], keep: ReadonlySet<string>, outDir: string): Promise<void>;
}
