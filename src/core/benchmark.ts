import type { BenchmarkAudit } from "../audit/types.js";
import type { RequestCheckedLoad } from "../benchmarks/requests.js";
import type { DataProblem } from "./problems.js";
import type { PyDict } from "./pycompat/json.js";
import type { Message, SentImage } from "./types.js";
import type { ImageBudgetSpec } from "../media/fit.js";
import type { EpisodeRuns } from "../report/episode-runs.js";

/** The minimum every benchmark item carries. */
export interface BenchItem {
  id: string;
  task: string;
  /** The bootstrap cluster (scene). */
  cluster: string;
}

/** A parsed answer, or why there is none. */
export interface Answer<V = unknown> {
  /** ok: read; missing: no prediction; failed: recorded failure (e.g. success=false); unparseable: text gave nothing. */
  status: "ok" | "missing" | "failed" | "unparseable";
  value: V | null;
  reason?: string;
  /** The stored prediction in the benchmark's official predictions format (what `run` exports). */
  stored?: unknown;
}

/** Options some benchmarks take from the command line (`--coords`, `--strict`). */
export interface BenchmarkOptions {
  coords?: string;
  strict?: boolean;
  /** A training file for chance baselines that need the answer distribution (EgoTL's `frequency`). */
  train?: string;
  /** Optional evaluation modes a benchmark offers (e.g. EgoTL's circular evaluation). */
  circular?: boolean;
  /** The --model spec, for per-model-family defaults. */
  model?: string;
  /** Data paths may point outside the dataset root (`--allow-outside-root`). */
  allowOutsideRoot?: boolean;
  /** Which split of the release to load (`--split`, e.g. EgoPathBench's test | val | train). */
  split?: string;
  /** Where a paper's text and its official code differ: follow the code (default) or the paper (`--rules`). */
  rules?: "official" | "paper";
  /** Frames taken from every video, overriding the item's or task's frame spec (`--frames`). */
  frames?: number;
  /** Frames per second taken from every video, overriding the frame spec (`--fps`). */
  fps?: number;
}

/** Everything one question's score came from; one line of items.jsonl. */
export interface ItemResult {
  id: string;
  task: string;
  cluster: string;
  /** "error": the model call failed after retries (infrastructure); not scored. */
  status: "scored" | "error";
  answer?: Answer;
  /** Benchmark-specific outcome: stage reached, components, counts. */
  detail?: Record<string, unknown>;
  /** Raw model text (run only). */
  reply?: string;
  response?: {
    latency_ms: number;
    attempts: number;
    cached: boolean;
    usage?: Record<string, number>;
    error?: { kind: string; status?: number; message: string };
    /** The reply was longer than --max-reply-bytes: `reply` is its first cap bytes; `bytes` its full length. */
    truncated?: { bytes: number };
    /** Reasoning text the model returned beside the answer (never read as the answer). */
    reasoning?: string;
    /** The token limit (max_tokens) cut the reply; it was still scored. */
    token_limited?: true;
    /** One entry per image part sent (or measured before a limit error), in order: size read, size sent, transform. */
    images?: SentImage[];
    /** Whether this request asked for JSON output mode (per task, or forced by --json-output / --no-json-output). */
    json_output?: boolean;
  };
  prompt?: Record<string, unknown>;
}

export interface TaskDescription {
  code: string;
  name: string;
  title: string;
}

export interface PromptSetup {
  source: string;
  control: string;
  templateFile?: string;
  seed: number;
  /** Most images one request may carry (provider limit); video frames are thinned evenly to fit. */
  maxImages?: number;
}

/**
 * A built prompt: the messages, and what a reader of the reply needs to know about it (e.g. path names shown).
 * `json`: this item's output contract is a JSON object and its messages say "JSON", so the run asks the
 * provider for JSON mode (unless --json-output / --no-json-output force it); absent = plain text.
 */
export type BuiltPrompt = { messages: Message[]; info: Record<string, unknown>; json?: boolean } | { error: string };

/**
 * Whether any text part of the messages contains "json" (any case). OpenAI answers 400 to
 * `response_format: json_object` unless a message does (platform.openai.com/docs/guides/structured-outputs, JSON mode).
 */
export function messagesMentionJson(messages: readonly Message[]): boolean {
  return messages.some((m) => m.content.some((part) => part.type === "text" && /json/i.test(part.text)));
}

/** Builds the chat messages for one item, or says why it cannot (e.g. no mismatched partner). */
export type PromptBuilder<I> = (item: I) => BuiltPrompt | Promise<BuiltPrompt>;

export interface SummaryOptions {
  bootstrapResamples: number;
  bootstrapSeed: number;
}

/** The scores.json document (DESIGN.md contract). */
export interface ScoresDocument {
  benchmark: string;
  model: string;
  n: number;
  score: number | null;
  tasks: Record<string, Record<string, unknown>>;
  counts: { parse_failures: number; errors: number; missing: number; [key: string]: number };
  [key: string]: unknown;
}

