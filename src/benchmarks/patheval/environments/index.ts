/**
 * PathEval environment generators: the release's four procedural families, seeded, written in the
 * release's file format by `formatEnvironment`. Our own construction after the layout of the
 * released files (which are not copied): see each family's module for its rules and parameters.
 *
 *   SceneMaze_Dims{10..18}     maze.ts
 *   SceneRandom_Frac{12..20}   random.ts
 *   SceneRings_Gap{2..15}      rings.ts
 *   SceneWaves_Lines{5..10}    waves.ts
 *
 * `generateEnvironment` keeps the start and the goal free (clearance >= `clearRadius` + margin)
 * and makes sure a disc of radius `clearRadius` (1.5, the largest radius the release draws) can
 * go from start to goal (`pathExists`), drawing again with the next sub-seed until both hold.
 * Coordinates are rounded to 6 decimals first, so the environment that was checked is exactly the
 * one a file holds.
 */
import { ObstacleIndex } from "../../../geometry/collision.js";
import { PATHEVAL_GOAL, PATHEVAL_START, type Vec2 } from "../../../geometry/planners.js";
import { formatEnvironment, type Polygon } from "../../../geometry/polygon.js";
import { createRng, deriveSeed, seedFromString, type Rng } from "../../../stats/rng.js";
import { generateMaze } from "./maze.js";
import { generateRandomObstacles } from "./random.js";
import { generateRings } from "./rings.js";
import { pathExists, pointClearance } from "./solvable.js";
import { generateWaves } from "./waves.js";

export { generateMaze, type MazeOptions } from "./maze.js";
export { generateRandomObstacles, randomShape, type RandomObstaclesOptions } from "./random.js";
export { arcPolygon, generateRings, type RingsOptions } from "./rings.js";
export { generateWaves, thickPolyline, type WavesOptions } from "./waves.js";
export { pathExists, pointClearance, type PathExistsOptions } from "./solvable.js";

export type EnvironmentFamily = "maze" | "random" | "rings" | "waves";

export interface FamilyInfo {
  /** File name stem: `${prefix}${parameter}_${index}`. */
  prefix: string;
  /** What the parameter means. */
  parameter: string;
  /** The release's parameter range, both ends included. */
  range: readonly [number, number];
}

export const ENVIRONMENT_FAMILIES: Readonly<Record<EnvironmentFamily, FamilyInfo>> = Object.freeze({
  maze: { prefix: "SceneMaze_Dims", parameter: "cells per side", range: [10, 18] },
  random: { prefix: "SceneRandom_Frac", parameter: "fill fraction in percent", range: [12, 20] },
  rings: { prefix: "SceneRings_Gap", parameter: "free space between rings", range: [2, 15] },
  waves: { prefix: "SceneWaves_Lines", parameter: "number of wave lines", range: [5, 10] },
});

/** The release's environment indices per (family, parameter): 0..29. */
export const ENVIRONMENT_INDICES: readonly [number, number] = [0, 29];

function checkFamily(family: string): asserts family is EnvironmentFamily {
  if (!Object.hasOwn(ENVIRONMENT_FAMILIES, family)) {
    throw new RangeError(`unknown environment family "${family}" (expected ${Object.keys(ENVIRONMENT_FAMILIES).join(", ")})`);
  }
}

/** The release's environment name, e.g. `SceneMaze_Dims10_0`. */
export function environmentName(family: EnvironmentFamily, parameter: number, index: number): string {
  checkFamily(family);
  if (!Number.isInteger(parameter) || !Number.isInteger(index) || index < 0) {
    throw new RangeError(`parameter and index must be integers (index >= 0), got ${parameter} and ${index}`);
  }
  return `${ENVIRONMENT_FAMILIES[family].prefix}${parameter}_${index}`;
}

/** The release's file name, e.g. `SceneMaze_Dims10_0Obstacles.txt`. */
export function environmentFileName(family: EnvironmentFamily, parameter: number, index: number): string {
  return `${environmentName(family, parameter, index)}Obstacles.txt`;
}

const NAME = /^(SceneMaze_Dims|SceneRandom_Frac|SceneRings_Gap|SceneWaves_Lines)(\d+)_(\d+)(?:Obstacles(?:\.txt)?)?$/;

/** Reads a family, parameter and index back from a release-style name or file name (null if none). */
export function parseEnvironmentName(name: string): { family: EnvironmentFamily; parameter: number; index: number } | null {
  const m = NAME.exec(name.replace(/^.*[\\/]/, ""));
  if (!m) return null;
  const family = (Object.keys(ENVIRONMENT_FAMILIES) as EnvironmentFamily[]).find((f) => ENVIRONMENT_FAMILIES[f].prefix === m[1])!;
  return { family, parameter: Number(m[2]), index: Number(m[3]) };
}

