/**
 * What a provider model's requests went through, kept beside the Model (which the core types keep
 * plain): its endpoint list and their counters, and its adaptive concurrency limiter. The runner
 * sets the limiter's cap; scores.json records the summary.
 */
import type { Model } from "../core/types.js";
import type { AdaptiveConcurrency, ConcurrencySummary } from "./concurrency.js";
import type { EndpointPool, EndpointStats } from "./endpoints.js";

export interface ModelTraffic {
  /** The base URLs as shown (keys and URL credentials scrubbed), in the configured order. */
  endpoints: readonly string[];
  /**
   * The base URLs as stores written before the endpoint left the request key hashed them (keys
   * scrubbed, URL credentials kept): hashed for those lookups only, never shown.
   */
  keyEndpoints?: readonly string[];
  pool: EndpointPool;
  /** Undefined when adaptive concurrency is off. */
  concurrency?: AdaptiveConcurrency;
}

/** scores.json `traffic`: per-endpoint counters and the concurrency the run settled on. */
export interface TrafficSummary {
  endpoints: EndpointStats[];
  concurrency?: ConcurrencySummary;
}

const traffic = new WeakMap<Model, ModelTraffic>();

export function registerTraffic(model: Model, t: ModelTraffic): void {
  traffic.set(model, t);
}

export function modelTraffic(model: Model): ModelTraffic | undefined {
  return traffic.get(model);
}

/** The endpoints a model's requests may go to, spelled as old store keys hashed them; undefined for models that are not provider models. */
export function modelEndpoints(model: Model): readonly string[] | undefined {
  const t = traffic.get(model);
  return t?.keyEndpoints ?? t?.endpoints;
}

/** The run's cap (--concurrency) for the model's adaptive limiter, if it has one. */
export function capConcurrency(model: Model, cap: number): void {
  traffic.get(model)?.concurrency?.setCap(cap);
}

export function trafficSummary(model: Model): TrafficSummary | undefined {
  const t = traffic.get(model);
  if (!t) return undefined;
  const concurrency = t.concurrency?.summary();
  return { endpoints: t.pool.stats(), ...(concurrency && { concurrency }) };
}
