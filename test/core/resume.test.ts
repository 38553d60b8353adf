import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { storedRows } from "../helpers/store-rows.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE, exampleItems, replyTable, requestSignature } from "../helpers/egopath-replies.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const items = exampleItems();
const table = replyTable(items);
let server: MockServer;

before(async () => {
  server = await startMockServer({ latencyMs: 40, reply: (req) => table.get(requestSignature(req)) ?? "no match" });
});
after(() => server.close());

function startRun(out: string): ChildProcess {
  const args = ["bin/spatialprobe.js", "run", "egopath", "--data", EXAMPLE, "--model", "openai:mock-vlm",
    "--base-url", `${server.url}/v1`, "--concurrency", "4", "--out", out, "--bootstrap", "300"];
  return spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: "sk-resume-test" }, stdio: ["ignore", "pipe", "pipe"] });
}

function finished(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  child.stdout!.resume();
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stderr })));
}


async function waitForRows(out: string, n: number): Promise<void> {
  for (let i = 0; i < 600 && storedRows(out) < n; i++) await new Promise((r) => setTimeout(r, 25));
}

/**
 * scores.json without what depends on when it ran: the time, the measured latencies (tokens stay)
 * and the traffic (what this process sent; a resumed run sends only what was missing).
 */
function scoresWithoutTime(out: string) {
  const { created_at, usage, traffic, ...rest } = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  const { latency_ms, ...tokens } = usage ?? {};
  return { ...rest, usage: tokens };
}

function itemIds(out: string): string[] {
  return readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).id);
}

test("kill -9 mid-run, then the same command resumes: same scores, nothing lost, nothing asked twice", async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-resume-"));
  const whole = path.join(tmp, "whole");
  const killed = path.join(tmp, "killed");

  const reference = await finished(startRun(whole));
  assert.equal(reference.code, 0, reference.stderr);

  const child = startRun(killed);
  const exit = finished(child);
  await waitForRows(killed, 25);
  child.kill("SIGKILL");
  const { signal } = await exit;
  assert.equal(signal, "SIGKILL");
  const kept = storedRows(killed);
  assert.ok(kept >= 25 && kept < items.length, `kept ${kept}`);

  const before = server.stats.requests;
  const resumed = await finished(startRun(killed));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(server.stats.requests - before, items.length - kept, "only the missing replies were asked");
  assert.equal(storedRows(killed), items.length);
  const ids = itemIds(killed);
  assert.equal(ids.length, items.length);
  assert.equal(new Set(ids).size, items.length);
  const { data: _a, ...got } = scoresWithoutTime(killed);
  const { data: _b, ...want } = scoresWithoutTime(whole);
  assert.deepEqual(got, want);
});

test("Ctrl-C stops cleanly with exit code 130 and a resume hint", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-sigint-"));
  const child = startRun(out);
  const exit = finished(child);
  await waitForRows(out, 10);
  child.kill("SIGINT");
  const { code, stderr } = await exit;
  assert.equal(code, 130);
  assert.match(stderr, /run the same command again to resume/);
  const resumed = await finished(startRun(out));
  assert.equal(resumed.code, 0);
  assert.equal(itemIds(out).length, items.length);
});
