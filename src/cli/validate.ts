import type { Command } from "commander";
import { formatProblem } from "../core/problems.js";
import { getBenchmark } from "../registry.js";
import { list } from "./main.js";

export function registerValidate(program: Command): void {
  program
    .command("validate <benchmark>")
    .description("check a dataset and list every problem (file, line, field)")
    .requiredOption("--data <path>", "dataset root")
    .option("--tasks <list>", "comma-separated task codes or names", list)
    .option("--allow-outside-root", "let the dataset name files outside its root (media kept elsewhere on purpose)")
    .action((benchmarkId: string, opts) => {
      const benchmark = getBenchmark(benchmarkId);
      const tasks = opts.tasks ? benchmark.resolveTasks(opts.tasks) : undefined;
      const { items, problems, tasks: found } = benchmark.load(opts.data, tasks, { allowOutsideRoot: Boolean(opts.allowOutsideRoot) });
      if (problems.length === 0) {
        const perTask = found.map((t) => `${t} ${items.filter((i) => i.task === t).length}`).join(", ");
        console.log(`ok: ${items.length} questions (${perTask}); no problems found`);
        return;
      }
      for (const problem of problems) console.log(formatProblem(problem));
      console.log(`${problems.length} problem${problems.length === 1 ? "" : "s"} found`);
      process.exitCode = 1;
    });
}
