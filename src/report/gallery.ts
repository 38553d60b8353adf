/**
 * Gallery entries for the report and the viewer: one per item result, with its overlay picture
 * where the benchmark draws one. The self-contained report embeds pictures until a size budget
 * is spent, spreading them over runs, tasks and outcomes so every kind of result gets some.
 */
import sharp from "sharp";
import type { BenchItem, ItemResult } from "../core/benchmark.js";
import { getBenchmark } from "../registry.js";
import { itemScore, outcomeOf, verdictOf, type Verdict } from "./outcome.js";
import { loadRunItems, type RunFolder } from "./run-folder.js";
import { promptRebuilder, promptView, type PromptRebuilder, type PromptView } from "./sent-prompt.js";

export interface GalleryItem {
  key: string;
  run: number;
  /** Position of the result in its run's results (the viewer's overlay URLs use it). */
  index: number;
  id: string;
  task: string;
  outcome: string;
  /** What the outcome means (colour, order, comparison): right, partial, wrong, unreadable, error, missing, scored. */
  verdict: Verdict;
  /** The item's own score for sorting (outcome.ts itemScore), null when it has none. */
  score: number | null;
  caption: string[];
  /** The parsed value the score was computed from (answer.value), or why there is none. */
  answer: string | null;
  reply: string | null;
  /** Reasoning text the model returned beside its answer (never read as the answer). */
  reasoning: string | null;
  error: string | null;
  detail: unknown;
  /** Token counts as the provider reported them (inputTokens, outputTokens, reasoningTokens). */
  usage: Record<string, number> | null;
  latency_ms: number | null;
  attempts: number | null;
  /** The reply came from the response store (resume, or a repeated request). */
  cached: boolean | null;
  /** Each image part as read and as sent (items.jsonl response.images). */
  sent: unknown[];
  /** The reply was cut at --max-reply-bytes: its full length in bytes. */
  truncated: number | null;
  /** The prompt sent: an index into the page's prompt table (the same prompt is stored once), or null. */
  prompt: number | null;
  promptError: string | null;
  thumb: string | null;
  image: string | null;
}

const MAX_TEXT = 20_000;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… (${text.length - MAX_TEXT} more characters)` : text);

/** The parsed value (what was scored), not the stored prediction (which for some benchmarks is the raw reply). */
export function answerText(result: ItemResult): string | null {
  const answer = result.answer as { status?: string; value?: unknown; reason?: unknown } | undefined;
  if (!answer) return null;
  if (answer.status !== "ok") return `${answer.status ?? "no answer"}${answer.reason ? `: ${String(answer.reason)}` : ""}`;
  return typeof answer.value === "string" ? clip(answer.value) : clip(JSON.stringify(answer.value ?? null));
}

const numberOr = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** Numeric usage fields only (untrusted file: anything else is left out). */
function usageOf(value: unknown): Record<string, number> | null {
  if (!value || typeof value !== "object") return null;
  const out = Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v === "number" && Number.isFinite(v))) as Record<string, number>;
  return Object.keys(out).length > 0 ? out : null;
}

export function galleryItem(run: number, index: number, result: ItemResult): GalleryItem {
  const outcome = outcomeOf(result);
  const response = (result.response ?? {}) as Partial<NonNullable<ItemResult["response"]>>;
  return {
    key: `${run}:${index}`,
    run,
    index,
    id: String(result.id),
    task: String(result.task),
    outcome,
    verdict: verdictOf(outcome),
    score: itemScore(result),
    caption: [],
    answer: answerText(result),
    reply: typeof result.reply === "string" ? clip(result.reply) : null,
    reasoning: typeof response.reasoning === "string" ? clip(response.reasoning) : null,
    error: result.status === "error" ? String(response.error?.message ?? "request failed") : null,
    detail: result.detail ?? null,
    usage: usageOf(response.usage),
    latency_ms: numberOr(response.latency_ms),
    attempts: numberOr(response.attempts),
    cached: typeof response.cached === "boolean" ? response.cached : null,
    sent: Array.isArray(response.images) ? response.images.slice(0, 500) : [],
    truncated: numberOr(response.truncated?.bytes),
    prompt: null,
    promptError: null,
    thumb: null,
    image: null,
  };
}

/** The prompt of one result as the viewer shows it, or why it cannot be shown. */
export type PromptViewer = (run: RunFolder, result: ItemResult) => Promise<PromptView | { error: string }>;

/** Prompt views from a rebuilder (sent-prompt.ts). */
export function promptViewer(rebuilder: PromptRebuilder = promptRebuilder()): PromptViewer {
  return async (run, result) => {
    const built = await rebuilder.messages(run, result);
    return "error" in built ? { error: built.error } : promptView(built.messages, built.note);
  };
}

/**
 * The prompts sent for the entries, each stored once: entries point into the returned table by
 * index. Prompts that cannot be rebuilt say why in `promptError`.
 */
export async function attachPrompts(runs: RunFolder[], entries: GalleryItem[], viewer: PromptViewer = promptViewer()): Promise<PromptView[]> {
  const table: PromptView[] = [];
  const seen = new Map<string, number>();
  for (const entry of entries) {
    const run = runs[entry.run]!;
    const view = await viewer(run, run.results[entry.index]!);
    if ("error" in view) {
      entry.promptError = view.error;
      continue;
    }
    const key = JSON.stringify(view);
    if (!seen.has(key)) {
      seen.set(key, table.length);
      table.push(view);
    }
    entry.prompt = seen.get(key)!;
  }
  return table;
}

/** Entries ordered round-robin over (run, task, outcome) groups, each group in its own order. */
export function spreadOrder<T extends { run: number; task: string; outcome: string }>(entries: T[]): T[] {
  const groups = new Map<string, T[]>();
  for (const entry of entries) {
    const key = `${entry.run}\u0000${entry.task}\u0000${entry.outcome}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const queues = [...groups.values()];
  const out: T[] = [];
  for (let round = 0; out.length < entries.length; round++) {
    for (const queue of queues) if (round < queue.length) out.push(queue[round]!);
  }
  return out;
}

