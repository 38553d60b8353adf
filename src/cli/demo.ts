import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { ScoresDocument } from "../core/benchmark.js";
import { withFolderLock } from "../core/lock.js";
import { writeFileAtomic } from "../core/outputs.js";
import { executeRepeatedRun } from "../core/repeats.js";
import { executeRun, type RunCommandOptions } from "../core/session.js";
import { getBenchmark } from "../registry.js";
import { mdText } from "../report/markdown.js";
import { markdownReport } from "../report/render.js";
import { leaderboard, leaderboardMarkdown } from "../report/export/leaderboard.js";
import { htmlReport } from "../report/html-report.js";
import { incompleteReason } from "../report/run-facts.js";
import { EXIT_INCOMPLETE, folderPart } from "./shared.js";
import { executeNavigation, navigationRunsMarkdown, type NavigationScores } from "../benchmarks/vcn/index.js";
import { HouseCache } from "../sim/house-cache.js";
import { auditFolder } from "../audit/run-audit.js";
import { DEFAULT_AUDIT_OPTIONS } from "../audit/audit.js";
import { pct } from "../audit/markdown.js";
import { blindReferences, findAudits } from "../report/blind-rows.js";

/** The bundled sets (each made by `generate <benchmark>` from furnished houses). */
const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples");
/** The bundled set of each benchmark that has one (PathEval's sets are generated when needed). */
export const BUNDLED_DATA = {
  egopath: path.join(EXAMPLES, "egopath-mini"),
  vcn: path.join(EXAMPLES, "vcn-mini"),
  egotl: path.join(EXAMPLES, "egotl-mini"),
  epic: path.join(EXAMPLES, "epic-mini"),
} as const;
export const DEMO_DATA = BUNDLED_DATA.egopath;
const DEMO_MODELS = ["oracle", "direct-to-goal", "random:1", "all-ids", "none"];
/** PathEval baselines and variants: position bias (flipped), fine-grained perception (Tables 3, 9), attribute abstraction (Tables 11, 12). */
const PATHEVAL_DEMO_RUNS: Array<[string, string]> = [
  ["descriptor-oracle", "plain"], ["always-first", "plain"], ["random:1", "plain"], ["always-first", "flipped"],
  ["descriptor-oracle", "fine-grained"], ["random:1", "fine-grained"], ["descriptor-oracle", "fine-grained-test-set"],
  ["descriptor-oracle", "attribute-abstraction"], ["random:1", "attribute-abstraction-list"],
];
/** The segment-complexity study (PathEval Fig. 2) on its own generated set. */
const SEGMENT_DEMO_MODELS = ["descriptor-oracle", "random:1"];

/** VCN-Bench, EgoTL-Bench and EPIC-Bench on their bundled sets. */
interface BundledDemoRun { benchmark: "vcn" | "egotl" | "epic"; model: string; prompt?: string; train?: string; tasks?: string[]; repeats?: number }
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
  // Two repeats, averaged as the paper averages its runs (§4).
  { benchmark: "epic", model: "random:1", repeats: 2 },
  // The overlay ablation (Table 5) and the count-only prompt on TL and CR samples (Table 4).
  { benchmark: "epic", model: "oracle", prompt: "no-overlay" },
  { benchmark: "epic", model: "oracle", prompt: "box-overlay" },
  { benchmark: "epic", model: "oracle", prompt: "count-only", tasks: ["TargetLocalization", "ContactRelationship"] },
  { benchmark: "epic", model: "random:1", prompt: "count-only", tasks: ["TargetLocalization", "ContactRelationship"] },
];
/** VCN-Bench closed-loop navigation on the bundled set: the built-in agents (no model). */
const NAVIGATION_DEMO_AGENTS = ["oracle", "goal-then-plan:oracle", "goal-then-plan:random", "goal-then-plan:first", "forward-only", "random-walk:1"];

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("no key, no network: run the built-in models on the bundled example set and write a report")
    .option("--out <dir>", "output folder", "runs/demo")
    // The demo folder is locked as a whole (each run also locks its own folder), and its reports are replaced atomically.
    .action((opts) => withFolderLock(opts.out, () => demo(opts.out)));
}

