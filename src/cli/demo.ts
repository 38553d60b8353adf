import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { ScoresDocument } from "../core/benchmark.js";
import { withFolderLock } from "../core/lock.js";
import { writeFileAtomic } from "../core/outputs.js";
import { executeRun } from "../core/session.js";
import { getBenchmark } from "../registry.js";
import { mdText } from "../report/markdown.js";
import { markdownReport } from "../report/render.js";
import { htmlReport } from "../report/html-report.js";
import { incompleteReason } from "../report/run-facts.js";
import { EXIT_INCOMPLETE } from "./shared.js";
import { executeNavigation } from "../benchmarks/vcn/navigate/session.js";
import { navigationRunsMarkdown } from "../benchmarks/vcn/navigate/report.js";
import type { NavigationScores } from "../benchmarks/vcn/navigate/scores.js";
import { HouseCache } from "../sim/house-cache.js";

/** The bundled sets (each made by `generate <benchmark>` from furnished houses). */
const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples");
export const DEMO_DATA = path.join(EXAMPLES, "egopath-mini");
const DEMO_MODELS = ["oracle", "direct-to-goal", "random:1", "all-ids", "none"];
const PATHEVAL_DEMO_RUNS: Array<[string, string]> = [["descriptor-oracle", "plain"], ["always-first", "plain"], ["random:1", "plain"], ["always-first", "flipped"], ["descriptor-oracle", "fine-grained"]];

/** VCN-Bench, EgoTL-Bench and EPIC-Bench on their bundled sets. */
interface BundledDemoRun { benchmark: "vcn" | "egotl" | "epic"; model: string; prompt?: string; train?: string }
const BUNDLED_DEMO_RUNS: BundledDemoRun[] = [
  { benchmark: "vcn", model: "oracle" },
  { benchmark: "vcn", model: "random-category:1" },
  { benchmark: "vcn", model: "random:1" },
  { benchmark: "vcn", model: "random:1", prompt: "shuffled-frames" },
  { benchmark: "vcn", model: "oracle", prompt: "counterfactual" },
  { benchmark: "egotl", model: "oracle" },
  { benchmark: "egotl", model: "frequency", train: path.join(EXAMPLES, "egotl-mini/train.jsonl") },
  { benchmark: "egotl", model: "random:1" },
  { benchmark: "epic", model: "oracle" },
  { benchmark: "epic", model: "random:1" },
  { benchmark: "epic", model: "oracle", prompt: "no-overlay" },
];
/** VCN-Bench closed-loop navigation on the bundled set: the built-in agents (no model). */
const NAVIGATION_DEMO_AGENTS = ["oracle", "goal-then-plan:oracle", "goal-then-plan:random", "goal-then-plan:first", "forward-only", "random-walk:1"];
const BUNDLED_DATA = { vcn: path.join(EXAMPLES, "vcn-mini"), egotl: path.join(EXAMPLES, "egotl-mini"), epic: path.join(EXAMPLES, "epic-mini") };

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("no key, no network: run the built-in models on the bundled example set and write a report")
    .option("--out <dir>", "output folder", "runs/demo")
    // The demo folder is locked as a whole (each run also locks its own folder), and its reports are replaced atomically.
    .action((opts) => withFolderLock(opts.out, () => demo(opts.out)));
}

