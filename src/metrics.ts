/** Metrics shared across benchmarks. */
export { clusterBootstrap, quantile, type Interval } from "./stats/bootstrap.js";
export { setMetrics, routeMetrics, egoPathScore } from "./benchmarks/egopath/aggregate.js";
export { pyRound } from "./core/pycompat/round.js";
export { mra, MRA_THRESHOLDS, linspace } from "./stats/mra.js";
