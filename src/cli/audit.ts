import type { Command } from "commander";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { DEFAULT_AUDIT_OPTIONS } from "../audit/audit.js";
import { auditMarkdown, pruneMarkdown, summaryTable } from "../audit/markdown.js";
import { writeAudit } from "../audit/outputs.js";
import { auditFolder, loadForAudit } from "../audit/run-audit.js";
import { DEFAULT_PRUNE, pruneIteratively } from "../audit/prune.js";
import { toJson, writeFileAtomic } from "../core/outputs.js";
import { UsageError } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { list, numberIn, seed, wholeIn } from "./main.js";
import { benchmarkOptions, checkFlagReaders, folderPart } from "./shared.js";


export function registerAudit(program: Command): void {
  program
    .command("audit <benchmark>")
    .description("can this set be answered without looking? chance, blind rules, a cross-validated forest on the non-visual inputs (TsT), cue rules and legibility per task; no model, no key")
    .requiredOption("--data <path>", "dataset root (a release or a generated set)")
    .option("--out <dir>", "output folder (default runs/<benchmark>/audit--<data folder>)")
    .option("--tasks <list>", "comma-separated task codes or names", list)
    .option("--prompt <variant>", "audit the questions this prompt variant derives from the set (patheval: attribute-abstraction-list for Table 12, fine-grained, ...)")
    .option("--folds <k>", "cross-validation folds", wholeIn(2, 20), DEFAULT_AUDIT_OPTIONS.folds)
    .option("--seed <n>", "seed for folds, forests and tie-breaks", seed, DEFAULT_AUDIT_OPTIONS.seed)
    .option("--bootstrap <n>", "bootstrap resamples for the intervals", wholeIn(0, 10_000), DEFAULT_AUDIT_OPTIONS.bootstrap)
    .option("--no-cues", "skip the features read off pictures and videos (faster)")
    .option("--prune <target>", "iterative bias pruning: remove the most biased items until each task's best blind score is within TARGET (a fraction, e.g. 0.05) of chance; writes the kept set to <out>/data", numberIn(0, 1))
    .option("--budget <share>", "with --prune: the largest share of a task's items removed", numberIn(0, 1), DEFAULT_PRUNE.budget)
    .option("--step <share>", "with --prune: the share of a task's items removed per step", numberIn(0, 1, { above: true }), DEFAULT_PRUNE.step)
    .option("--prune-cues <tasks>", "with --prune: comma-separated tasks held to their picture cues too (best cue rule and cue forest within TARGET; egopath generation holds a1,b1)", list)
    .option("--allow-outside-root", "let the dataset name files outside its root (media kept elsewhere on purpose)")
    .option("--split <name>", "which split of the release to audit (egopath: test (default) | val | train)")
    .action(async (benchmarkId: string, opts) => {
      const base = getBenchmark(benchmarkId);
      checkFlagReaders(base.id, { split: opts.split });
      const benchmark = base.configure ? base.configure(benchmarkOptions({ allowOutsideRoot: Boolean(opts.allowOutsideRoot), ...(opts.split ? { split: opts.split } : {}) })) : base;
      if (!benchmark.audit) throw new UsageError(`${benchmark.title} has no audit yet`);
      const tasks = opts.tasks ? benchmark.resolveTasks(opts.tasks) : undefined;
      const out: string = opts.out ?? `runs/${benchmark.id}/audit--${folderPart(path.basename(path.resolve(opts.data)))}`;
      const options = { folds: opts.folds, seed: opts.seed, bootstrap: opts.bootstrap, cues: opts.cues !== false, allowOutsideRoot: Boolean(opts.allowOutsideRoot), ...(tasks ? { tasks } : {}), ...(opts.prompt ? { prompt: opts.prompt } : {}) };
      if (opts.prune === undefined) {
        const result = await auditFolder(benchmark, opts.data, out, options);
        console.log(summaryTable(result.document));
        console.log(`\nwrote ${path.join(out, "audit.md")} (and audit.json, items.jsonl)`);
        return;
      }
      if (opts.pruneCues && !options.cues) throw new UsageError("--prune-cues needs the picture cues: drop --no-cues");
      const loaded = await loadForAudit(benchmark, opts.data, options);
      const dataOut = path.join(out, "data");
      if (existsSync(dataOut) && readdirSync(dataOut).length > 0) throw new UsageError(`${dataOut} exists and is not empty; choose another --out`);
      const result = pruneIteratively(benchmark, loaded.items, loaded.units, { ...options, target: opts.prune, budget: opts.budget, step: opts.step, ...(opts.pruneCues ? { cueTasks: opts.pruneCues as string[] } : {}) });
      await benchmark.audit.writeSubset(opts.data, loaded.items, result.kept, dataOut);
      // The kept set must read back as exactly the kept items.
      const reread = benchmark.load(dataOut, tasks, {});
      const back = new Set(reread.items.map((i) => i.id));
      if (reread.problems.length > 0 || back.size !== result.kept.size || [...result.kept].some((id) => !back.has(id))) {
        throw new Error(`the pruned set at ${dataOut} does not read back as the ${result.kept.size} kept items (${back.size} read, ${reread.problems.length} problems)`);
      }
      if (opts.prompt) result.before.document.prompt = result.after.document.prompt = opts.prompt;
      writeAudit(path.join(out, "before"), result.before, path.resolve(opts.data));
      writeAudit(path.join(out, "after"), result.after, path.resolve(dataOut));
      writeFileAtomic(path.join(out, "removed.jsonl"), result.removed.map((r) => `${toJson(r)}\n`));
      writeFileAtomic(path.join(out, "pruning.json"), `${toJson({ target: opts.prune, budget: opts.budget, step: opts.step, cue_tasks: opts.pruneCues ?? [], steps: result.steps, removed: result.removed.length, kept: result.kept.size, tasks: result.tasks }, 2)}\n`);
      writeFileAtomic(path.join(out, "audit.md"), `${pruneMarkdown(result, opts.prune)}\n## Details after pruning\n\n${auditMarkdown(result.after.document)}\n`);
      console.log(pruneMarkdown(result, opts.prune));
      console.log(`wrote the kept set to ${dataOut} (${result.kept.size} of ${loaded.items.length} items) and the audits before and after to ${out}`);
    });
}
