import { mkdirSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { DataProblem } from "../../core/problems.js";
import { sideBySide } from "../../media/compose.js";
import { renderMap2D } from "../../media/render2d.js";
import { renderMap3D } from "../../media/render3d.js";
import { parseEnvironment, type Polygon } from "../../geometry/polygon.js";
import { createRng } from "../../stats/rng.js";
import { labelPairs, pairPicture, type EnvironmentTask } from "./environment-job.js";
import { parseEnvironmentName, releaseEnvironmentList } from "./environments/index.js";
import type { EnvironmentPlans, PlannerName } from "./plan.js";
import { makeEnvironments } from "./pool.js";
import { DESCRIPTORS, PAPER_THRESHOLDS, SCENARIOS, type Descriptors } from "./scenarios.js";
import type { Dim, PathEvalRecord, PathName } from "./types.js";
import { PAPER_TABLE_10, type GenerateOptions } from "./generate-options.js";
import { readUserEnvironments } from "./user-files.js";
import { balanceSides, splitByEnvironment, splitByScenario, type Sample } from "./split.js";
import { writeProbingSet } from "./probing-set.js";

export { PAPER_TABLE_10, type GenerateOptions };

/**
 * Generate a PathEval set with the paper's method (§3): environments of the four families, 30
 * plans each for random robot radii, descriptors, the farthest pairs per environment, labels for
 * the fifteen scenarios, a test split of N labelled pairs per scenario (the rest is training),
 * and side-by-side 2D/3D pictures of the test pairs. Output: the release's JSON record format in
 * the release's layout (`2D/test_dataset_2D.json`, ...), plus `environments/`, `stats.json`.
 * Choices that differ from the release are listed in README.md of the output.
 * Options (generate-options.ts): the user's environment files, exact validity, thresholds, the
 * user's scenario texts, label balance and an environment-disjoint split (split.ts), and the
 * encoder-probing set (probing-set.ts).
 *
 * The work is one task per environment (environment-job.ts: its plans, labelled pairs and their
 * pictures), made on a pool of threads here or by queue workers (queue/generators/patheval.ts),
 * then this assembly: the split, balance, records, fine-grained and probing sets, stats.
 */

export interface GenerateSummary {
  environments: number;
  validPaths: number;
  pairs: number;
  test: number;
  train: number;
  /** Paper Table 10: mean absolute descriptor difference over the test pairs. */
  meanDifference: Descriptors;
  labelBalance: { test: Record<PathName, number>; train: Record<PathName, number> };
  perScenario: Array<{ id: number; test: number; train: number }>;
  /** Test pairs whose sides were swapped to balance the labels (balance=true). */
  swapped: number;
  /** split=environment: environments per split, and labelled pairs of test environments not drawn (in neither split). */
  environmentSplit?: { test: number; train: number; unused: number };
  /** Same/different pairs written for the encoder probe (probing=N). */
  probingPairs: number;
  /** The user's environment files skipped because their start or goal lies inside a polygon, with the reason. */
  skippedEnvironments?: string[];
  seconds: { planning: number; rendering: number };
}


/** An even spread of environments over the release's list (all of them when count >= 1,149). */
export function chooseEnvironments(count: number, seed: number) {
  const all = releaseEnvironmentList();
  if (count >= all.length) return all;
  return createRng(seed ^ 0xe57).shuffle(all).slice(0, count);
}

/**
 * The environment tasks: the user's environment files (environments=DIR) or the generated
 * families; `skipped`: the user's files no plan can be made in, each with its reason.
 */
export function environmentPlan(options: GenerateOptions): { tasks: EnvironmentTask[]; skipped: DataProblem[] } {
  const common = {
    seed: options.seed, runs: options.runsPerEnvironment ?? 30, planner: options.planner ?? "rrt-connect" as PlannerName,
    simplify: options.simplify ?? true, maxIterations: options.maxIterations ?? 50_000,
    ...(options.timeLimitMs ? { timeLimitMs: options.timeLimitMs } : {}),
    ...(options.validity ? { validity: options.validity } : {}),
    pairs: options.pairsPerEnvironment ?? 5, labelledPairs: options.labelledPairs ?? "all" as const,
    thresholds: options.thresholds ?? PAPER_THRESHOLDS, dims: options.dims ?? ["2D", "3D"] as Dim[],
  };
  if (!options.environmentsDir) return { tasks: chooseEnvironments(options.environments, options.seed).map((e) => ({ ...e, ...common })), skipped: [] };
  const { environments: files, skipped } = readUserEnvironments(options.environmentsDir);
  const chosen = files.length <= options.environments ? files : createRng(options.seed ^ 0xe57).shuffle(files).slice(0, options.environments).sort((a, b) => (a.fileName < b.fileName ? -1 : 1));
  // family/parameter/index only name the job in messages when a file is given: the release's when the name is release-style.
  return { tasks: chosen.map((environment, index) => ({ ...(parseEnvironmentName(environment.fileName) ?? { family: "random" as const, parameter: 0, index }), ...common, environment })), skipped };
}

export const environmentTasks = (options: GenerateOptions): EnvironmentTask[] => environmentPlan(options).tasks;

export async function generatePathEval(options: GenerateOptions): Promise<GenerateSummary> {
  const log = options.log ?? (() => {});
  const dims = options.dims ?? ["2D", "3D"];
  const out = options.outDir;
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty: choose a new folder`);
  // The user's files are checked before anything is written.
  const { tasks, skipped: blocked } = environmentPlan(options);
  const skipped = blocked.map((p) => `${path.basename(p.file)}: its ${p.field} ${p.message}`);
  for (const reason of skipped) log(`skipped ${reason}`);
  mkdirSync(path.join(out, "environments"), { recursive: true });

  const started = performance.now();
  const made = options.environmentSource ?? ((all: EnvironmentTask[]) => makeEnvironments(all, { ...(options.workers ? { workers: options.workers } : {}), onDone: (n) => { if (n % 25 === 0 || n === all.length) log(`planned ${n}/${all.length} environments`); } }));
  const outputs = await made(tasks);
  const plans = outputs.map((o) => o.plans);
  const picturesOf = new Map(outputs.map((o) => [o.plans.name, o.pictures]));
  const planningSeconds = (performance.now() - started) / 1000;

  const thresholds = options.thresholds ?? PAPER_THRESHOLDS;
  const samples: Sample[] = [];
  let pairCount = 0;
  const polygonsOf = new Map<string, Polygon[]>();
  plans.forEach((env, e) => {
    writeFileSync(path.join(out, "environments", env.fileName), env.text);
    if (env.paths.length < 2) log(`${env.fileName}: ${env.paths.length} of ${env.runs} plans reached the goal, so it gives no pair`);
    const polygons = parseEnvironment(env.text, env.fileName);
    polygonsOf.set(env.name, polygons);
    const pairs = labelPairs(env, polygons, tasks[e]!);
    pairCount += pairs.length;
    for (const { pair, metrics, labels } of pairs) for (const { scenarioId, label } of labels) samples.push({ env, pair, scenarioId, label, metrics, swapped: false });
  });

  const perScenario = options.testPerScenario ?? 70;
  const split = options.split === "environment" ? splitByEnvironment(samples, perScenario, options.seed) : { ...splitByScenario(samples, perScenario, options.seed), unused: [] as Sample[] };
  const balanced = options.balance ? balanceSides(split.test, options.seed) : { samples: split.test, swapped: 0 };
  const test = balanced.samples;
  const train = split.train;
  const texts = options.scenarioTexts?.texts;
  const renderStart = performance.now();
  const testRecords = await writeRecords(out, "test", test, dims, polygonsOf, picturesOf, true, log, texts);
  await writeRecords(out, "train", train, dims, polygonsOf, picturesOf, options.trainImages ?? false, log, texts);
  // [patheval-analysis] The fine-grained perception set (App. C.2, Table 8) from all valid paths: finegrained-set.ts.
  await (await import("./finegrained-set.js")).writeFineGrainedSet(out, plans.map((e) => ({ environment: e.name, polygons: polygonsOf.get(e.name)!, paths: e.paths })), { seed: options.seed, dims, log });
  const probingPairs = options.probingPairs ? await writeProbingSet(out, plans, polygonsOf, { pairs: options.probingPairs, seed: options.seed, dims, log }) : 0;
  const renderingSeconds = (performance.now() - renderStart) / 1000;

  const summary: GenerateSummary = {
    environments: plans.length,
    validPaths: plans.reduce((s, e) => s + e.paths.length, 0),
    pairs: pairCount,
    test: test.length,
    train: train.length,
    meanDifference: meanDifference(test),
    labelBalance: { test: balance(test), train: balance(train) },
    perScenario: SCENARIOS.map((s) => ({ id: s.id, test: test.filter((x) => x.scenarioId === s.id).length, train: train.filter((x) => x.scenarioId === s.id).length })),
    swapped: balanced.swapped,
    ...(options.split === "environment" ? { environmentSplit: { test: new Set(test.map((x) => x.env.name)).size, train: new Set(train.map((x) => x.env.name)).size, unused: split.unused.length } } : {}),
    probingPairs,
    ...(skipped.length > 0 ? { skippedEnvironments: skipped } : {}),
    seconds: { planning: planningSeconds, rendering: renderingSeconds },
  };
  // Timings are printed, not written, so the same seed gives the same files.
  const { seconds: _timings, ...stats } = summary;
  writeFileSync(path.join(out, "stats.json"), `${JSON.stringify({ ...stats, paper_table_10: PAPER_TABLE_10, test_records: testRecords, settings: settingsOf(options, thresholds) }, null, 2)}\n`);
  writeFileSync(path.join(out, "README.md"), readme({ ...options, environments: plans.length }, skipped));
  return summary;
}

async function writeRecords(out: string, split: "test" | "train", samples: Sample[], dims: Dim[], polygonsOf: Map<string, Polygon[]>, picturesOf: Map<string, Map<string, Buffer>>, render: boolean, log: (line: string) => void, texts?: Record<number, string>): Promise<number> {
  const single = new Map<string, Buffer>();
  const picture = async (env: EnvironmentPlans, index: number, dim: Dim) => {
    const key = `${env.name}|${index}|${dim}`;
    let png = single.get(key);
    if (!png) {
      const scene = { polygons: polygonsOf.get(env.name)!.map((p) => Array.from({ length: p.length / 2 }, (_, k) => [p[2 * k]!, p[2 * k + 1]!] as [number, number])), path: env.paths[index]!.points };
      png = dim === "2D" ? await renderMap2D(scene) : await renderMap3D(scene);
      single.set(key, png);
    }
    return png;
  };
  const prefix = split === "test" ? "" : "train_";
  for (const dim of dims) {
    const records: Array<PathEvalRecord & { swapped?: boolean }> = [];
    for (let id = 0; id < samples.length; id++) {
      const s = samples[id]!;
      const image = `combined_images/${prefix}${id}_${dim}.png`;
      if (render) {
        mkdirSync(path.join(out, "combined_images"), { recursive: true });
        // The pair's picture as its environment's task made it; a swapped pair's is drawn here.
        const made = picturesOf.get(s.env.name)?.get(pairPicture(s.pair, dim));
        writeFileSync(path.join(out, image), made ?? (await sideBySide(await picture(s.env, s.pair[0], dim), await picture(s.env, s.pair[1], dim))));
        if ((id + 1) % 200 === 0) log(`${split} ${dim}: ${id + 1}/${samples.length} pictures`);
      }
      const scenario = { ...SCENARIOS[s.scenarioId - 1]!, ...(texts?.[s.scenarioId] !== undefined ? { text: texts[s.scenarioId]! } : {}) };
      records.push({
        id,
        image,
        conversations: [
          { from: "human", value: `${scenario.text} Which path better achieves the task?` },
          { from: "gpt", value: s.label },
        ],
        metrics: s.metrics,
        scenario_id: s.scenarioId,
        scenario: scenario.text,
        environment: s.env.name,
        paths: { "Path 1": s.env.paths[s.pair[0]]!.points, "Path 2": s.env.paths[s.pair[1]]!.points },
        ...(s.swapped ? { swapped: true } : {}),
      });
    }
    const file = path.join(out, dim, split === "test" ? `test_dataset_${dim}.json` : `train_set_${dim}.json`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(records)}\n`);
  }
  return samples.length;
}

