import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cli, exited, freshSchema, sleep, waitForRun, type Exit } from "./helpers.js";

/** Every file under `root`, relative, sorted. */
export function filesOf(root: string, dir = ""): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    return statSync(path.join(root, rel)).isDirectory() ? filesOf(root, rel) : [rel];
  }).sort();
}

export interface QueuedAndLocal {
  local: Exit;
  run: Exit;
  /** The local generate's set. */
  reference: string;
  /** The work items, in job order. */
  jobs: Array<{ item_id: string; state: string; attempts: number }>;
}

/**
 * A generator on the queue against the same command run locally (test/queue/generate-*-queue.test.ts):
 * the local generate first, then `--queue --no-work` with a first worker killed (SIGKILL) while it
 * holds a job and two more workers. Checks what every generator must give: exit codes, the
 * enqueued and final progress lines, every job done, the killed one's job claimed twice and the
 * others once, and every file of the set byte for byte the local one's (the set's README records
 * the command, --out included, so both are written at the same path one after the other).
 */
export async function generateQueuedAndLocally(
  args: readonly string[],
  expected: {
    benchmark: string;
    jobs: number;
    unit: string;
    /**
     * A generator that assembles job by job: the coordinator prints a line matching this for the
     * first jobs while the last one is held back (claimed by no worker until the line is seen).
     */
    assembledBeforeLastJob?: RegExp;
  },
  check: (result: QueuedAndLocal) => void | Promise<void>,
): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `spatialprobe-queue-${expected.benchmark}-`));
  const out = path.join(tmp, "set");
  const db = await freshSchema();
  try {
    const local = await exited(cli([...args, "--out", out]));
    assert.equal(local.code, 0, local.stderr);
    const reference = path.join(tmp, "local");
    renameSync(out, reference);

    const coordinatorProcess = cli([...args, "--out", out, "--queue", db.url, "--no-work"]);
    let coordinatorSaid = "";
    coordinatorProcess.stderr!.on("data", (d) => (coordinatorSaid += d));
    const coordinator = exited(coordinatorProcess);
    const runId = await waitForRun(db.pool);
    const last = expected.jobs - 1;
    // Held as a claim of no live worker, with attempts untouched.
    if (expected.assembledBeforeLastJob) await db.pool.query("UPDATE work_items SET state = 'claimed', claimed_by = 'held-by-test', lease_until = now() + interval '1 hour' WHERE idx = $1", [last]);
    const victim = cli(["worker", "--queue", db.url, "--concurrency", "1", "--lease", "2"]);
    const victimExit = exited(victim);
    for (let i = 0; i < 2400; i++) {
      const { rows } = await db.pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM work_items WHERE state = 'claimed' AND claimed_by <> 'held-by-test'");
      if (Number(rows[0]!.n) > 0) break;
      await sleep(25);
    }
    victim.kill("SIGKILL");
    assert.equal((await victimExit).signal, "SIGKILL");
    // The second worker has slots for 4 items at once: it still makes one job at a time.
    const workers = ["1", "4"].map((slots) => exited(cli(["worker", "--queue", db.url, "--concurrency", slots, "--lease", "20", "--exit-when-idle"])));
    if (expected.assembledBeforeLastJob) {
      for (let i = 0; i < 4800 && !expected.assembledBeforeLastJob.test(coordinatorSaid); i++) await sleep(50);
      assert.match(coordinatorSaid, expected.assembledBeforeLastJob);
      const { rows } = await db.pool.query<{ state: string }>("SELECT state FROM work_items WHERE idx = $1", [last]);
      assert.equal(rows[0]!.state, "claimed");
      await db.pool.query("UPDATE work_items SET state = 'pending', claimed_by = NULL, lease_until = NULL WHERE idx = $1", [last]);
    }
    const run = await coordinator;
    assert.equal(run.code, 0, run.stderr);
    for (const end of await Promise.all(workers)) assert.equal(end.code, 0, end.stderr);
    const n = expected.jobs;
    assert.match(run.stderr, new RegExp(`enqueued run ${runId} \\(${n} ${expected.unit}\\)`));
    assert.match(run.stderr, new RegExp(`${expected.benchmark} generate -\\] ${n}/${n} done · 0 in flight · 0 pending · 0 errors`));
    const { rows: jobs } = await db.pool.query<{ item_id: string; state: string; attempts: number }>("SELECT item_id, state, attempts FROM work_items ORDER BY idx");
    assert.deepEqual(jobs.map((r) => r.state), Array(n).fill("done"));
    assert.deepEqual(jobs.map((r) => r.attempts).sort(), [...Array(n - 1).fill(1), 2]);
    // One job at a time per worker: the claim-to-done spans of a worker's jobs do not overlap.
    const { rows: spans } = await db.pool.query<{ worker: string; started: Date; finished: Date }>("SELECT claimed_by AS worker, started_at AS started, finished_at AS finished FROM work_items ORDER BY started_at");
    for (const [k, span] of spans.entries()) {
      const overlapping = spans.slice(k + 1).filter((later) => later.worker === span.worker && later.started < span.finished);
      assert.deepEqual(overlapping.map((o) => o.started), [], `${span.worker}'s job started at ${span.started.toISOString()} overlaps later ones`);
    }

    assert.deepEqual(filesOf(out), filesOf(reference));
    for (const file of filesOf(reference)) assert.ok(readFileSync(path.join(out, file)).equals(readFileSync(path.join(reference, file))), `${file} differs`);
    await check({ local, run, reference, jobs });
  } finally {
    await db.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
