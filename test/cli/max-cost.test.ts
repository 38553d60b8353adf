/** --max-cost through the built CLI against the mock: the stop (exit 4), its message, and the resume. */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { runCli, ROOT } from "../helpers/cli.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";

const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
const KEY = "sk-max-cost-test-0077";
/** 4019 characters: the mock reports ceil(4019 / 4) = 1005 output tokens for it. */
const REPLY = `{"display_ids":[1]}${" ".repeat(4000)}`;
const OUTPUT_TOKENS = 1005;

let mock: MockServer;
before(async () => {
  mock = await startMockServer({ reply: () => REPLY });
});
after(() => mock.close());

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-max-cost-"));
/** --limit 2: two questions of each of the five tasks = 10 requests, asked two at a time. */
const run = (out: string, ...extra: string[]) =>
  runCli(
    ["run", "egopath", "--data", EXAMPLE, "--limit", "2", "--model", "openai:priced", "--out", out, "--base-url", `${mock.url}/v1`, "--concurrency", "2", "--bootstrap", "0", "--quiet", ...extra],
    { OPENAI_API_KEY: KEY },
  );

test("over the limit: stops after the first replies with exit 4; a higher limit resumes from the stored replies", async () => {
  const out = tmp();
  const config = path.join(out, "run.yaml");
  // Output tokens dominate: 10 replies x 1005 tokens at $1000 per million = $10.05, input well under a cent.
  writeFileSync(config, 'models:\n  "openai:priced":\n    price: { input_per_mtok: 1, output_per_mtok: 1000 }\n');
  const start = mock.stats.requests;

  const stopped = await run(out, "--config", config, "--max-cost", "1");
  assert.equal(stopped.code, 4, stopped.stderr);
  const match = /^projected cost \$(\d+\.\d\d) exceeds --max-cost \$1\.00 after 2 items; answered items are stored, nothing is lost$/m.exec(stopped.stderr);
  assert.ok(match, stopped.stderr);
  const projected = Number(match[1]);
  assert.ok(projected >= 10.05 && projected < 10.07, String(projected));
  assert.equal(mock.stats.requests - start, 2); // the first `concurrency` requests, then the stop
  assert.equal(existsSync(path.join(out, "scores.json")), false);

  // The input alone is over a tiny limit: nothing is asked at all.
  const none = await run(tmp(), "--config", config, "--max-cost", "0.0001");
  assert.equal(none.code, 4, none.stderr);
  assert.match(none.stderr, /exceeds --max-cost \$0\.0001 after 0 items/);
  assert.equal(mock.stats.requests - start, 2);

  // A higher limit (from the config this time): the 2 stored replies are reused, the other 8 asked.
  writeFileSync(config, 'max_cost: 100\nmodels:\n  "openai:priced":\n    price: { input_per_mtok: 1, output_per_mtok: 1000 }\n');
  const resumed = await run(out, "--config", config);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(mock.stats.requests - start, 10);
  const lines = readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 10);
  assert.equal(lines.filter((l) => l.response.cached).length, 2);
  const scores = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  assert.equal(scores.usage.requests, 10);
  assert.equal(scores.usage.with_usage, 10);
  assert.equal(scores.usage.output_tokens, 10 * OUTPUT_TOKENS);
  assert.deepEqual(scores.usage.cost.price, { input_per_mtok: 1, output_per_mtok: 1000 });
  assert.equal(scores.usage.cost.usd, Math.round(scores.usage.input_tokens + 10 * OUTPUT_TOKENS * 1000) / 1_000_000);
  assert.deepEqual(scores.json_output, { mode: "per-task", tasks: { a1: true, a2: true, b1: true, b2: true, c: true } });
});

test("--max-cost without a price for the model is a usage error (exit 2), before anything is asked", async () => {
  const start = mock.stats.requests;
  const result = await run(tmp(), "--max-cost", "5");
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /--max-cost needs the price of openai:priced: set price: \{ input_per_mtok: <USD>, output_per_mtok: <USD> \} in the config/);
  assert.equal(mock.stats.requests, start);
});
