/**
 * Iterative bias pruning as the last step of generation (issue 27; Brown et al. 2025 §4, what
 * `audit --prune` does to a set made already): the written benchmark split is audited without a
 * model, and while a task's best blind answer (rule or TsT forest) is more than `target` above
 * its chance level, the items the blind forest is surest of are removed, a share per step, at
 * most the budget of the task. a1 and b1 are held to their picture cues as well (gates.ts): there
 * the cue forest's surest items go while a cue rule or the cue forest is the further above chance.
 */
import { DEFAULT_AUDIT_OPTIONS } from "../../../audit/audit.js";
import { DEFAULT_PRUNE, pruneIteratively, type TaskPruning } from "../../../audit/prune.js";
import { loadForAudit } from "../../../audit/run-audit.js";
import { CUE_GATED_TASKS, TRAVERSABILITY_GAP } from "../gates.js";
import { egopath } from "../index.js";

/** Issue 27's limit: every task's best blind answer (and a1/b1's cues) within 5 points of chance. */
export const GENERATION_PRUNE_TARGET = TRAVERSABILITY_GAP;

export interface GenerationPruning {
  /** Largest gap over chance a task's best blind answer may keep (a fraction). */
  target: number;
  budget: number;
  step: number;
  /** Question ids removed, in the order they went. */
  removed: string[];
  tasks: Record<string, TaskPruning>;
}

/**
 * Audits the benchmark split written under `root` (blind: text and metadata only) and prunes it to
 * `target`. `bundleOf` maps a question id to its bundle (selection.ts bundleKey): a question goes
 * with its whole bundle, so the split keeps whole bundles as the selection left them.
 */
export async function pruneWrittenBenchmark(root: string, target: number, bundleOf: ReadonlyMap<string, string>): Promise<GenerationPruning> {
  const loaded = await loadForAudit(egopath, root, { cues: true });
  const options = { ...DEFAULT_AUDIT_OPTIONS, bootstrap: 0, ...DEFAULT_PRUNE, target, group: (id: string) => bundleOf.get(id) ?? id, cueTasks: CUE_GATED_TASKS };
  const result = pruneIteratively(egopath, loaded.items, loaded.units, options);
  return { target, budget: options.budget, step: options.step, removed: result.removed.map((r) => r.id), tasks: result.tasks };
}

/** The README's lines on the pruning. */
export function pruningReadme(p: GenerationPruning): string[] {
  const pct = (v: number | null) => (v === null ? "-" : (100 * v).toFixed(1));
  return [
    `Bias pruning (the last step): while a task's best blind answer (a rule or the TsT forest, no picture; for a1 and b1 also a cue rule or the cue forest, which read marker spacing, place and colour) is more than ${pct(p.target)} points above chance, the questions the forest is surest of go with their bundles, ${pct(p.step)}% of the task a step, at most ${pct(p.budget)}% (\`audit --prune\`).`,
    "",
    "| Task | before | after | removed | gap over chance before | after | gap of | |",
    "|---|---|---|---|---|---|---|---|",
    ...Object.entries(p.tasks).map(([task, t]) => `| ${task} | ${t.n_before} | ${t.n_after} | ${pct(t.n_before > 0 ? (t.n_before - t.n_after) / t.n_before : 0)}% | ${pct(t.gap_before)} | ${pct(t.gap_after)} | ${t.cues ? "blind and cues" : "blind"} | ${t.outcome} |`),
    "",
  ];
}
