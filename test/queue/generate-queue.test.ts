import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { cli, exited, freshSchema, sleep, waitForRun } from "./helpers.js";

/**
 * `generate egopath --queue` with worker processes: one job per house; the set the coordinator
 * writes is byte for byte the set a local generate writes with the same command (the README
 * records the command, --out included, so both are written at the same path one after the other).
 */

const ARGS = ["generate", "egopath", "--count", "3", "--seed", "5", "--set", "size=256", "views=3"];

function filesOf(root: string, dir = ""): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    return statSync(path.join(root, rel)).isDirectory() ? filesOf(root, rel) : [rel];
  }).sort();
}

test("generate egopath --queue with 2 workers writes the same bytes as a local generate; a killed worker's house is made again", async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-gen-"));
  const out = path.join(tmp, "set");
  const local = await exited(cli([...ARGS, "--out", out]));
  assert.equal(local.code, 0, local.stderr);
  const reference = path.join(tmp, "local");
  renameSync(out, reference);

  const db = await freshSchema();
  try {
    const coordinator = exited(cli([...ARGS, "--out", out, "--queue", db.url, "--no-work"]));
    const runId = await waitForRun(db.pool);
    // A first worker is killed while it holds a house; two others (one joining after the kill) make the rest.
    const victim = cli(["worker", "--queue", db.url, "--concurrency", "1", "--lease", "2"]);
    const victimExit = exited(victim);
    for (let i = 0; i < 2400; i++) {
      const { rows } = await db.pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM work_items WHERE state = 'claimed'");
      if (Number(rows[0]!.n) > 0) break;
      await sleep(25);
    }
    victim.kill("SIGKILL");
    assert.equal((await victimExit).signal, "SIGKILL");
    const workers = [0, 1].map(() => exited(cli(["worker", "--queue", db.url, "--concurrency", "1", "--lease", "20", "--exit-when-idle"])));
    const run = await coordinator;
    assert.equal(run.code, 0, run.stderr);
    for (const end of await Promise.all(workers)) assert.equal(end.code, 0, end.stderr);
    assert.match(run.stderr, new RegExp(`enqueued run ${runId} \\(3 houses\\)`));
    assert.match(run.stderr, /egopath generate -\] 3\/3 done · 0 in flight · 0 pending · 0 errors/);
    assert.equal(run.stdout, local.stdout);
    // Every house done; the one the killed worker held was claimed twice, the others once.
    const { rows } = await db.pool.query<{ state: string; attempts: number }>("SELECT state, attempts FROM work_items ORDER BY idx");
    assert.deepEqual(rows.map((r) => r.state), ["done", "done", "done"]);
    assert.deepEqual(rows.map((r) => r.attempts).sort(), [1, 1, 2]);

    assert.deepEqual(filesOf(out), filesOf(reference));
    for (const file of filesOf(reference)) assert.ok(readFileSync(path.join(out, file)).equals(readFileSync(path.join(reference, file))), `${file} differs`);
  } finally {
    await db.drop();
  }
});

test("generate --queue refuses a generator that does not split into jobs", async () => {
  const db = await freshSchema();
  try {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-gen-"));
    const run = await exited(cli(["generate", "patheval", "--out", path.join(tmp, "p"), "--count", "2", "--queue", db.url]));
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /generate --queue supports egopath; the patheval generator does not split into independent jobs yet/);
  } finally {
    await db.drop();
  }
});
