/**
 * A toy benchmark for testing the audit layer alone: multiple-choice items (letters A-D, accuracy)
 * and number items (right within 0.5), scored by plain rules written here, so every expected
 * score can be counted by hand.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Answer, Benchmark, BenchItem, ItemResult } from "../../src/core/benchmark.js";
import type { AuditUnit, BenchmarkAudit } from "../../src/audit/types.js";

export interface ToyItem extends BenchItem {
  question: string;
  options?: string[];
  /** The right option's index, or the right number. */
  truth: number;
}

const LETTERS = ["A", "B", "C", "D"];

function readReply(item: ToyItem, text: string): Answer {
  if (item.options) {
    const i = LETTERS.indexOf(text.trim());
    return i < 0 ? { status: "unparseable", value: null } : { status: "ok", value: i };
  }
  const v = Number(text);
  return text.trim() === "" || !Number.isFinite(v) ? { status: "unparseable", value: null } : { status: "ok", value: v };
}

function scoreItem(item: ToyItem, answer: Answer): Record<string, unknown> {
  if (answer.status !== "ok") return { correct: false };
  const v = answer.value as number;
  return { correct: item.options ? v === item.truth : Math.abs(v - item.truth) < 0.5 };
}

function summarize(items: ToyItem[], results: ItemResult[], tasks: string[]) {
  const byTask: Record<string, Record<string, unknown>> = {};
  for (const task of tasks) {
    const rs = results.filter((r) => r.task === task);
    const right = rs.filter((r) => r.detail?.["correct"] === true).length;
    byTask[task] = { n: rs.length, accuracy: rs.length === 0 ? null : right / rs.length };
  }
  const all = results.filter((r) => r.detail?.["correct"] === true).length;
  return { n: items.length, score: all / Math.max(1, results.length), score_name: "accuracy", tasks: byTask, counts: { parse_failures: 0, errors: 0, missing: 0 } };
}

function unitOf(item: ToyItem): AuditUnit {
  const base = { id: item.id, task: item.task, cluster: item.cluster, text: item.question, features: {} };
  if (!item.options) {
    return { ...base, answer: { kind: "number", truth: item.truth, reply: (v) => String(Math.round(v)), bounds: [0, 100] }, answerClass: String(item.truth) };
  }
  return {
    ...base,
    answer: { kind: "choice", candidates: item.options.map((text, i) => ({ reply: LETTERS[i]!, label: i === item.truth ? 1 : 0, features: {}, text })) },
    answerClass: LETTERS[item.truth]!,
  };
}

export const toyAudit: BenchmarkAudit<ToyItem> = {
  units: async (items) => items.map(unitOf),
  rules: [],
  credit: (_item, detail) => (detail["correct"] === true ? 1 : 0),
  headline: (summary, task) => ({ metric: "accuracy", score: ((summary["tasks"] as Record<string, Record<string, unknown>>)[task]?.["accuracy"] as number | null) ?? null, ci: null }),
  chance: (items) => (items[0]?.options ? 1 / 4 : null),
  async writeSubset(_root, items, keep, outDir) {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path.join(outDir, "items.json"), JSON.stringify(items.filter((i) => keep.has(i.id))));
  },
};

export const toyBenchmark = {
  id: "toy",
  title: "Toy",
  tasks: [],
  resolveTasks: (l: string[]) => l,
  load: () => ({ items: [], problems: [], tasks: [] }),
  promptSources: [],
  promptControls: [],
  preparePrompts: () => ({ build: () => ({ error: "none" }), info: {} }),
  readReply,
  readPrediction: () => ({ status: "missing", value: null }),
  scoreItem,
  summarize,
  baselines: {},
  markdown: () => "",
  terminal: () => "",
  predictionIdField: "id",
  audit: toyAudit,
} as unknown as Benchmark<ToyItem>;