async function demo(outDir: string): Promise<void> {
  const runs: ScoresDocument[] = [];
  const runDirs: string[] = [];
  // The built-ins run on clean bundled data: every run must be complete (else the demo exits 3 as `run` would).
  const incomplete: string[] = [];
  const record = ({ out, scores }: { out: string; scores: ScoresDocument }) => {
    runs.push(scores);
    runDirs.push(out);
    incomplete.push(...incompleteNote(out, scores));
  };
  for (const model of DEMO_MODELS) {
    record(await demoRun(outDir, folderPart(model), { benchmark: "egopath", data: DEMO_DATA, model, promptSource: "release", bootstrapResamples: 10000 }));
  }
  // PathEval: a small fresh set made with the paper's method, then the built-in baselines.
  const pathevalData = path.join(outDir, "patheval-set");
  rmSync(pathevalData, { recursive: true, force: true });
  const patheval = getBenchmark("patheval");
  console.log(`\n== generating a PathEval set in ${pathevalData}`);
  console.log(await patheval.generate!({ outDir: pathevalData, seed: 7, count: 6, extra: { runs: "10", "test-per-scenario": "2" }, log: () => {} }));
  for (const [model, prompt] of PATHEVAL_DEMO_RUNS) {
    record(await demoRun(outDir, `patheval-${folderPart(model)}-${prompt}`, { benchmark: "patheval", data: pathevalData, model, promptSource: prompt, bootstrapResamples: 2000 }));
  }
  const segmentData = path.join(outDir, "patheval-segments");
  rmSync(segmentData, { recursive: true, force: true });
  console.log(`\n== generating PathEval's segment-complexity study (Fig. 2) in ${segmentData}`);
  console.log(await patheval.generate!({ outDir: segmentData, seed: 7, count: 1, extra: { study: "segments", dims: "2d" }, log: () => {} }));
  for (const model of SEGMENT_DEMO_MODELS) {
    record(await demoRun(outDir, `patheval-${folderPart(model)}-segments`, { benchmark: "patheval", data: segmentData, model, promptSource: "segments", bootstrapResamples: 2000 }));
  }
  for (const { benchmark: id, model, prompt, train, tasks, repeats } of BUNDLED_DEMO_RUNS) {
    const source = prompt ?? getBenchmark(id).promptSources[0]!;
    const options = { benchmark: id, data: BUNDLED_DATA[id], model, promptSource: source, bootstrapResamples: 2000, ...(train ? { benchmarkOptions: { train } } : {}), ...(tasks ? { tasks } : {}) };
    const name = `${id}-${folderPart(model)}-${source}`;
    if (!repeats) {
      record(await demoRun(outDir, name, options));
      continue;
    }
    const { runs: repeated, summary } = await executeRepeatedRun(runOptions(path.join(outDir, name), options), repeats);
    console.log(`\n== ${id} ${model} (${source}), ${repeats} repeats: overall ${summary.metrics[0]!.values.map((v) => (v === null ? "—" : v.toFixed(4))).join(", ")}`);
    for (const run of repeated) record({ out: run.outDir, scores: run.scores });
  }
  // VCN-Bench closed-loop navigation in the built-in simulator, the houses loaded once for every agent.
  const navigationRuns: NavigationScores[] = [];
  const houses = new HouseCache({ dataRoot: BUNDLED_DATA.vcn });
  try {
    for (const agent of NAVIGATION_DEMO_AGENTS) {
      const out = path.join(outDir, `vcn-navigate-${folderPart(agent)}`);
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
  // Can each set be answered without looking? The audit of every set the runs used (chance and blind rows in the report).
  const audits = path.join(outDir, "audit");
  for (const [id, data] of [["egopath", DEMO_DATA], ["patheval", pathevalData], ["vcn", BUNDLED_DATA.vcn], ["egotl", BUNDLED_DATA.egotl], ["epic", BUNDLED_DATA.epic]] as const) {
    const benchmark = getBenchmark(id);
    if (!benchmark.audit) continue;
    const result = await auditFolder(benchmark, data, path.join(audits, id), { ...DEFAULT_AUDIT_OPTIONS, cues: true });
    const o = result.document.overall;
    console.log(`\n== audit ${id} (${path.basename(data)}): ${o.metric} chance ${pct(o.chance)}, best blind rule ${o.blind_best ? `${pct(o.blind_best.score)} (${o.blind_best.name}, picked on these items)` : "—"}, chosen on the other folds ${pct(o.blind_selected?.score)}, TsT ${pct(o.tst)}`);
  }
  const references = await blindReferences(runs, findAudits([audits]));
  const report = path.join(outDir, "report.md");
  writeFileAtomic(report, `# spatialprobe demo: built-in models, no key, no network\n\nData: examples/egopath-mini, examples/vcn-mini, examples/egotl-mini and examples/epic-mini (each made by \`spatialprobe generate\` in furnished houses of the world engine, by its paper's method; not the benchmarks' releases), and PathEval sets generated into ${mdText(pathevalData)} and ${mdText(segmentData)} (the segment study). The audit of each set (can it be answered without looking?) is in ${mdText(audits)}.\n\n${leaderboardMarkdown(leaderboard(runs, references))}\n\n${markdownReport(runs, references)}\n${navigationRunsMarkdown(navigationRuns as never, "## VCN-Bench closed-loop navigation (built-in agents in the built-in simulator)")}\n`);
  const htmlFile = path.join(outDir, "report.html");
  // The default size budget and picture size (labels readable): items beyond the budget are listed without pictures, every one is in `serve`.
  const { html, summary } = await htmlReport(runDirs);
  writeFileAtomic(htmlFile, html);
  console.log(`\nwrote ${report}, ${htmlFile} (tables, charts, ${summary.pictured} item pictures; open it in a browser) and one folder per run with scores.json, items.jsonl, report.md`);
  console.log(`browse every item: node bin/spatialprobe.js serve ${outDir}`);
  if (incomplete.length > 0) {
    console.error(incomplete.join("\n"));
    process.exitCode = EXIT_INCOMPLETE;
  }
}

type DemoRunOptions = Pick<RunCommandOptions, "benchmark" | "data" | "model" | "promptSource" | "bootstrapResamples" | "benchmarkOptions" | "tasks">;


/** The demo's fixed choices around one run's own: seeds, no control, quiet. */
function runOptions(out: string, options: DemoRunOptions): RunCommandOptions {
  return { ...options, out, bootstrapSeed: 20260717, control: "none", seed: 20260717, flags: {}, retryErrors: false, quiet: true };
}

/** One demo run in `<outDir>/<name>`, its terminal summary printed. */
async function demoRun(outDir: string, name: string, options: DemoRunOptions): Promise<{ out: string; scores: ScoresDocument }> {
  const out = path.join(outDir, name);
  const { scores } = await executeRun(runOptions(out, options));
  const variant = options.promptSource === getBenchmark(options.benchmark).promptSources[0] ? "" : ` (${options.promptSource})`;
  console.log(`\n== ${options.benchmark} ${options.model}${variant}\n${getBenchmark(options.benchmark).terminal(scores)}`);
  return { out, scores };
}

/** The reason line of an incomplete demo run, naming its folder. */
function incompleteNote(out: string, scores: ScoresDocument): string[] {
  const reason = incompleteReason(scores, false);
  return reason ? [`${out}: ${reason}`] : [];
}
