/**
 * One environment's share of `generate patheval`, a job in the planning pool (pool.ts) or on the
 * queue (queue/generators/patheval.ts): its plans (paper §3.1), the pairs it labels (§3.3-3.5, all
 * within the environment) and the side-by-side pictures of those pairs. Which labelled pairs end
 * up in the test split is drawn across environments (split.ts), so the assembly (generate.ts) takes
 * a pair's picture from here and renders only what no job made: swapped sides, the fine-grained
 * and probing sets, whose draws are across environments.
 */
import { sideBySide } from "../../media/compose.js";
import { parseEnvironment, type Polygon } from "../../geometry/polygon.js";
import { descriptors } from "./descriptors.js";
import { environmentFileName } from "./environments/index.js";
import { renderScene } from "./finegrained-set.js";
import { labelDetail, type Label } from "./label.js";
import { farthestPairs } from "./pairs.js";
import { planEnvironment, type EnvironmentJob, type EnvironmentPlans } from "./plan.js";
import { SCENARIOS, type Descriptors } from "./scenarios.js";
import type { Dim, PathName } from "./types.js";

/** A planning job and what the environment's pairs and pictures need. */
export interface EnvironmentTask extends EnvironmentJob {
  /** Pairs per environment (farthest first). */
  pairs: number;
  labelledPairs: "all" | "last";
  thresholds: Descriptors;
  dims: Dim[];
}

export interface EnvironmentOutput {
  plans: EnvironmentPlans;
  /** Side-by-side pictures of the labelled pairs, by pairPicture(pair, dim). */
  pictures: Map<string, Buffer>;
}

/** Where the generator gets its environments made, in task order: threads here, or a queued run's stored jobs. */
export type EnvironmentSource = (tasks: EnvironmentTask[]) => Promise<EnvironmentOutput[]>;

export interface LabelledPair {
  pair: [number, number];
  metrics: Record<PathName, Descriptors>;
  /** Scenario labels that are not Unresolved, in scenario order. */
  labels: Array<{ scenarioId: number; label: Exclude<Label, "Unresolved"> }>;
}

/** The name of a pair's picture among a job's files (Path 1 left). */
export const pairPicture = (pair: readonly [number, number], dim: Dim) => `pairs/${pair[0]}_${pair[1]}_${dim}.png`;

/** The job's id: its file name (the release's naming for generated maps). */
export const taskId = (task: EnvironmentJob) => task.environment?.fileName ?? environmentFileName(task.family, task.parameter, task.index);

export const toPoints = (polygon: Polygon): Array<[number, number]> => Array.from({ length: polygon.length / 2 }, (_, k) => [polygon[2 * k]!, polygon[2 * k + 1]!]);

/** The environment's pairs and labels (paper §3.3: farthest pairs by scaled descriptors; §3.5: labels by thresholds). */
export function labelPairs(env: EnvironmentPlans, polygons: Polygon[], options: Pick<EnvironmentTask, "pairs" | "labelledPairs" | "thresholds">): LabelledPair[] {
  const metrics = env.paths.map((p) => descriptors(p.points, polygons));
  const chosen = farthestPairs(metrics, options.pairs);
  const pairs = options.labelledPairs === "last" ? chosen.slice(-1) : chosen;
  return pairs.map((pair) => {
    const m = { "Path 1": metrics[pair[0]]!, "Path 2": metrics[pair[1]]! };
    const labels: LabelledPair["labels"] = [];
    for (const scenario of SCENARIOS) {
      const { label } = labelDetail(m["Path 1"], m["Path 2"], scenario.directions, options.thresholds);
      if (label !== "Unresolved") labels.push({ scenarioId: scenario.id, label });
    }
    return { pair, metrics: m, labels };
  });
}

/** Plan the environment and draw its labelled pairs side by side: deterministic in the task. */
export async function runEnvironmentTask(task: EnvironmentTask): Promise<EnvironmentOutput> {
  const plans = planEnvironment(task);
  const polygons = parseEnvironment(plans.text, plans.fileName);
  const scene = (index: number) => ({ polygons: polygons.map(toPoints), path: plans.paths[index]!.points });
  const pictures = new Map<string, Buffer>();
  for (const { pair, labels } of labelPairs(plans, polygons, task)) {
    if (labels.length === 0) continue;
    for (const dim of task.dims) pictures.set(pairPicture(pair, dim), await sideBySide(await renderScene(scene(pair[0]), dim), await renderScene(scene(pair[1]), dim)));
  }
  return { plans, pictures };
}
