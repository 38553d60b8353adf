/** Checks shared by the generators' options (`generate <benchmark> --seed --count --set key=value`). */
import { UsageError } from "../core/problems.js";

/** A whole-number `--set key=text` value within [lo, hi]; anything else is a UsageError naming the key. */
export function wholeSetting(key: string, text: string | undefined, lo: number, hi: number): number {
  const v = Number(text);
  if (!Number.isInteger(v) || v < lo || v > hi) throw new UsageError(`--set ${key} must be a whole number from ${lo} to ${hi}, got "${text}"`);
  return v;
}

/** A `--set size=WIDTHxHEIGHT` value, each side a whole number within [lo, hi]. */
export function sizeSetting(text: string, lo: number, hi: number): { width: number; height: number } {
  const m = /^(\d+)x(\d+)$/.exec(text);
  if (!m) throw new UsageError(`--set size must be WIDTHxHEIGHT (e.g. 512x384), got "${text}"`);
  return { width: wholeSetting("size width", m[1]!, lo, hi), height: wholeSetting("size height", m[2]!, lo, hi) };
}

/** A decimal `--set key=text` value (digits, an optional fraction) within [lo, hi]; anything else is a UsageError naming the key. */
export function decimalSetting(key: string, text: string | undefined, lo: number, hi: number): number {
  const v = text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(v >= lo && v <= hi)) throw new UsageError(`--set ${key} must be a number from ${lo} to ${hi}, got "${text}"`);
  return v;
}

/** A generator's seed must be a whole number >= 0 and its size (houses, episodes) a whole number >= 1. */
export function checkSeedAndSize(seed: number, sizeName: string, size: number): void {
  if (!Number.isInteger(seed) || seed < 0) throw new RangeError(`seed must be a whole number (got ${seed})`);
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`${sizeName} must be a whole number (got ${size})`);
}

/** The `spatialprobe generate` command line that makes a set (written into the set's README). */
export function generateCommand(benchmark: string, o: { outDir: string; seed: number; count: number; extra: Record<string, string> }): string {
  const setText = Object.keys(o.extra).length ? ` --set ${Object.entries(o.extra).map(([k, v]) => `${k}=${v}`).join(" ")}` : "";
  return `spatialprobe generate ${benchmark} --out ${o.outDir} --seed ${o.seed} --count ${o.count}${setText}`;
}
