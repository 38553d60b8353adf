import { mkdirSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { sideBySide } from "../../media/compose.js";
import { renderMap2D } from "../../media/render2d.js";
import { renderMap3D } from "../../media/render3d.js";
import { parseEnvironment, type Polygon } from "../../geometry/polygon.js";
import { createRng } from "../../stats/rng.js";
import { descriptors } from "./descriptors.js";
import { releaseEnvironmentList } from "./environments/index.js";
import { labelDetail } from "./label.js";
import { farthestPairs } from "./pairs.js";
import type { EnvironmentJob, EnvironmentPlans, PlannerName } from "./plan.js";
import { planAll } from "./pool.js";
import { DESCRIPTORS, SCENARIOS, type Descriptors } from "./scenarios.js";
import type { Dim, PathEvalRecord, PathName } from "./types.js";
import { PAPER_TABLE_10, type GenerateOptions } from "./generate-options.js";

export { PAPER_TABLE_10, type GenerateOptions };

/**
 * Generate a PathEval set with the paper's method (§3): environments of the four families, 30
 * plans each for random robot radii, descriptors, the farthest pairs per environment, labels for
 * the fifteen scenarios, a test split of N labelled pairs per scenario (the rest is training),
 * and side-by-side 2D/3D pictures of the test pairs. Output: the release's JSON record format in
 * the release's layout (`2D/test_dataset_2D.json`, ...), plus `environments/`, `stats.json`.
 * Choices that differ from the release are listed in README.md of the output.
 */

interface Sample {
  env: EnvironmentPlans;
  pair: [number, number];
  scenarioId: number;
  label: PathName;
  metrics: Record<PathName, Descriptors>;
}

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
  seconds: { planning: number; rendering: number };
}


/** An even spread of environments over the release's list (all of them when count >= 1,149). */
export function chooseEnvironments(count: number, seed: number) {
  const all = releaseEnvironmentList();
  if (count >= all.length) return all;
  return createRng(seed ^ 0xe57).shuffle(all).slice(0, count);
}

