/**
 * What the audit tests of every benchmark need, written apart from src/audit/ so they check it:
 * a rule's held-out replies, and the benchmark's own summary of one reply per item (readReply,
 * scoreItem, summarize: what `score` computes).
 */
import type { Benchmark, BenchItem, ItemResult } from "../../src/core/benchmark.js";
import type { AuditUnit, BlindRule } from "../../src/audit/types.js";

/** The rule's replies, each unit answered by the rule fitted on the other folds (unit i is in fold i mod k). */
export function heldOutReplies(rule: BlindRule, units: readonly AuditUnit[], folds = 5): Map<string, string> {
  const replies = new Map<string, string>();
  for (let f = 0; f < folds; f++) {
    const reply = rule.fit(units.filter((_, i) => i % folds !== f));
    units.forEach((u, i) => i % folds === f && replies.set(u.id, reply(u)));
  }
  return replies;
}

/** The replies of `rule` fitted on `train` (all the units by default) for every unit. */
export function fittedReplies(rule: BlindRule, units: readonly AuditUnit[], train: readonly AuditUnit[] = units): Map<string, string> {
  const reply = rule.fit(train);
  return new Map(units.map((u) => [u.id, reply(u)]));
}

/** The benchmark's summary of the items that have a reply, each read and scored with its unit's prompt info. */
export function summaryOfReplies<I extends BenchItem>(benchmark: Benchmark<I>, items: readonly I[], replies: ReadonlyMap<string, string>, units: readonly AuditUnit[], tasks?: string[]) {
  const prompts = new Map(units.map((u) => [u.id, u.prompt]));
  const answered = items.filter((i) => replies.has(i.id));
  const results: ItemResult[] = answered.map((item) => {
    const prompt = prompts.get(item.id);
    const answer = benchmark.readReply(item, replies.get(item.id)!, prompt);
    return { id: item.id, task: item.task, cluster: item.cluster, status: "scored", answer, detail: benchmark.scoreItem(item, answer, prompt), ...(prompt ? { prompt } : {}) };
  });
  return benchmark.summarize(answered as I[], results, tasks ?? [...new Set(answered.map((i) => i.task))], { bootstrapResamples: 0, bootstrapSeed: 1 });
}
