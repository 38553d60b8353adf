/**
 * Gallery entries for the report and the viewer: one per item result, with its overlay picture
 * where the benchmark draws one. The self-contained report embeds pictures until a size budget
 * is spent, spreading them over runs, tasks and outcomes so every kind of result gets some.
 */
import sharp from "sharp";
import type { BenchItem, ItemResult } from "../core/benchmark.js";
import { getBenchmark } from "../registry.js";
import { outcomeOf } from "./outcome.js";
import { loadRunItems, type RunFolder } from "./run-folder.js";

export interface GalleryItem {
  key: string;
  run: number;
  /** Position of the result in its run's results (the viewer's overlay URLs use it). */
  index: number;
  id: string;
  task: string;
  outcome: string;
  caption: string[];
  answer: string | null;
  reply: string | null;
  error: string | null;
  detail: unknown;
  thumb: string | null;
  image: string | null;
}

const MAX_TEXT = 20_000;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… (${text.length - MAX_TEXT} more characters)` : text);

function answerText(result: ItemResult): string | null {
  const answer = result.answer as { status?: string; stored?: unknown; reason?: unknown } | undefined;
  if (!answer) return null;
  if (answer.status !== "ok") return `${answer.status ?? "no answer"}${answer.reason ? `: ${String(answer.reason)}` : ""}`;
  return typeof answer.stored === "string" ? clip(answer.stored) : JSON.stringify(answer.stored ?? null);
}

export function galleryItem(run: number, index: number, result: ItemResult): GalleryItem {
  return {
    key: `${run}:${index}`,
    run,
    index,
    id: String(result.id),
    task: String(result.task),
    outcome: outcomeOf(result),
    caption: [],
    answer: answerText(result),
    reply: typeof result.reply === "string" ? clip(result.reply) : null,
    error: result.status === "error" ? String(result.response?.error?.message ?? "request failed") : null,
    detail: result.detail ?? null,
    thumb: null,
    image: null,
  };
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

/** JPEG at quality 82: overlays are photographs with marks, and a third of the PNG's size fits three times the items. */
export const jpegEncoder: EmbedEncoder = async (png) => ({ mime: "image/jpeg", bytes: await sharp(png).jpeg({ quality: 82 }).toBuffer() });

/**
 * Draws overlays into the entries (as data: URIs) in spread order until `budgetBytes` of base64
 * would be exceeded.
 */
export async function embedOverlays(
  runs: RunFolder[],
  entries: GalleryItem[],
  options: { budgetBytes: number; maxSide: number; renderer?: OverlayRenderer; encode?: EmbedEncoder },
): Promise<EmbedSummary> {
  const renderer = options.renderer ?? overlayRenderer();
  const encode = options.encode ?? jpegEncoder;
  const summary: EmbedSummary = { pictured: 0, total: entries.length, bytes: 0, failures: new Map() };
  for (const entry of spreadOrder(entries)) {
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
  return summary;
}