/** A picture of one item's outcome drawn over its media (overlay.ts of each benchmark). */
export interface OverlayImage {
  png: Buffer;
  width: number;
  height: number;
  /** Short plain-text lines shown with the picture: answer, truth, outcome, score components. */
  caption: string[];
}

export interface OverlayOptions {
  /** Longest side of the picture in pixels (default 1024); thumbnails ask for less. */
  maxSide?: number;
  /** Also draw the reference answer where the benchmark has one (default true). */
  reference?: boolean;
}

/** One chart of a report: an inline SVG (no scripts, every text escaped) and its title. */
export interface ChartFigure {
  title: string;
  svg: string;
}

/** One benchmark protocol: a folder under src/benchmarks/ and one entry in the registry. */
export interface Benchmark<I extends BenchItem = BenchItem> {
  id: string;
  title: string;
  tasks: TaskDescription[];
  /** Codes or names -> codes; throws UsageError for unknown ones. */
  resolveTasks(list: string[]): string[];
  /** Every path the data names resolves inside `root` unless `options.allowOutsideRoot` (core/dataroot.ts). */
  load(root: string, tasks?: string[], options?: RequestCheckedLoad): { items: I[]; problems: DataProblem[]; tasks: string[] };
  promptSources: string[];
  promptControls: string[];
  /** A copy configured by benchmark options (e.g. EPIC-Bench's coordinate system and strict mode). */
  configure?(options: BenchmarkOptions): Benchmark<I>;
  /** The key of a predictions row when it is not simply `predictionIdField` (e.g. derived from image paths). */
  predictionKey?(row: PyDict, dataRoot: string): string | number | undefined;
  /** Items a prompt source asks about, when they are not the loaded ones (e.g. PathEval's probes). */
  deriveItems?(items: I[], setup: PromptSetup): I[];
  preparePrompts(items: I[], setup: PromptSetup): { build: PromptBuilder<I>; info: Record<string, unknown> };
  /** Read raw model text into an answer (never throws); `prompt` is the built prompt's info. */
  readReply(item: I, text: string, prompt?: Record<string, unknown>): Answer;
  /** Read a stored prediction row (undefined when there is none) with the official evaluator's rules. */
  readPrediction(item: I, row: PyDict | undefined): Answer;
  /** Score one answer (`prompt`: the built prompt's info, e.g. whether the pair was shown flipped). */
  scoreItem(item: I, answer: Answer, prompt?: Record<string, unknown>): Record<string, unknown>;
  /** Aggregate scored results (error results are passed too, and counted). */
  summarize(items: I[], results: ItemResult[], tasks: string[], options: SummaryOptions): Omit<ScoresDocument, "benchmark" | "model">;
  /** Built-in models that answer from the item (no key, no network). */
  baselines: Record<string, { describe: string; reply: (item: I, seed: number, prompt: Record<string, unknown>) => string }>;
  /** Markdown tables for one or several runs side by side. */
  markdown(runs: ScoresDocument[]): string;
  /** Compact terminal table for one run. */
  terminal(run: ScoresDocument): string;
  /** Procedural data in the release layout, where the benchmark has a generator. */
  generate?: (options: { outDir: string; seed: number; count: number; extra: Record<string, string>; log: (line: string) => void; assetsDir?: string }) => Promise<string>;
  /** The picture of one item's result; `result` is its line of items.jsonl (any status). */
  overlay?(item: I, result: ItemResult, options?: OverlayOptions): Promise<OverlayImage>;
  /** Charts for one or several runs side by side (per-task bars with intervals, radar, stages). */
  charts?(runs: ScoresDocument[]): ChartFigure[];
  /** Predictions file key and shape: the id field and the value written by `run --export`. */
  predictionIdField: string;
  /**
   * The field of a predictions row that holds the model's text, as the benchmark's official files
   * name it: "output" (EgoPathBench's runner; the default) or "response" (EPIC-Bench's raw
   * responses, PathEval's). `run` writes predictions.jsonl with it, so `score` reads them back.
   */
  predictionTextField?: "output" | "response";
  /**
   * Default image budgets for real models, per kind (video frames vs everything else); user flags
   * (--max-pixels, --image-format, --jpeg-quality) override them. Absent: images are sent as read,
   * within the provider's limits (models/shape.ts).
   */
  imageBudget?: { picture: ImageBudgetSpec; frame: ImageBudgetSpec };
  /** What the headline `score` of scores.json is, in the leaderboard's words ("EgoPath Score", "accuracy"). */
  scoreName: string;
  /** The tasks the overall score averages, given the tasks asked (its aggregate.ts says why). */
  scoreTasks(asked: readonly string[]): readonly string[];
  /** Closed-loop episode runs (`navigate`), where the benchmark has them: how reports and the viewer read and show them. */
  episodes?: EpisodeRuns;
  /** What `spatialprobe audit` needs to ask whether the set can be answered without looking (src/audit/types.ts). */
  audit?: BenchmarkAudit<I>;
}
