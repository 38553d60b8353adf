/**
 * spatialprobe as a library:
 *   import { egopath, metrics, geometry, pycompat, world, sim } from "spatialprobe";
 * Each benchmark namespace exposes its pure functions (load, parse, score, aggregate, prompts).
 */
export * as egopath from "./benchmarks/egopath/index.js";
export * as patheval from "./benchmarks/patheval/index.js";
export * as epic from "./benchmarks/epic/index.js";
export * as vcn from "./benchmarks/vcn/index.js";
export * as egotl from "./benchmarks/egotl/index.js";
export * as metrics from "./metrics.js";
export * as geometry from "./geometry/index.js";
export * as world from "./world/index.js";
export * as sim from "./sim/index.js";
export * as pycompat from "./core/pycompat/index.js";
export type { Answer, Benchmark, BenchItem, ItemResult, ScoresDocument } from "./core/benchmark.js";
export type { Message, Model, ModelRequest, ModelResponse, GenerationSettings } from "./core/types.js";
export { BENCHMARKS, getBenchmark } from "./registry.js";
export { executeRun, executeScore } from "./core/session.js";
export { executeNavigation } from "./benchmarks/vcn/navigate/session.js";
export { createProviderModel } from "./models/provider.js";