/** Every (family, parameter, index) of the release's procedural families: 9*30 + 9*30 + 14*30 + 6*30. */
export function releaseEnvironmentList(): Array<{ family: EnvironmentFamily; parameter: number; index: number }> {
  const out: Array<{ family: EnvironmentFamily; parameter: number; index: number }> = [];
  for (const family of Object.keys(ENVIRONMENT_FAMILIES) as EnvironmentFamily[]) {
    const [lo, hi] = ENVIRONMENT_FAMILIES[family].range;
    for (let p = lo; p <= hi; p++) for (let i = ENVIRONMENT_INDICES[0]; i <= ENVIRONMENT_INDICES[1]; i++) out.push({ family, parameter: p, index: i });
  }
  return out;
}

export interface GenerateEnvironmentOptions {
  /** Radius that must fit at start and goal and along some path (default 1.5). */
  clearRadius?: number;
  /** Extra clearance demanded at start and goal beyond clearRadius (default 0.25). */
  startGoalMargin?: number;
  /** Draws before giving up (default 200; dense SceneRandom_Frac20 needs about 6 on average). */
  maxAttempts?: number;
  /** Grid step of the path-existence search (default 0.05). */
  pathCheckCell?: number;
  /** Skip the path-existence search (start and goal are still checked). */
  skipPathCheck?: boolean;
  /** Allow parameters outside the release's ranges. */
  allowOutOfRange?: boolean;
  start?: Readonly<Vec2>;
  goal?: Readonly<Vec2>;
}

export interface GeneratedEnvironment {
  family: EnvironmentFamily;
  parameter: number;
  index: number;
  seed: number;
  /** `SceneMaze_Dims10_0` etc. */
  name: string;
  /** `SceneMaze_Dims10_0Obstacles.txt` etc. */
  fileName: string;
  polygons: Polygon[];
  /** Draws it took (1 when the first one passed). */
  attempts: number;
}

function draw(family: EnvironmentFamily, parameter: number, rng: Rng): Polygon[] {
  switch (family) {
    case "maze":
      return generateMaze(parameter, rng);
    case "random":
      return generateRandomObstacles(parameter, rng);
    case "rings":
      return generateRings(parameter, rng);
    case "waves":
      return generateWaves(parameter, rng);
  }
}

function round6(polygons: Polygon[]): Polygon[] {
  return polygons.map((p) => p.map((v) => Number(v.toFixed(6)) + 0));
}

/**
 * One environment of `family` with the given parameter, deterministic in (family, parameter,
 * index, seed). Throws when `maxAttempts` draws all fail the start/goal or path checks.
 */
export function generateEnvironment(family: EnvironmentFamily, parameter: number, index: number, seed: number, options: GenerateEnvironmentOptions = {}): GeneratedEnvironment {
  checkFamily(family);
  const [lo, hi] = ENVIRONMENT_FAMILIES[family].range;
  if (!options.allowOutOfRange && (parameter < lo || parameter > hi)) {
    throw new RangeError(`${family} parameter ${parameter} is outside the release's range ${lo}..${hi} (set allowOutOfRange)`);
  }
  const name = environmentName(family, parameter, index);
  const start = options.start ?? PATHEVAL_START;
  const goal = options.goal ?? PATHEVAL_GOAL;
  const r = options.clearRadius ?? 1.5;
  const margin = options.startGoalMargin ?? 0.25;
  const maxAttempts = options.maxAttempts ?? 200;
  const base = seedFromString(name, seed >>> 0);
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const polygons = round6(draw(family, parameter, createRng(deriveSeed(base, attempt))));
    const index_ = new ObstacleIndex(polygons);
    if (pointClearance(index_, start[0], start[1]) < r + margin || pointClearance(index_, goal[0], goal[1]) < r + margin) continue;
    if (!options.skipPathCheck && !pathExists(index_, r, start, goal, { cell: options.pathCheckCell })) continue;
    return { family, parameter, index, seed, name, fileName: `${name}Obstacles.txt`, polygons, attempts: attempt + 1 };
  }
  throw new Error(`${name} (seed ${seed}): no draw in ${maxAttempts} kept the start and goal free with a path for radius ${r}`);
}

/** `generateEnvironment` then `formatEnvironment`: the file's text. */
export function generateEnvironmentText(family: EnvironmentFamily, parameter: number, index: number, seed: number, options: GenerateEnvironmentOptions = {}): string {
  return formatEnvironment(generateEnvironment(family, parameter, index, seed, options).polygons);
}
