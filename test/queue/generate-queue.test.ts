import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { generateQueuedAndLocally } from "./generate-helpers.js";
import { cli, exited, freshSchema } from "./helpers.js";

/**
 * `generate egopath --queue` with worker processes: one job per house; the set the coordinator
 * writes is byte for byte the set a local generate writes with the same command (the README
 * records the command, --out included, so both are written at the same path one after the other).
 */

const ARGS = ["generate", "egopath", "--count", "3", "--seed", "5", "--set", "size=256", "views=3"];

test("generate egopath --queue with 2 workers writes the same bytes as a local generate; a killed worker's house is made again", async () => {
  await generateQueuedAndLocally(ARGS, { benchmark: "egopath", jobs: 3, unit: "houses" }, ({ local, run }) => {
    assert.equal(run.stdout, local.stdout);
  });
});

test("generate --queue refuses an unknown benchmark with a clear message, before anything is enqueued", async () => {
  // Every benchmark has a generator and all five split into jobs: what is left to refuse is a name that is none of them.
  const db = await freshSchema();
  try {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-gen-"));
    const run = await exited(cli(["generate", "nope", "--out", path.join(tmp, "p"), "--count", "2", "--queue", db.url]));
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /unknown benchmark "nope" \(available: egopath, patheval, epic, vcn, egotl\)/);
    assert.equal(run.stdout, "");
    const { rows } = await db.pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = $1", [db.schema]);
    assert.equal(Number(rows[0]!.n), 0);
  } finally {
    await db.drop();
  }
});
