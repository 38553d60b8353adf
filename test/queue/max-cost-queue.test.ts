/**
 * --max-cost on a queued run: the coordinator sizes the requests, the workers answer the first
 * `concurrency` items only, the projection from their replies stops the run (exit 4) with the rest
 * held on the queue, and the same command with a higher limit attaches to the run and finishes it:
 * every item asked once in all, the same figures as the local --max-cost test (test/cli/max-cost.test.ts).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import { cli, exited, freshSchema, ROOT, sleep } from "./helpers.js";

const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
const ENV = { OPENAI_API_KEY: "sk-queue-max-cost-0042" };
/** 4019 characters: the mock reports ceil(4019 / 4) = 1005 output tokens for it. */
const REPLY = `{"display_ids":[1]}${" ".repeat(4000)}`;
const OUTPUT_TOKENS = 1005;
const PRICE = 'models:\n  "openai:priced":\n    price: { input_per_mtok: 1, output_per_mtok: 1000 }\n';

let mock: MockServer;
before(async () => {
  mock = await startMockServer({ reply: () => REPLY });
});
after(() => mock.close());

const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-max-cost-"));
/** --limit 2: two questions of each of the five tasks = 10 requests; the budget's first ask is `--concurrency 2` of them. */
const runArgs = (out: string, url: string, ...extra: string[]) => [
  "run", "egopath", "--data", EXAMPLE, "--limit", "2", "--model", "openai:priced", "--out", out, "--base-url", `${mock.url}/v1`,
  "--concurrency", "2", "--bootstrap", "0", "--quiet", "--queue", url, "--no-work", ...extra,
];
const worker = (url: string) => exited(cli(["worker", "--queue", url, "--concurrency", "2", "--lease", "5", "--exit-when-idle"], ENV));

/** Until the budget has released items (a worker told to exit when idle would leave before). */
async function released(pool: import("pg").Pool): Promise<void> {
  for (let i = 0; i < 2400; i++) {
    const { rows } = await pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM work_items WHERE state IN ('pending', 'claimed')").catch(() => ({ rows: [{ n: "0" }] }));
    if (Number(rows[0]!.n) > 0) return;
    await sleep(25);
  }
  throw new Error("no item was released");
}

async function states(pool: import("pg").Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ state: string; n: string }>("SELECT state, COUNT(*) AS n FROM work_items GROUP BY state ORDER BY state");
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

test("run --queue --max-cost: the workers answer the first items, the projection stops the run with the rest held; a higher limit attaches and finishes it", async () => {
  const db = await freshSchema();
  try {
    const config = path.join(tmp, "run.yaml");
    // Output tokens dominate: 10 replies x 1005 tokens at $1000 per million = $10.05.
    writeFileSync(config, PRICE);
    const start = mock.stats.requests;
    const out = path.join(tmp, "queued");

    // The coordinator waits for the first 2 items; a worker answers them and, the rest being held, leaves.
    const coordinator = exited(cli(runArgs(out, db.url, "--config", config, "--max-cost", "1"), ENV));
    await released(db.pool);
    const first = worker(db.url);
    const stopped = await coordinator;
    assert.equal(stopped.code, 4, stopped.stderr);
    const match = /^projected cost \$(\d+\.\d\d) exceeds --max-cost \$1\.00 after 2 items; answered items are stored, nothing is lost$/m.exec(stopped.stderr);
    assert.ok(match, stopped.stderr);
    assert.ok(Number(match[1]) >= 10.05 && Number(match[1]) < 10.07, match[1]);
    assert.equal((await first).code, 0);
    assert.equal(mock.stats.requests - start, 2);
    assert.deepEqual(await states(db.pool), { done: 2, held: 8 });
    assert.equal(existsSync(path.join(out, "scores.json")), false);

    // status shows the held items in their own column.
    const status = await exited(cli(["status", "--queue", db.url]));
    assert.equal(status.code, 0, status.stderr);
    const [header, row] = status.stdout.split("\n");
    assert.match(header!, /pending\s+held\s+errors/);
    assert.match(row!, /egopath\s+openai:priced\s+10\s+2\s+0\s+0\s+8\s+0\s/);

    // The input alone is over a tiny limit: the run is sized, nothing more is released or asked.
    const none = await exited(cli(runArgs(path.join(tmp, "tiny"), db.url, "--config", config, "--max-cost", "0.0001"), ENV));
    assert.equal(none.code, 4, none.stderr);
    assert.match(none.stderr, /exceeds --max-cost \$0\.0001 after 0 items/);
    assert.equal(mock.stats.requests - start, 2);
    assert.deepEqual(await states(db.pool), { done: 2, held: 8 });

    // A higher limit (from the config): the same run (the limit is not in its spec), the 8 others released and asked once each.
    writeFileSync(config, `max_cost: 100\n${PRICE}`);
    const resumedRun = exited(cli(runArgs(out, db.url, "--config", config).filter((a) => a !== "--quiet"), ENV));
    await released(db.pool);
    const second = worker(db.url);
    const resumed = await resumedRun;
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /attached to run [0-9a-f]{16} \(10 items\)/);
    await second;
    assert.equal(mock.stats.requests - start, 10);
    assert.deepEqual(await states(db.pool), { done: 10 });
    const scores = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
    assert.equal(scores.usage.requests, 10);
    assert.equal(scores.usage.output_tokens, 10 * OUTPUT_TOKENS);
    assert.equal(scores.usage.cost.usd, Math.round(scores.usage.input_tokens + 10 * OUTPUT_TOKENS * 1000) / 1_000_000);
  } finally {
    await db.drop();
  }
});
