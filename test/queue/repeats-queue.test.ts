/**
 * `run --repeats 2 --queue`: each repeat is its own queued run (its spec names the repeat, so its
 * store keys are its own), answered by worker processes; repeats.json and every repeat's
 * scores.json equal a local `run --repeats 2` of the same command, and every question is asked
 * once per repeat.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE, exampleItems, replyTable, requestSignature } from "../helpers/egopath-replies.js";
import { cli, exited, freshSchema } from "./helpers.js";

const items = exampleItems();
const table = replyTable(items);
const ENV = { OPENAI_API_KEY: "sk-queue-repeats" };
let server: MockServer;
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-repeats-"));

before(async () => {
  server = await startMockServer({ latencyMs: 20, reply: (req) => table.get(requestSignature(req)) ?? "no match" });
});
after(() => server.close());

const runArgs = (out: string) => ["run", "egopath", "--data", EXAMPLE, "--model", "openai:mock-vlm", "--base-url", `${server.url}/v1`, "--concurrency", "4", "--bootstrap", "200", "--repeats", "2", "--quiet", "--out", out];

/** scores.json without what differs by nature between two runs of one command (when, latencies, who sent the requests, the --out folder). */
function comparableScores(file: string): Record<string, unknown> {
  const { created_at: _t, usage, traffic: _traffic, repeat, ...rest } = JSON.parse(readFileSync(file, "utf8"));
  const { latency_ms: _l, ...tokens } = usage;
  const { group: _g, ...which } = repeat;
  return { ...rest, usage: tokens, repeat: which };
}

test("run --repeats 2 --queue: two queued runs, the same repeats.json and per-repeat scores as a local run", async () => {
  const local = path.join(tmp, "local");
  const before = server.stats.requests;
  const ran = await exited(cli(runArgs(local), ENV));
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(server.stats.requests - before, 2 * items.length);

  const db = await freshSchema();
  try {
    const out = path.join(tmp, "queued");
    const coordinator = exited(cli([...runArgs(out), "--queue", db.url], ENV));
    const helper = cli(["worker", "--queue", db.url, "--concurrency", "2"], ENV);
    const helperExit = exited(helper);
    const run = await coordinator;
    assert.equal(run.code, 0, run.stderr);
    // Each repeat asked its questions once more: its own keys, nothing shared with repeat 1.
    assert.equal(server.stats.requests - before, 4 * items.length);
    const { rows } = await db.pool.query<{ n_items: number; repeat: number }>("SELECT n_items, (spec->>'repeat')::int AS repeat FROM runs ORDER BY repeat");
    assert.deepEqual(rows.map((r) => [r.n_items, r.repeat]), [[items.length, 1], [items.length, 2]]);
    assert.deepEqual(JSON.parse(readFileSync(path.join(out, "repeats.json"), "utf8")), JSON.parse(readFileSync(path.join(local, "repeats.json"), "utf8")));
    for (const k of [1, 2]) {
      assert.deepEqual(comparableScores(path.join(out, `repeat-${k}`, "scores.json")), comparableScores(path.join(local, `repeat-${k}`, "scores.json")));
    }
    // The worker stays for more runs until stopped; a stop is exit 130 (interrupted), its claims given back.
    helper.kill("SIGTERM");
    assert.equal((await helperExit).code, 130);
  } finally {
    await db.drop();
  }
});
