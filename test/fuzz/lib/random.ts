/**
 * The fuzz suite's randomness: one fixed seed (SPATIALPROBE_FUZZ_SEED overrides it), from which
 * every random choice is drawn with the project's own seeded generator, so a failing case comes back
 * the same on every run. Bytes a case writes are drawn from the case id, so one case can be run alone.
 */
import { createHash } from "node:crypto";
import { createRng, type Rng } from "../../../src/stats/rng.js";

export const DEFAULT_SEED = 20250725;

/** The suite's seed: SPATIALPROBE_FUZZ_SEED when set, else the fixed default. */
export function suiteSeed(): number {
  const given = process.env["SPATIALPROBE_FUZZ_SEED"];
  const seed = given === undefined ? DEFAULT_SEED : Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`SPATIALPROBE_FUZZ_SEED must be an integer, got ${given}`);
  return seed;
}

/** A generator for one purpose (a seed, a family), drawn from the suite's seed and a label. */
export function rngFor(seed: number, label: string): Rng {
  return createRng(createHash("sha256").update(`${seed}\0${label}`).digest().readUInt32BE(0));
}

/** `n` bytes drawn from `label` (no newline-free promise; callers filter what they must). */
export function seededBytes(label: string, n: number): Buffer {
  const rng = rngFor(0, label);
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = rng.below(256);
  return out;
}
