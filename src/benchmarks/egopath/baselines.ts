import { createRng, seedFromString } from "../../stats/rng.js";
import { distinctDisplayed, RANDOM_ROUTE_MAX_STEPS } from "./route-chance.js";
import { stepLength } from "./score.js";
import type { EgoPathItem, RouteItem } from "./types.js";

/**
 * Built-in models that answer from the item itself. They reply with the same JSON object the
 * official runner asks real models for, so their text goes through the same reading as a model's.
 */
const reply = (ids: readonly bigint[]) => JSON.stringify({ display_ids: ids.map(Number) });

function referenceAnswer(item: EgoPathItem): bigint[] {
  return item.kind === "set" ? item.positives : item.referenceRoute;
}

/** A random walk along legal steps from the start, 1-4 steps long. */
function randomWalk(item: RouteItem, seed: number): bigint[] {
  const rng = createRng(seedFromString(item.id, seed));
  const route = [item.startId];
  const steps = 1 + rng.below(4);
  for (let i = 0; i < steps; i++) {
    const next = legalNext(item, route[route.length - 1]!);
    if (next.length === 0) break;
    route.push(next[rng.below(next.length)]!);
  }
  return route;
}

/**
 * The label-free route guess: the start (the prompt states it), then 1-4 displayed ids, each drawn
 * uniformly from the displayed ids other than the one just before it. It reads neither the legal
 * steps, nor the goals, nor the reference: its expected SR is the route chance (route-chance.ts).
 */
function randomIdRoute(item: RouteItem, seed: number): bigint[] {
  const rng = createRng(seedFromString(item.id, seed));
  const ids = distinctDisplayed(item);
  const route = [item.startId];
  const steps = 1 + rng.below(RANDOM_ROUTE_MAX_STEPS);
  for (let i = 0; i < steps; i++) {
    const previous = route[route.length - 1]!;
    const choices = ids.filter((id) => id !== previous);
    if (choices.length === 0) break;
    route.push(choices[rng.below(choices.length)]!);
  }
  return route;
}

/** Where one legal step from `from` leads: the sidecar's listed ids, or (legacy graph rows) the displayed ids one graph edge away. */
function legalNext(item: RouteItem, from: bigint): bigint[] {
  if (!item.displayToGraph) return [...(item.adjacency.get(from)?.keys() ?? [])];
  return item.displayed.filter((to) => stepLength(item, from, to) !== undefined);
}

function randomSubset(ids: readonly bigint[], id: string, seed: number): bigint[] {
  const rng = createRng(seedFromString(id, seed));
  return ids.filter(() => rng.next() < 0.5);
}

/** Straight from the start to the acceptable goal nearest in the image, ignoring legality. */
function directToGoal(item: RouteItem): bigint[] {
  const pos = new Map(item.waypoints.map((w) => [BigInt(w.displayId), w.imageXY]));
  const start = pos.get(item.startId);
  const distance = (id: bigint) => {
    const p = pos.get(id);
    return start && p ? Math.hypot(p[0] - start[0], p[1] - start[1]) : Infinity;
  };
  const goals = [...item.acceptableGoals].sort((a, b) => distance(a) - distance(b));
  return goals.length > 0 ? [item.startId, goals[0]!] : [item.startId];
}

export const egopathBaselines: Record<string, { describe: string; reply: (item: EgoPathItem, seed: number) => string }> = {
  oracle: {
    describe: "the reference answer (walkable ids; the reference shortest route)",
    reply: (item) => reply(referenceAnswer(item)),
  },
  random: {
    describe: "each candidate with probability 1/2; a random legal walk of 1-4 steps from the start (seeded)",
    reply: (item, seed) => reply(item.kind === "set" ? randomSubset(item.candidates, item.id, seed) : randomWalk(item, seed)),
  },
  "random-route": {
    describe: "each candidate with probability 1/2; routes: the start, then 1-4 displayed ids drawn uniformly (never the id just before), blind to legal steps and goals: the label-free route chance (seeded)",
    reply: (item, seed) => reply(item.kind === "set" ? randomSubset(item.candidates, item.id, seed) : randomIdRoute(item, seed)),
  },
  "all-ids": {
    describe: "every displayed id (for routes: the start, then every other id in display order)",
    reply: (item) =>
      reply(item.kind === "set" ? item.candidates : [item.startId, ...item.displayed.filter((id) => id !== item.startId)]),
  },
  none: {
    describe: "an empty answer (traversability BA = 0.5, the chance level of the EgoPath Score)",
    reply: () => reply([]),
  },
  "direct-to-goal": {
    describe: "routes: start then the nearest acceptable goal in one step, ignoring legality (uses the ground-truth goals); sets: every id",
    reply: (item) => reply(item.kind === "set" ? item.candidates : directToGoal(item)),
  },
};
