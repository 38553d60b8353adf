/**
 * `spatialprobe run --batch` as a process: killed with SIGKILL after its batch was submitted, the
 * same command polls that batch and finishes without resubmitting; the output says the cost is at
 * the batch price, and stderr shows the batch's progress.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE, replyTable, exampleItems, requestSignature } from "../helpers/egopath-replies.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const KEY = "sk-test-batch-cli-4b1e";
const table = replyTable(exampleItems());
let server: MockServer;
let onPoll: (() => void) | undefined;

before(async () => {
  server = await startMockServer({
    strict: true,
    reply: (req) => table.get(requestSignature(req)) ?? "no match",
    batch: {
      pollsToEnd: 3,
      routeFault: (route) => {
        if (route.startsWith("GET /v1/messages/batches/") && !route.endsWith("/results")) onPoll?.();
        return undefined;
      },
    },
  });
});
after(() => server.close());

/** The built CLI (npm test builds dist/ first; a tsx start costs about a second of CPU more). */
function cli(args: string[], onSpawn?: (child: ChildProcess) => void): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/spatialprobe.js"), ...args], { cwd: ROOT, env: { ...process.env, ANTHROPIC_API_KEY: KEY } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    onSpawn?.(child);
  });
}

test("kill -9 after submitting, then the same command: one batch, no request sent twice, cost at the batch price", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-batch-cli-"));
  const config = path.join(out, "config.yaml");
  writeFileSync(config, "price: { input_per_mtok: 3, output_per_mtok: 15 }\n");
  const args = ["run", "egopath", "--data", EXAMPLE, "--model", "anthropic:claude-sonnet-4-5", "--base-url", server.url, "--config", config, "--out", path.join(out, "run"), "--batch", "--batch-poll", "0.05", "--bootstrap", "100"];

  let child: ChildProcess | undefined;
  onPoll = () => child?.kill("SIGKILL");
  const killed = await cli(args, (c) => (child = c));
  assert.equal(killed.signal, "SIGKILL");
  assert.equal(server.batchStats.created.length, 1);
  const ids = server.batchStats.created[0]!.customIds;

  onPoll = undefined;
  const resumed = await cli(args);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(server.batchStats.created.length, 1);
  for (const id of ids) assert.equal(server.batchStats.submitted.get(id), 1);
  assert.match(resumed.stderr, new RegExp(`resuming 1 batch of anthropic:claude-sonnet-4-5`));
  assert.match(resumed.stderr, new RegExp(`batch ${server.batchStats.created[0]!.id} \\(anthropic:claude-sonnet-4-5\\): ended, results stored for ${ids.length} requests`));
  assert.match(resumed.stdout, /cost at the batch price \(50% of the listed input and output price\)/);
  const scores = JSON.parse(readFileSync(path.join(out, "run", "scores.json"), "utf8"));
  assert.equal(scores.counts.errors, 0);
  assert.deepEqual(scores.usage.cost.price, { input_per_mtok: 1.5, output_per_mtok: 7.5 });
  assert.equal(scores.usage.cost.usd, Math.round(scores.usage.input_tokens * 1.5 + scores.usage.output_tokens * 7.5) / 1_000_000);
});