/** The settings in force, written to stats.json so a set says how it was made. */
function settingsOf(o: GenerateOptions, thresholds: Descriptors): Record<string, unknown> {
  return {
    ...(o.preset ? { preset: o.preset } : {}),
    environments: o.environmentsDir ? "user files" : "generated (four families)",
    runs: o.runsPerEnvironment ?? 30, planner: o.planner ?? "rrt-connect", simplify: o.simplify ?? true, validity: o.validity ?? "release",
    pairs: o.pairsPerEnvironment ?? 5, labelled_pairs: o.labelledPairs ?? "all", thresholds,
    scenarios: o.scenarioTexts ? { file: path.basename(o.scenarioTexts.file), sha256: o.scenarioTexts.sha256 } : "spatialprobe wording",
    split: o.split ?? "scenario", test_per_scenario: o.testPerScenario ?? 70, balance: o.balance ?? false,
    max_iterations: o.maxIterations ?? 50_000, ...(o.timeLimitMs ? { time_limit_ms: o.timeLimitMs } : {}),
  };
}

function meanDifference(samples: Sample[]): Descriptors {
  return Object.fromEntries(DESCRIPTORS.map((d) => [d, samples.length === 0 ? 0 : samples.reduce((s, x) => s + Math.abs(x.metrics["Path 1"][d] - x.metrics["Path 2"][d]), 0) / samples.length])) as Descriptors;
}

