import { pathEvalProblem, rrt, rrtConnect, shortcutSimplify, type Vec2 } from "../../geometry/planners.js";
import { formatEnvironment, parseEnvironment, type Polygon } from "../../geometry/polygon.js";
import { createRng, deriveSeed, seedFromString } from "../../stats/rng.js";
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
  /** State validity (default "release": 20 circle points; "exact": the analytic disc and exact motion checks). */
  validity?: "release" | "exact";
  /** A user's environment file (validated by the caller), planned instead of a generated one. */
  environment?: { name: string; fileName: string; text: string };
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
  const env = environmentOf(job);
  // A user's file is seeded by its name, so adding files to the folder leaves the others' plans alone.
  const stream = job.environment ? seedFromString(job.environment.fileName) : 0x9a7e + job.index * 131 + job.parameter;
  const rng = createRng(deriveSeed(job.seed, stream));
  const paths: EnvironmentPlans["paths"] = [];
  const started = performance.now();
  for (let run = 0; run < job.runs; run++) {
    const radius = 0.5 + rng.next();
    const problem = pathEvalProblem(env.polygons, { radius, ...(job.validity ? { validity: job.validity } : {}) });
    const planner = job.planner === "rrt" ? rrt : rrtConnect;
    const result = planner(problem, rng, { maxIterations: job.maxIterations, ...(job.timeLimitMs ? { timeLimitMs: job.timeLimitMs } : {}) });
    if (!result.path || !result.reachesGoal) continue;
    const points = job.simplify ? shortcutSimplify(result.path, problem.isMotionValid, rng) : result.path;
    paths.push({ points: points.map((p) => [p[0], p[1]] as Vec2), radius, run });
  }
  return { name: env.name, fileName: env.fileName, text: env.text ?? formatEnvironment(env.polygons), paths, runs: job.runs, planMs: performance.now() - started };
}

/** The job's map: the user's file (its text kept byte for byte) or a generated one. */
function environmentOf(job: EnvironmentJob): { name: string; fileName: string; polygons: Polygon[]; text?: string } {
  if (job.environment) return { ...job.environment, polygons: parseEnvironment(job.environment.text, job.environment.fileName) };
  return generateEnvironment(job.family, job.parameter, job.index, job.seed);
}