export async function generatePathEval(options: GenerateOptions): Promise<GenerateSummary> {
  const log = options.log ?? (() => {});
  const dims = options.dims ?? ["2D", "3D"];
  const out = options.outDir;
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty: choose a new folder`);
  mkdirSync(path.join(out, "environments"), { recursive: true });

  const started = performance.now();
  const jobs: EnvironmentJob[] = chooseEnvironments(options.environments, options.seed).map((e) => ({
    ...e, seed: options.seed, runs: options.runsPerEnvironment ?? 30, planner: options.planner ?? "rrt-connect",
    simplify: options.simplify ?? true, maxIterations: options.maxIterations ?? 50_000,
    ...(options.timeLimitMs ? { timeLimitMs: options.timeLimitMs } : {}),
  }));
  const plans = await planAll(jobs, { ...(options.workers ? { workers: options.workers } : {}), onDone: (n) => { if (n % 25 === 0 || n === jobs.length) log(`planned ${n}/${jobs.length} environments`); } });
  const planningSeconds = (performance.now() - started) / 1000;

  const samples: Sample[] = [];
  let pairCount = 0;
  const polygonsOf = new Map<string, Polygon[]>();
  for (const env of plans) {
    writeFileSync(path.join(out, "environments", env.fileName), env.text);
    const polygons = parseEnvironment(env.text, env.fileName);
    polygonsOf.set(env.name, polygons);
    const metrics = env.paths.map((p) => descriptors(p.points, polygons));
    const chosen = farthestPairs(metrics, options.pairsPerEnvironment ?? 5);
    const pairs = options.labelledPairs === "last" ? chosen.slice(-1) : chosen;
    pairCount += pairs.length;
    for (const pair of pairs) {
      const m = { "Path 1": metrics[pair[0]]!, "Path 2": metrics[pair[1]]! };
      for (const scenario of SCENARIOS) {
        const { label } = labelDetail(m["Path 1"], m["Path 2"], scenario.directions);
        if (label !== "Unresolved") samples.push({ env, pair, scenarioId: scenario.id, label, metrics: m });
      }
    }
  }

  const { test, train } = splitByScenario(samples, options.testPerScenario ?? 70, options.seed);
  const renderStart = performance.now();
  const testRecords = await writeRecords(out, "test", test, dims, polygonsOf, true, log);
  await writeRecords(out, "train", train, dims, polygonsOf, options.trainImages ?? false, log);
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
    seconds: { planning: planningSeconds, rendering: renderingSeconds },
  };
  // Timings are printed, not written, so the same seed gives the same files.
  const { seconds: _timings, ...stats } = summary;
  writeFileSync(path.join(out, "stats.json"), `${JSON.stringify({ ...stats, paper_table_10: PAPER_TABLE_10, test_records: testRecords }, null, 2)}\n`);
  writeFileSync(path.join(out, "README.md"), readme(options));
  return summary;
}

/** Per scenario, a seeded draw of the test pairs; the rest is training. */
function splitByScenario(samples: Sample[], perScenario: number | "release", seed: number): { test: Sample[]; train: Sample[] } {
  const groups = SCENARIOS.map((s) => samples.filter((x) => x.scenarioId === s.id));
  // The release's rule (prepare_data.py): 34 for the scenarios whose counts are among the five largest, 33 otherwise.
  const topCounts = groups.map((g) => g.length).sort((a, b) => a - b).slice(-5);
  const test: Sample[] = [];
  const train: Sample[] = [];
  groups.forEach((group, i) => {
    const n = perScenario === "release" ? (topCounts.includes(group.length) ? 34 : 33) : perScenario;
    const order = createRng(seed + 101 * (i + 1)).shuffle(group);
    test.push(...order.slice(0, n));
    train.push(...order.slice(n));
  });
  return { test, train };
}

async function writeRecords(out: string, split: "test" | "train", samples: Sample[], dims: Dim[], polygonsOf: Map<string, Polygon[]>, render: boolean, log: (line: string) => void): Promise<number> {
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
    const records: PathEvalRecord[] = [];
    for (let id = 0; id < samples.length; id++) {
      const s = samples[id]!;
      const image = `combined_images/${prefix}${id}_${dim}.png`;
      if (render) {
        mkdirSync(path.join(out, "combined_images"), { recursive: true });
        writeFileSync(path.join(out, image), await sideBySide(await picture(s.env, s.pair[0], dim), await picture(s.env, s.pair[1], dim)));
        if ((id + 1) % 200 === 0) log(`${split} ${dim}: ${id + 1}/${samples.length} pictures`);
      }
      const scenario = SCENARIOS[s.scenarioId - 1]!;
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
      });
    }
    const file = path.join(out, dim, split === "test" ? `test_dataset_${dim}.json` : `train_set_${dim}.json`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(records)}\n`);
  }
  return samples.length;
}

function meanDifference(samples: Sample[]): Descriptors {
  return Object.fromEntries(DESCRIPTORS.map((d) => [d, samples.length === 0 ? 0 : samples.reduce((s, x) => s + Math.abs(x.metrics["Path 1"][d] - x.metrics["Path 2"][d]), 0) / samples.length])) as Descriptors;
}

function balance(samples: Sample[]): Record<PathName, number> {
  return { "Path 1": samples.filter((s) => s.label === "Path 1").length, "Path 2": samples.filter((s) => s.label === "Path 2").length };
}

function readme(o: GenerateOptions): string {
  return `# PathEval-style set made by spatialprobe

Made with \`spatialprobe generate patheval\` (seed ${o.seed}, ${o.environments} environments, ${o.runsPerEnvironment ?? 30} plans each,
planner ${o.planner ?? "rrt-connect"}${(o.simplify ?? true) ? " with shortcut simplification" : ""}, ${o.pairsPerEnvironment ?? 5} pairs per environment,
${o.testPerScenario ?? 70} test pairs per scenario).

Layout as the PathEval release: \`2D/test_dataset_2D.json\`, \`3D/test_dataset_3D.json\` (and the train files), records
\`{id, image, conversations, metrics}\` plus our fields \`scenario_id\`, \`scenario\`, \`environment\`, \`paths\`.
Pictures: \`combined_images/<id>_<dim>.png\` (Path 1 left). Environments: \`environments/*.txt\` in the release's format.
Scenario texts are spatialprobe's own wording of the paper's fifteen scenarios (same agents and descriptor directions).

Differences from the released generator: every pair is labelled (the release writes only each environment's last pair),
a path is never paired with itself, and ties between pair distances are broken by index, not by numpy's unstable sort.
\`stats.json\` holds the average descriptor differences of the test pairs next to the paper's Table 10, and the label balance.
`;
}