function balance(samples: Sample[]): Record<PathName, number> {
  return { "Path 1": samples.filter((s) => s.label === "Path 1").length, "Path 2": samples.filter((s) => s.label === "Path 2").length };
}

function readme(o: GenerateOptions, skipped: readonly string[]): string {
  const notes = [
    o.preset ? `Preset \`${o.preset}\` (its settings, with any key given beside it), see stats.json "settings".` : "",
    o.environmentsDir ? "Environments: the user's own files (copied unchanged into `environments/`), not generated ones." : "",
    skipped.length > 0 ? `Skipped ${skipped.length} of the user's environment files, whose start or goal lies inside a polygon (no plan can be made there): ${skipped.join("; ")}.` : "",
    o.validity === "exact" ? "State validity: the exact disc check (and exact motion checks), not the release's 20 circle points." : "",
    o.thresholds ? "Labelling thresholds: the user's (stats.json \"settings\".thresholds), not the paper's." : "",
    o.balance ? "Test labels balanced per scenario: some pairs are shown with their sides swapped (records carry `\"swapped\": true`)." : "",
    o.split === "environment" ? "Split by environment: no environment has pairs in both the test and the training files." : "",
    o.probingPairs ? "Encoder probing (paper §5.2, Table 4): single-path pictures and same/different pairs in `probing/` (docs/patheval-probing.md)." : "",
  ].filter((line) => line !== "");
  const scenarios = o.scenarioTexts
    ? `Scenario texts come from the user's file ${path.basename(o.scenarioTexts.file)} (sha256 ${o.scenarioTexts.sha256.slice(0, 16)}...); the descriptors each scenario weighs are the paper's (Table 7).`
    : "Scenario texts are spatialprobe's own wording of the paper's fifteen scenarios (same agents and descriptor directions).";
  return `# PathEval-style set made by spatialprobe

Made with \`spatialprobe generate patheval\` (seed ${o.seed}, ${o.environments} environments, ${o.runsPerEnvironment ?? 30} plans each,
planner ${o.planner ?? "rrt-connect"}${(o.simplify ?? true) ? " with shortcut simplification" : ""}, ${o.pairsPerEnvironment ?? 5} pairs per environment,
${o.testPerScenario ?? 70} test pairs per scenario).

Layout as the PathEval release: \`2D/test_dataset_2D.json\`, \`3D/test_dataset_3D.json\` (and the train files), records
\`{id, image, conversations, metrics}\` plus our fields \`scenario_id\`, \`scenario\`, \`environment\`, \`paths\`.
Pictures: \`combined_images/<id>_<dim>.png\` (Path 1 left). Environments: \`environments/*.txt\` in the release's format.
${scenarios}
${notes.length > 0 ? `\n${notes.map((n) => `- ${n}`).join("\n")}\n` : ""}
Differences from the released generator: ${o.labelledPairs === "last" ? "" : "every pair is labelled (the release writes only each environment's last pair),\n"}a path is never paired with itself, and ties between pair distances are broken by index, not by numpy's unstable sort.
\`stats.json\` holds the average descriptor differences of the test pairs next to the paper's Table 10, the label balance and the settings.
`;
}
