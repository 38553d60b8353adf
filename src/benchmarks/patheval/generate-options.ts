import type { PlannerName } from "./plan.js";
import type { Descriptors } from "./scenarios.js";
import type { Dim } from "./types.js";

/** Options of `generatePathEval`, apart from the generator so the CLI can read them without loading it. */
export interface GenerateOptions {
  outDir: string;
  seed: number;
  /** Number of environments (the release has 1,149; spread over the four families). */
  environments: number;
  runsPerEnvironment?: number;
  /** Pairs per environment: 5 (paper, default) or 6 (release). */
  pairsPerEnvironment?: number;
  /**
   * Which pairs get labelled: "all" (the paper's method, default) or "last" (what the released
   * generate_samples.py actually writes: only each environment's last, i.e. least distant, pair;
   * this is what gives the paper's 14,550 instances over 1,150 environments).
   */
  labelledPairs?: "all" | "last";
  planner?: PlannerName;
  simplify?: boolean;
  /** Test pairs per scenario (paper 70); "release" = 34 for the five most frequent scenarios, 33 otherwise. */
  testPerScenario?: number | "release";
  dims?: Dim[];
  trainImages?: boolean;
  /** Iterations per plan (default 50,000); optional wall-time cap (machine-dependent when it triggers). */
  maxIterations?: number;
  timeLimitMs?: number;
  workers?: number;
  log?: (line: string) => void;
}

/** Paper Table 10 (average descriptor differences of the paper's test pairs), for comparison. */
export const PAPER_TABLE_10: Descriptors = {
  "Minimum clearance": 0.593, "Maximum clearance": 0.124, "Average clearance": 1.31, "Path length": 19.72,
  "Smoothness": 140.93, "Sharp turns": 0.582, "Maximum angle": 32.31,
};
