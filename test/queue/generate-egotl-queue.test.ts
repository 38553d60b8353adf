import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { generateQueuedAndLocally } from "./generate-helpers.js";

/**
 * `generate egotl --queue` with worker processes: one job per rendered episode (the coordinator
 * plans every house and the selection; a worker rebuilds the episode's house and renders it). The
 * set the coordinator writes is byte for byte the set a local generate writes with the same command
 * (the README records the command, --out included, so both are written at the same path one after
 * the other). Two test houses, one episode each: the two jobs come from different houses, so a
 * worker may build house 2 without ever building house 1; a train house is planned, never rendered.
 */

const ARGS = ["generate", "egotl", "--count", "2", "--seed", "6", "--set", "train=1", "episodes=1", "activities=1", "per-task=2", "size=96x72"];

test("generate egotl --queue with 2 workers writes the same bytes as a local generate; a killed worker's episode is rendered again", { timeout: 600_000 }, async () => {
  await generateQueuedAndLocally(ARGS, { benchmark: "egotl", jobs: 2, unit: "episodes" }, ({ local, run, reference, jobs }) => {
    // The episodes the local set rendered, one job each, in name order.
    const episodes = readdirSync(path.join(reference, "episodes")).sort();
    assert.deepEqual(episodes, ["house_001_ep01", "house_002_ep01"]);
    assert.deepEqual(jobs.map((r) => r.item_id), episodes);
    assert.equal(run.stdout, local.stdout);
  });
});
