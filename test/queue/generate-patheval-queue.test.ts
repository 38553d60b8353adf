import assert from "node:assert/strict";
import { mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { generateQueuedAndLocally } from "./generate-helpers.js";
import { cli, exited, freshSchema } from "./helpers.js";

/**
 * `generate patheval --queue` with worker processes: one job per environment (its plans and its
 * labelled pairs' pictures); the coordinator draws the split, balance, fine-grained and probing
 * sets across environments. The set is byte for byte the set a local generate writes with the
 * same command at the same path.
 */

const ARGS = ["generate", "patheval", "--count", "3", "--seed", "4", "--set", "runs=6", "balance=true", "probing=6", "test-per-scenario=3", "workers=1"];

/** The summary without its timing line (planning and picture seconds differ from run to run). */
const untimed = (stdout: string) => stdout.split("\n").filter((line) => !/^planning [\d.]+ s, pictures [\d.]+ s$/.test(line)).join("\n");

test("generate patheval --queue with 2 workers writes the same bytes as a local generate; a killed worker's environment is made again", async () => {
  await generateQueuedAndLocally(ARGS, { benchmark: "patheval", jobs: 3, unit: "environments" }, ({ local, run, reference, jobs }) => {
    assert.match(local.stdout, /^planning [\d.]+ s, pictures [\d.]+ s$/m);
    assert.equal(untimed(run.stdout), untimed(local.stdout));
    // One job per environment, named by its file in the set.
    assert.deepEqual(jobs.map((r) => r.item_id).sort(), readdirSync(path.join(reference, "environments")).sort());
  });
});

test("generate patheval --queue refuses study=segments and bad options before anything is enqueued", async () => {
  const db = await freshSchema();
  try {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-patheval-"));
    const study = await exited(cli(["generate", "patheval", "--out", path.join(tmp, "s"), "--set", "study=segments", "--queue", db.url]));
    assert.equal(study.code, 2, study.stderr);
    assert.match(study.stderr, /generate patheval --set study=\.\.\. is one piece of work \(seconds\), not split into jobs: run it without --queue/);
    const bad = await exited(cli(["generate", "patheval", "--out", path.join(tmp, "b"), "--set", "runs=0", "--queue", db.url]));
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /runs must be an integer from 1 to 10000, got "0"/);
    // Nothing reached the server: not even the tables were made.
    const { rows } = await db.pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = $1", [db.schema]);
    assert.equal(Number(rows[0]!.n), 0);
  } finally {
    await db.drop();
  }
});
