import assert from "node:assert/strict";
import { test } from "node:test";
import { EXAMPLE } from "../helpers/egopath-replies.js";
import { enqueueRun, runStatuses } from "../../src/queue/queue.js";
import { ensureSchema } from "../../src/queue/schema.js";
import type { RunSpec } from "../../src/queue/spec.js";
import { cli, exited, freshSchema, queueServerUrl } from "./helpers.js";

/** A bad queue URL or a server that is down is a one-line usage error (exit 2), never a stack trace. */

const cases: Array<{ name: string; args: () => string[]; message: RegExp }> = [
  { name: "not a PostgreSQL URL", args: () => ["status", "--queue", "http://127.0.0.1:5432/x"], message: /^error: --queue must be a PostgreSQL URL \(postgres:\/\/user:password@host:5432\/database\), not http:\/\/\.\.\.$/ },
  { name: "not a URL at all", args: () => ["worker", "--queue", "my-queue"], message: /^error: --queue "my-queue" is not a URL; give postgres:\/\/user:password@host:5432\/database \(scripts\/queue-server.sh prints one\)$/ },
  {
    name: "server down (nothing listens on the port)",
    args: () => ["worker", "--queue", "postgres://spatialprobe:spatialprobe@127.0.0.1:1/spatialprobe", "--exit-when-idle"],
    message: /^error: cannot use the queue server at postgres:\/\/spatialprobe:\*\*\*@127\.0\.0\.1:1\/spatialprobe: connect ECONNREFUSED 127\.0\.0\.1:1 \(start one with scripts\/queue-server\.sh\)$/,
  },
  {
    name: "wrong password (hidden in the message)",
    args: () => ["status", "--queue", queueServerUrl().replace("spatialprobe:spatialprobe@", "spatialprobe:wrong-secret@")],
    message: /^error: cannot use the queue server at postgres:\/\/spatialprobe:\*\*\*@127\.0\.0\.1:5432\/spatialprobe: password authentication failed for user "spatialprobe" \(start one with scripts\/queue-server\.sh\)$/,
  },
  {
    name: "run --queue with a server down",
    args: () => ["run", "egopath", "--data", EXAMPLE, "--model", "openai:mock-vlm", "--base-url", "http://127.0.0.1:9/v1", "--out", "/tmp/spatialprobe-queue-never", "--queue", "postgres://u:p@127.0.0.1:1/db"],
    message: /^error: cannot use the queue server at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db: connect ECONNREFUSED 127\.0\.0\.1:1 /,
  },
  {
    name: "run --queue with a built-in",
    args: () => ["run", "egopath", "--data", EXAMPLE, "--model", "oracle", "--out", "/tmp/spatialprobe-queue-never", "--queue", queueServerUrl()],
    message: /^error: --queue is for provider models \(openai:, anthropic:, gemini:\); built-ins answer locally in no time: run without --queue$/,
  },
];

for (const c of cases) {
  test(`queue error: ${c.name}`, async () => {
    const end = await exited(cli(c.args(), { OPENAI_API_KEY: "sk-x" }));
    assert.equal(end.code, 2, end.stderr);
    const lines = end.stderr.trim().split("\n");
    assert.equal(lines.length, 1, end.stderr);
    assert.match(lines[0]!, c.message);
    assert.doesNotMatch(end.stderr, /wrong-secret|    at /);
  });
}

test("a worker whose machine lacks a run's data says so in one line, gives the item back and leaves the run", async () => {
  const db = await freshSchema();
  try {
    await ensureSchema(db.pool);
    const spec: RunSpec = { version: 1, benchmark: "egopath", benchmarkOptions: {}, data: "/nonexistent/egopath", model: "openai:mock-vlm", settings: {}, promptSource: "release", control: "none", seed: 1, retryErrors: false };
    await enqueueRun(db.pool, "run-elsewhere", spec, ["a", "b", "c"]);
    const end = await exited(cli(["worker", "--queue", db.url, "--exit-when-idle", "--concurrency", "1"], { OPENAI_API_KEY: "sk-x" }));
    assert.equal(end.code, 0, end.stderr);
    const lines = end.stderr.trim().split("\n");
    assert.equal(lines.length, 2, end.stderr);
    assert.match(lines[0]!, /^worker \S+: cannot work on run run-elsewhere: /);
    assert.match(lines[1]!, /^worker \S+: 0 items answered \(0 errors\)$/);
    const [status] = await runStatuses(db.pool);
    assert.deepEqual([status!.done, status!.inFlight, status!.pending], [0, 0, 3]);
    const { rows } = await db.pool.query<{ attempts: number }>("SELECT attempts FROM work_items ORDER BY idx");
    assert.deepEqual(rows.map((r) => r.attempts), [1, 0, 0]);
  } finally {
    await db.drop();
  }
});