async function demo(outDir: string): Promise<void> {
  const benchmark = getBenchmark("egopath");
  const runs: ScoresDocument[] = [];
  const runDirs: string[] = [];
  // The built-ins run on clean bundled data: every run must be complete (else the demo exits 3 as `run` would).
  const incomplete: string[] = [];
  for (const model of DEMO_MODELS) {
    const out = path.join(outDir, model.replace(/[^A-Za-z0-9._-]+/g, "_"));
    const { scores } = await executeRun({
      benchmark: "egopath", data: DEMO_DATA, out, model, bootstrapResamples: 10000, bootstrapSeed: 20260717,
      promptSource: "release", control: "none", seed: 20260717, flags: {}, retryErrors: false, quiet: true,
    });
    console.log(`\n== ${model}\n${benchmark.terminal(scores)}`);
    runs.push(scores);
    runDirs.push(out);
    incomplete.push(...incompleteNote(out, scores));
  }
  // PathEval: a small fresh set made with the paper's method, then the built-in baselines.
  const pathevalData = path.join(outDir, "patheval-set");
  rmSync(pathevalData, { recursive: true, force: true });
  const patheval = getBenchmark("patheval");
  console.log(`\n== generating a PathEval set in ${pathevalData}`);
  console.log(await patheval.generate!({ outDir: pathevalData, seed: 7, count: 6, extra: { runs: "10", "test-per-scenario": "2" }, log: () => {} }));
  for (const [model, prompt] of PATHEVAL_DEMO_RUNS) {
    const out = path.join(outDir, `patheval-${model.replace(/[^A-Za-z0-9._-]+/g, "_")}-${prompt}`);
    const { scores } = await executeRun({
      benchmark: "patheval", data: pathevalData, out, model, bootstrapResamples: 2000, bootstrapSeed: 20260717,
      promptSource: prompt, control: "none", seed: 20260717, flags: {}, retryErrors: false, quiet: true,
    });
    console.log(`\n== patheval ${model} (${prompt})\n${patheval.terminal(scores)}`);
    runs.push(scores);
    runDirs.push(out);
    incomplete.push(...incompleteNote(out, scores));
  }
  for (const { benchmark: id, model, prompt, train } of BUNDLED_DEMO_RUNS) {
    const benchmark = getBenchmark(id);
    const source = prompt ?? benchmark.promptSources[0]!;
    const out = path.join(outDir, `${id}-${model.replace(/[^A-Za-z0-9._-]+/g, "_")}-${source}`);
    const { scores } = await executeRun({
      benchmark: id, data: BUNDLED_DATA[id], out, model, bootstrapResamples: 2000, bootstrapSeed: 20260717,
      ...(train ? { benchmarkOptions: { train } } : {}),
      promptSource: source, control: "none", seed: 20260717, flags: {}, retryErrors: false, quiet: true,
    });
    console.log(`\n== ${id} ${model} (${source})\n${benchmark.terminal(scores)}`);
    runs.push(scores);
    runDirs.push(out);
    incomplete.push(...incompleteNote(out, scores));
  }
  // VCN-Bench closed-loop navigation in the built-in simulator, the houses loaded once for every agent.
  const navigationRuns: NavigationScores[] = [];
  const houses = new HouseCache({ dataRoot: BUNDLED_DATA.vcn });
  try {
    for (const agent of NAVIGATION_DEMO_AGENTS) {
      const out = path.join(outDir, `vcn-navigate-${agent.replace(/[^A-Za-z0-9._-]+/g, "_")}`);
      const { scores } = await executeNavigation({ data: BUNDLED_DATA.vcn, out, model: agent, houses, quiet: true });
      const s = scores.navigation.summary;
      console.log(`\n== vcn navigate ${agent}: SR ${((s.SR ?? 0) * 100).toFixed(1)}, SPL ${((s.SPL ?? 0) * 100).toFixed(1)} over ${scores.counts.done} episodes`);
      navigationRuns.push(scores);
      runDirs.push(out);
      if (!scores.complete) incomplete.push(`${out}: ${scores.counts.error} episodes ended in errors, ${scores.counts.not_run} not run`);
    }
  } finally {
    houses.close();
  }
  const report = path.join(outDir, "report.md");
  writeFileAtomic(report, `# spatialprobe demo: built-in models, no key, no network\n\nData: examples/egopath-mini, examples/vcn-mini, examples/egotl-mini and examples/epic-mini (each made by \`spatialprobe generate\` in furnished houses of the world engine, by its paper's method; not the benchmarks' releases), and a PathEval set generated into ${mdText(pathevalData)}.\n\n${markdownReport(runs)}\n${navigationRunsMarkdown(navigationRuns as never, "## VCN-Bench closed-loop navigation (built-in agents in the built-in simulator)")}\n`);
  const htmlFile = path.join(outDir, "report.html");
  // Smaller pictures and a larger budget than the default, so every demo item has its picture.
  const { html, summary } = await htmlReport(runDirs, { budgetBytes: 40 * 1024 * 1024, maxSide: 480 });
  writeFileAtomic(htmlFile, html);
  console.log(`\nwrote ${report}, ${htmlFile} (tables, charts, ${summary.pictured} item pictures; open it in a browser) and one folder per run with scores.json, items.jsonl, report.md`);
  console.log(`browse every item: npx spatialprobe serve ${outDir}`);
  if (incomplete.length > 0) {
    console.error(incomplete.join("\n"));
    process.exitCode = EXIT_INCOMPLETE;
  }
}

/** The reason line of an incomplete demo run, naming its folder. */
function incompleteNote(out: string, scores: ScoresDocument): string[] {
  const reason = incompleteReason(scores, false);
  return reason ? [`${out}: ${reason}`] : [];
}
