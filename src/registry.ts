import type { Benchmark, BenchItem } from "./core/benchmark.js";
import { UsageError } from "./core/problems.js";
import { egopath } from "./benchmarks/egopath/index.js";
import { patheval } from "./benchmarks/patheval/index.js";
import { epic } from "./benchmarks/epic/index.js";
import { vcn } from "./benchmarks/vcn/index.js";
import { egotl } from "./benchmarks/egotl/index.js";

/**
 * Every benchmark the tool knows. Adding one = one folder under benchmarks/ and one line here.
 * Each entry is read when asked for, not when this module loads: reports reach the benchmarks
 * through here, and a benchmark's own modules use the reports', so the two load in a cycle.
 */
export const BENCHMARKS: Record<string, Benchmark<BenchItem>> = {
  get egopath() { return egopath as unknown as Benchmark<BenchItem>; },
  get patheval() { return patheval as unknown as Benchmark<BenchItem>; },
  get epic() { return epic as unknown as Benchmark<BenchItem>; },
  get vcn() { return vcn as unknown as Benchmark<BenchItem>; },
  get egotl() { return egotl as unknown as Benchmark<BenchItem>; },
};

export function getBenchmark(id: string): Benchmark<BenchItem> {
  const benchmark = BENCHMARKS[id];
  if (!benchmark) throw new UsageError(`unknown benchmark "${id}" (available: ${Object.keys(BENCHMARKS).join(", ")})`);
  return benchmark;
}
