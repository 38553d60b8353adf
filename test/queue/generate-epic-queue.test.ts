import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { generateQueuedAndLocally } from "./generate-helpers.js";

/**
 * `generate epic --queue` with worker processes: one job per house, whose files carry house-local
 * names; the coordinator numbers the samples over the set (0001, ... across houses) and writes
 * byte for byte the set a local generate writes with the same command.
 */

const ARGS = ["generate", "epic", "--count", "3", "--seed", "7", "--set", "views=1", "size=192x144", "matching=1"];

test("generate epic --queue with 2 workers writes the same bytes as a local generate; a killed worker's house is made again", async () => {
  await generateQueuedAndLocally(ARGS, { benchmark: "epic", jobs: 3, unit: "houses" }, ({ local, run, reference }) => {
    // The set has samples from more than one house, so their numbers run on across houses.
    const houses = new Set(readFileSync(path.join(reference, "construction/samples.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { house: number }).house));
    assert.ok(houses.size >= 2, `samples from houses ${[...houses].join(", ")}`);
    assert.equal(run.stdout, local.stdout);
    // The coordinator prints the local generate's house and task lines.
    const logLines = (stderr: string) => stderr.split("\n").filter((l) => /^(house \d|  \S)/.test(l));
    assert.deepEqual(logLines(run.stderr), logLines(local.stderr));
  });
});
