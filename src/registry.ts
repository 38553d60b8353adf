import type { Benchmark, BenchItem } from "./core/benchmark.js";
import { UsageError } from "./core/problems.js";
import { egopath } from "./benchmarks/egopath/index.js";
import { patheval } from "./benchmarks/patheval/index.js";
import { epic } from "./benchmarks/epic/index.js";
import { vcn } from "./benchmarks/vcn/index.js";
import { egotl } from "./benchmarks/egotl/index.js";

/** Every benchmark the tool knows. Adding one = one folder under benchmarks/ and one line here. */
export const BENCHMARKS: Record<string, Benchmark<BenchItem>> = {
  egopath: egopath as unknown as Benchmark<BenchItem>,
  patheval: patheval as unknown as Benchmark<BenchItem>,
  epic: epic as unknown as Benchmark<BenchItem>,
  vcn: vcn as unknown as Benchmark<BenchItem>,
  egotl: egotl as unknown as Benchmark<BenchItem>,
};

export function getBenchmark(id: string): Benchmark<BenchItem> {
  const benchmark = BENCHMARKS[id];
  if (!benchmark) throw new UsageError(`unknown benchmark "${id}" (available: ${Object.keys(BENCHMARKS).join(", ")})`);
  return benchmark;
}
