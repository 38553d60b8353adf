import type { Command } from "commander";
import { formatProblem, moreProblemsLine, problemCount, UsageError } from "../core/problems.js";
import type { RequestCheckedLoad, RequestOptions } from "../benchmarks/requests.js";
import { getBenchmark } from "../registry.js";
import { list } from "./main.js";
import { checkFlagReaders } from "./shared.js";

export function registerValidate(program: Command): void {
  program
    .command("validate <benchmark>")
    .description("check a dataset and list every problem (file, line, field): what scoring needs, and what a run's requests need")
    .requiredOption("--data <path>", "dataset root")
    .option("--tasks <list>", "comma-separated task codes or names", list)
    .option("--prompt <variant>", "check what requests with this prompt variant need (default: the benchmark's default, as `run` uses)")
    .option("--control <name>", "check what requests with this control need (egopath: none | text-only | mismatched-overlay)")
    .option("--template <file>", "template file the run will use (its placeholders are the fields needed)")
    .option("--allow-outside-root", "let the dataset name files outside its root (media kept elsewhere on purpose)")
    .option("--split <name>", "which split of the release to check (egopath: test (default) | val | train)")
    .action((benchmarkId: string, opts) => {
      const base = getBenchmark(benchmarkId);
      checkFlagReaders(base.id, { split: opts.split });
      // The same benchmark `run --split` loads (its configure picks the split).
      const benchmark = base.configure ? base.configure({ ...(opts.split ? { split: opts.split } : {}) }) : base;
      const tasks = opts.tasks ? benchmark.resolveTasks(opts.tasks) : undefined;
      const requests: RequestOptions = {
        source: opts.prompt ?? benchmark.promptSources[0]!,
        control: opts.control ?? benchmark.promptControls[0]!,
        ...(opts.template ? { templateFile: opts.template } : {}),
      };
      if (!benchmark.promptSources.includes(requests.source)) throw new UsageError(`unknown ${benchmark.title} prompt "${requests.source}" (choose ${benchmark.promptSources.join(", ")})`);
      if (!benchmark.promptControls.includes(requests.control!)) throw new UsageError(`unknown ${benchmark.title} control "${requests.control}" (choose ${benchmark.promptControls.join(", ")})`);
      // The same load `run` does, asked for the request checks too (benchmarks/requests.ts).
      const options: RequestCheckedLoad = { allowOutsideRoot: Boolean(opts.allowOutsideRoot), requests };
      const { items, problems, tasks: found } = benchmark.load(opts.data, tasks, options);
      if (problems.length === 0) {
        const perTask = found.map((t) => `${t} ${items.filter((i) => i.task === t).length}`).join(", ");
        console.log(`ok: ${items.length} questions (${perTask}); no problems found`);
        return;
      }
      for (const problem of problems) console.log(formatProblem(problem));
      const total = problemCount(problems);
      const more = moreProblemsLine(problems.length, total);
      if (more) console.log(more);
      console.log(`${total} problem${total === 1 ? "" : "s"} found`);
      process.exitCode = 1;
    });
}
