/**
 * The prompt a run sent for one item, rebuilt from its dataset the way the run built it (prompt
 * source, control, seed, benchmark options): items.jsonl records what the reply was read against,
 * not the messages, so the viewer asks the benchmark's own prompt builder again.
 */
import type { Benchmark, BenchItem, ItemResult, PromptBuilder } from "../core/benchmark.js";
import type { Message } from "../core/types.js";
import { getBenchmark } from "../registry.js";
import { loadRunItems, type RunFolder } from "./run-folder.js";

/** `run --seed`'s default (src/cli/run.ts): the seed of a run that did not record its own. */
export const DEFAULT_RUN_SEED = 20260717;

/** One part of a sent message as the viewer shows it: text, or the k-th image of the request (bytes left out). */
export type PromptPart = { type: "text"; text: string } | { type: "image"; k: number; mediaType: string; source?: string; kind?: string };

export interface PromptView {
  messages: Array<{ role: string; parts: PromptPart[] }>;
  /** What a reader should know about the rebuild (e.g. the run used a template file of its own). */
  note?: string;
}

/** Longest text part kept (prompts are our templates or the release's rows; a damaged row is capped). */
const MAX_PART = 20_000;

/** The messages without image bytes, images numbered in request order. */
export function promptView(messages: Message[], note?: string): PromptView {
  let k = 0;
  return {
    messages: messages.map((message) => ({
      role: message.role,
      parts: message.content.map((part): PromptPart => part.type === "text"
        ? { type: "text", text: part.text.length > MAX_PART ? `${part.text.slice(0, MAX_PART)}\n… (${part.text.length - MAX_PART} more characters)` : part.text }
        : { type: "image", k: k++, mediaType: part.mediaType, ...(part.source ? { source: part.source } : {}), ...(part.kind ? { kind: part.kind } : {}) }),
    })),
    ...(note ? { note } : {}),
  };
}

/** The images of the messages in request order (the k of PromptPart). */
export function promptImages(messages: Message[]): Array<{ mediaType: string; bytes: Buffer }> {
  return messages.flatMap((m) => m.content.flatMap((part) => (part.type === "image" ? [{ mediaType: part.mediaType, bytes: Buffer.from(part.base64, "base64") }] : [])));
}

const record = (value: unknown): Record<string, unknown> => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** The seed a run built its prompts with: scores.json's prompt.seed when recorded, else `run`'s default. */
export function runSeed(run: RunFolder): number {
  const seed = record(run.scores?.["prompt"])["seed"];
  return typeof seed === "number" && Number.isInteger(seed) ? seed : DEFAULT_RUN_SEED;
}

interface Prepared {
  items: Map<string, BenchItem>;
  build: PromptBuilder<BenchItem>;
  note?: string;
}

export interface PromptRebuilder {
  /** The messages of one result of one run, or why they cannot be rebuilt. */
  messages(run: RunFolder, result: ItemResult): Promise<{ messages: Message[]; note?: string } | { error: string }>;
}

/** Rebuilds prompts, preparing each (dataset, source, control, seed, options) once for every run that shares it. */
export function promptRebuilder(): PromptRebuilder {
  const prepared = new Map<string, Prepared | string>();
  const prepare = (run: RunFolder): Prepared | string => {
    const base = getBenchmark(run.benchmark);
    const control = run.control ?? base.promptControls[0]!;
    const seed = runSeed(run);
    const key = JSON.stringify([run.benchmark, run.data, run.promptSource, control, seed, run.benchmarkOptions]);
    if (!prepared.has(key)) {
      try {
        const benchmark: Benchmark<BenchItem> = base.configure ? base.configure({ ...run.benchmarkOptions }) : base;
        const items = loadRunItems(run);
        const setup = { source: run.promptSource, control, seed };
        const { build, info } = benchmark.preparePrompts([...items.values()], setup);
        // A run with its own --template file recorded that template's hash: say the text shown is ours.
        const recorded = JSON.stringify(record(run.scores?.["prompt"])["template"] ?? null);
        const rebuilt = JSON.stringify(info["template"] ?? null);
        const note = recorded !== "null" && recorded !== rebuilt ? "The run used a template file of its own (its hash differs from the project's template); this is the project's template filled in for the item." : undefined;
        prepared.set(key, { items, build, ...(note ? { note } : {}) });
      } catch (error) {
        prepared.set(key, (error as Error).message);
      }
    }
    return prepared.get(key)!;
  };
  return {
    async messages(run, result) {
      const ready = prepare(run);
      if (typeof ready === "string") return { error: `prompts not rebuilt: ${ready}` };
      const item = ready.items.get(String(result.id));
      if (!item) return { error: `item ${result.id} is not in ${run.data}` };
      try {
        const built = await ready.build(item);
        if ("error" in built) return { error: built.error };
        return { messages: built.messages, ...(ready.note ? { note: ready.note } : {}) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    },
  };
}