export interface OverlayRenderer {
  /** The overlay PNG of one result of one run, or the reason there is none. */
  render(run: RunFolder, result: ItemResult, maxSide: number): Promise<{ png: Buffer; caption: string[] } | { error: string }>;
}

/** Loads each dataset's items once (on first use) and draws overlays with the run's benchmark. */
export function overlayRenderer(): OverlayRenderer {
  // Runs of one dataset asked the same way (e.g. several models) share one load of its items.
  const itemsByDataset = new Map<string, Map<string, BenchItem> | string>();
  const itemsOf = (run: RunFolder) => {
    const key = JSON.stringify([run.benchmark, run.data, run.promptSource, run.benchmarkOptions]);
    if (!itemsByDataset.has(key)) {
      try {
        itemsByDataset.set(key, loadRunItems(run));
      } catch (error) {
        itemsByDataset.set(key, (error as Error).message);
      }
    }
    return itemsByDataset.get(key)!;
  };
  return {
    async render(run, result, maxSide) {
      const benchmark = getBenchmark(run.benchmark);
      if (!benchmark.overlay) return { error: `${benchmark.title} has no overlay pictures` };
      const items = itemsOf(run);
      if (typeof items === "string") return { error: `items not loaded: ${items}` };
      const item = items.get(String(result.id));
      if (!item) return { error: `item ${result.id} is not in ${run.data}` };
      try {
        const overlay = await benchmark.overlay(item, result, { maxSide });
        return { png: overlay.png, caption: overlay.caption };
      } catch (error) {
        return { error: (error as Error).message };
      }
    },
  };
}

export interface EmbedSummary {
  pictured: number;
  total: number;
  bytes: number;
  /** Distinct reasons pictures could not be drawn, with how many items each. */
  failures: Map<string, number>;
}

/** A picture as the report embeds it. */
export type EmbedEncoder = (png: Buffer) => Promise<{ mime: string; bytes: Buffer }>;

/** JPEG at quality 82 (the report's encoder before WebP; kept for callers that need JPEG). */
export const jpegEncoder: EmbedEncoder = async (png) => ({ mime: "image/jpeg", bytes: await sharp(png).jpeg({ quality: 82 }).toBuffer() });

/**
 * WebP at quality 70, the report's default: on the bundled sets' overlays at 1024 px it takes
 * 35-60% fewer bytes than JPEG at quality 82 (bench/report-load.ts prints the report's size), so
 * pictures large enough to read their 12 px labels cost what 640 px JPEGs did.
 */
export const webpEncoder: EmbedEncoder = async (png) => ({ mime: "image/webp", bytes: await sharp(png).webp({ quality: 70 }).toBuffer() });

/**
 * Draws overlays into the entries (as data: URIs) in spread order until `budgetBytes` of base64
 * would be exceeded.
 */
export async function embedOverlays(
  runs: RunFolder[],
  entries: GalleryItem[],
  options: { budgetBytes: number; maxSide: number; renderer?: OverlayRenderer; encode?: EmbedEncoder; onProgress?: (done: number, total: number) => void },
): Promise<EmbedSummary> {
  const renderer = options.renderer ?? overlayRenderer();
  const encode = options.encode ?? webpEncoder;
  const summary: EmbedSummary = { pictured: 0, total: entries.length, bytes: 0, failures: new Map() };
  let done = 0;
  for (const entry of spreadOrder(entries)) {
    options.onProgress?.(done++, entries.length);
    const run = runs[entry.run]!;
    const drawn = await renderer.render(run, run.results[entry.index]!, options.maxSide);
    if ("error" in drawn) {
      summary.failures.set(drawn.error, (summary.failures.get(drawn.error) ?? 0) + 1);
      continue;
    }
    entry.caption = drawn.caption;
    const picture = await encode(drawn.png);
    const uri = `data:${picture.mime};base64,${picture.bytes.toString("base64")}`;
    if (summary.bytes + uri.length > options.budgetBytes) break;
    summary.bytes += uri.length;
    entry.image = uri; // one picture serves as thumbnail and large view (the page scales it)
    summary.pictured++;
  }
  options.onProgress?.(entries.length, entries.length);
  return summary;
}
