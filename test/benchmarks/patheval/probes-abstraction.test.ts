import assert from "node:assert/strict";
import { test } from "node:test";
import { scoreProbe, summarizeAbstraction, type AbstractionOutcome } from "../../../src/benchmarks/patheval/probe-score.js";
import type { PathEvalItem } from "../../../src/benchmarks/patheval/types.js";

const item = (scenarioId: number) => ({ id: `abstraction/${scenarioId}`, probe: { kind: "attribute-abstraction", scenarioId } }) as unknown as PathEvalItem;
const shown = { variant: "plain" as const, names: ["Path 1", "Path 2"] as [string, string], flipped: false };
const score = (scenarioId: number, text: string | null) => scoreProbe(item(scenarioId), text, shown) as AbstractionOutcome;

test("Table 12's success: at least one descriptor the scenario needs is chosen (direction not required)", () => {
  // Scenario 1 (Table 7): sharp turns, maximum angle and smoothness, all to be minimised.
  const wrongDirection = score(1, "Path length: smaller\nSmoothness: larger\nMinimum clearance: irrelevant");
  assert.equal(wrongDirection.chose_relevant, true); // smoothness is needed, whatever the direction
  assert.equal(wrongDirection.chose_relevant_with_direction, false);
  const none = score(1, "Minimum clearance: irrelevant\nSmoothness: irrelevant\nSharp turns: does not matter");
  assert.equal(none.chose_relevant, false);
  const right = score(1, "Sharp turns: smaller");
  assert.equal(right.chose_relevant_with_direction, true);
  // Scenario 2: average and minimum clearance and path length, to be maximised; only irrelevant ones chosen.
  const offTarget = score(2, "Smoothness: smaller\nSharp turns: smaller\nMaximum clearance: larger");
  assert.equal(offTarget.chose_relevant, false);
  const unreadable = score(2, null);
  assert.equal(unreadable.chose_relevant, false);

  const summary = summarizeAbstraction([wrongDirection, none, right, offTarget, unreadable]);
  // By hand: successes 2 of 5 (wrongDirection, right); with direction 1 of 5 (right).
  // Chosen per reply: 2 (length, smoothness), 0, 1, 3, 0 -> mean 6 / 5.
  assert.deepEqual(summary.table_12, { at_least_one_relevant: 2 / 5, at_least_one_relevant_with_direction: 1 / 5, scenarios: 5, mean_chosen: 6 / 5 });
});

test("per-descriptor direction accuracy stays beside it", () => {
  const all = score(1, "Minimum clearance: irrelevant\nMaximum clearance: irrelevant\nAverage clearance: irrelevant\nPath length: irrelevant\nSmoothness: smaller\nSharp turns: smaller\nMaximum angle: smaller");
  const summary = summarizeAbstraction([all]);
  assert.equal(summary.accuracy, 1);
  assert.equal(summary.scenarios_all_correct, 1);
  assert.equal(summary.table_12.at_least_one_relevant, 1);
});

test("the paper's list format (App. C.1.3): descriptors named after Answer, up to Explanation", async () => {
  const { parseChosenDescriptors } = await import("../../../src/benchmarks/patheval/probes.js");
  assert.deepEqual(parseChosenDescriptors("**Answer:** Number of Sharp Turns; Maximum Turn Angle; Smoothness.\n**Explanation:** path length does not matter."), ["Smoothness", "Sharp turns", "Maximum angle"]);
  assert.deepEqual(parseChosenDescriptors("Min. clearance; avg clearance"), ["Minimum clearance", "Average clearance"]);
  assert.deepEqual(parseChosenDescriptors("Answer: none of them"), []);
  assert.deepEqual(parseChosenDescriptors(`Answer: ${"x".repeat(5000)} smoothness`), []); // beyond the 4,000 characters read

  const listItem = (scenarioId: number) => ({ id: `abstraction/${scenarioId}`, probe: { kind: "attribute-abstraction", scenarioId, format: "list" } }) as unknown as PathEvalItem;
  // Scenario 3 needs average and maximum clearance and path length (Table 7).
  const hit = scoreProbe(listItem(3), "Answer: Path length; Smoothness", shown) as AbstractionOutcome;
  assert.deepEqual(hit.chosen, ["Path length", "Smoothness"]);
  assert.equal(hit.chose_relevant, true);
  assert.equal(hit.chose_relevant_with_direction, null);
  // Relevance right for: min clearance (not named, not needed), avg/max clearance wrong (needed, not named), length right, smoothness wrong, turns and angle right.
  assert.deepEqual(Object.values(hit.relevanceCorrect), [true, false, false, true, false, true, true]);
  const miss = scoreProbe(listItem(3), "Answer: Smoothness", shown) as AbstractionOutcome;
  const summary = summarizeAbstraction([hit, miss]);
  assert.equal(summary.format, "list");
  assert.equal(summary.accuracy, null);
  assert.deepEqual(summary.table_12, { at_least_one_relevant: 1 / 2, at_least_one_relevant_with_direction: null, scenarios: 2, mean_chosen: 3 / 2 });
});
