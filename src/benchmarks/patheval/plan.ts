import { pathEvalProblem, rrt, rrtConnect, shortcutSimplify, type Vec2 } from "../../geometry/planners.js";
import { formatEnvironment } from "../../geometry/polygon.js";
import { createRng, deriveSeed } from "../../stats/rng.js";
import { generateEnvironment, type EnvironmentFamily } from "./environments/index.js";

export type PlannerName = "rrt-connect" | "rrt";

export interface EnvironmentJob {
  family: EnvironmentFamily;
  parameter: number;
  index: number;
  seed: number;
  runs: number;
  planner: PlannerName;
  /** Shortcut simplification after planning (the release simplifies its RRT paths). */
  simplify: boolean;
  /** Iteration budget per plan: the stopping rule, so results do not depend on machine speed. */
  maxIterations: number;
  /** Optional wall-time cap per plan (makes results machine-dependent when it triggers). */
  timeLimitMs?: number;
}

export interface EnvironmentPlans {
  name: string;
  fileName: string;
  text: string;
  /** Paths whose last point is in the goal box, with the radius each was planned for. */
  paths: Array<{ points: Vec2[]; radius: number; run: number }>;
  runs: number;
  planMs: number;
}

/**
 * One environment and its plans (paper §3.1): draw the map, then `runs` plans for a disc robot of
 * radius U(0.5, 1.5) each, keeping the ones that end in the goal box. Deterministic in the job.
 */
export function planEnvironment(job: EnvironmentJob): EnvironmentPlans {
  const env = generateEnvironment(job.family, job.parameter, job.index, job.seed);
  const rng = createRng(deriveSeed(job.seed, 0x9a7e + job.index * 131 + job.parameter));
  const paths: EnvironmentPlans["paths"] = [];
  const started = performance.now();
  for (let run = 0; run < job.runs; run++) {
    const radius = 0.5 + rng.next();
    const problem = pathEvalProblem(env.polygons, { radius });
    const planner = job.planner === "rrt" ? rrt : rrtConnect;
    const result = planner(problem, rng, { maxIterations: job.maxIterations, ...(job.timeLimitMs ? { timeLimitMs: job.timeLimitMs } : {}) });
    if (!result.path || !result.reachesGoal) continue;
    const points = job.simplify ? shortcutSimplify(result.path, problem.isMotionValid, rng) : result.path;
    paths.push({ points: points.map((p) => [p[0], p[1]] as Vec2), radius, run });
  }
  return { name: env.name, fileName: env.fileName, text: formatEnvironment(env.polygons), paths, runs: job.runs, planMs: performance.now() - started };
}
