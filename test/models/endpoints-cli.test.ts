/** --base-url lists and base_url lists in a config, through the built CLI (npm test builds dist/ first) against two mocks. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { readConfigFile } from "../../src/core/config.js";
import { UsageError } from "../../src/core/problems.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
const dirs: string[] = [];
let one: MockServer;
let two: MockServer;
before(async () => {
  [one, two] = [await startMockServer(), await startMockServer()];
});
after(async () => {
  await Promise.all([one.close(), two.close()]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-endpoints-"));
  dirs.push(dir);
  return dir;
}

function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/spatialprobe.js"), ...args], { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: "" } });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stderr }));
  });
}

const run = (out: string, ...extra: string[]) =>
  cli(["run", "egopath", "--data", EXAMPLE, "--limit", "2", "--model", "openai:fleet", "--out", out, "--bootstrap", "0", "--quiet", "--concurrency", "1", ...extra]);

test("--base-url a,b and --base-url a --base-url b spread a run's requests over both; the second run asks nothing", async () => {
  const out = tmp();
  const before = one.stats.requests + two.stats.requests;
  const first = await run(out, "--base-url", `${one.url}/v1,${two.url}/v1`);
  assert.equal(first.code, 0, first.stderr);
  const asked = one.stats.requests + two.stats.requests - before;
  assert.ok(asked > 0);
  // One at a time: the round robin alternates, so the two differ by at most one.
  assert.ok(Math.abs(one.stats.requests - two.stats.requests) <= 1, `${one.stats.requests} vs ${two.stats.requests}`);
  const scores = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  assert.equal(scores.endpoint, `${one.url}/v1,${two.url}/v1`);

  // The same folder, the endpoints given the other way: every reply is reused.
  const again = await run(out, "--base-url", `${two.url}/v1`, "--base-url", `${one.url}/v1`);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(one.stats.requests + two.stats.requests - before, asked);
});

test("config base_url: a list of URLs is accepted; an entry that is not a URL is refused by name", () => {
  const dir = tmp();
  const good = path.join(dir, "fleet.yaml");
  writeFileSync(good, "base_url:\n  - http://10.0.0.1:8000/v1\n  - http://10.0.0.2:8000/v1\nadaptive_concurrency: false\n");
  assert.deepEqual(readConfigFile(good), { base_url: ["http://10.0.0.1:8000/v1", "http://10.0.0.2:8000/v1"], adaptive_concurrency: false });
  const bad = path.join(dir, "bad.yaml");
  writeFileSync(bad, "base_url:\n  - http://10.0.0.1:8000/v1\n  - not a url\n");
  assert.throws(() => readConfigFile(bad), (e: unknown) => e instanceof UsageError && /base_url/.test(e.message));
  const empty = path.join(dir, "empty.yaml");
  writeFileSync(empty, "base_url: []\n");
  assert.throws(() => readConfigFile(empty), UsageError);
});
