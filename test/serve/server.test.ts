import assert from "node:assert/strict";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { executeRun } from "../../src/core/session.js";
import { runKey } from "../../src/report/html-report.js";
import { PROMPTS_PENDING, startViewer, type Viewer } from "../../src/serve/server.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const work = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-serve-"));
const runDir = path.join(work, "oracle");
const liveDir = path.join(work, "live");
let viewer: Viewer;
let port: number;

/** A raw HTTP GET: the path is sent exactly as written (no URL normalisation). */
function get(rawPath: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: rawPath, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = "";
      res.setEncoding("latin1");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body, type: String(res.headers["content-type"]) }));
    });
    req.on("error", reject);
    req.end();
  });
}

before(async () => {
  await executeRun({
    benchmark: "egopath", data: path.join(ROOT, "examples/egopath-mini"), out: runDir, model: "oracle", tasks: ["a2"],
    bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, promptSource: "release", control: "none", seed: 1, flags: {}, retryErrors: false,
  });
  // A secret next to the run folder, and a link inside the run folder pointing at it.
  writeFileSync(path.join(work, "secret.txt"), "TOP-SECRET");
  symlinkSync(path.join(work, "secret.txt"), path.join(runDir, "link-out.txt"));
  // A run in progress: its live header and two results so far.
  mkdirSync(liveDir);
  writeFileSync(path.join(liveDir, "live.json"), JSON.stringify({ benchmark: "egopath", model: "oracle", data: path.join(ROOT, "examples/egopath-mini"), prompt_source: "release", benchmark_options: {}, n_total: 20, started_at: "2026-11-30T00:00:00Z" }));
  const lines = readFileSync(path.join(runDir, "items.jsonl"), "utf8").trim().split("\n");
  writeFileSync(path.join(liveDir, "live.jsonl"), `${lines[0]}\n${lines[1]}\n`);
  viewer = await startViewer({ dirs: [runDir, liveDir], port: 0, pollMs: 200 });
  port = Number(new URL(viewer.url).port);
});
after(() => viewer.close());

test("serves run files, and nothing outside the run folders", async () => {
  const scores = await get("/files/0/scores.json");
  assert.equal(scores.status, 200);
  assert.equal(JSON.parse(scores.body).model, "oracle");
  assert.equal((await get("/files/0/report.md")).type, "text/plain; charset=utf-8");
  const attempts = [
    "/files/0/../secret.txt",
    "/files/0/..%2fsecret.txt",
    "/files/0/%2e%2e/secret.txt",
    "/files/0/%2e%2e%2fsecret.txt",
    "/files/0/..%5csecret.txt",
    "/files/0/%2fetc%2fpasswd",
    "/files/0/link-out.txt",
    "/files/0/scores.json%00.png",
    "/files/0/%E0%A4%A",
    "/files/1/../oracle/scores.json",
    "/files/9/scores.json",
    "/../../etc/passwd",
    "/files/0/",
  ];
  for (const attempt of attempts) {
    const response = await get(attempt);
    assert.ok(response.status === 403 || response.status === 404, `${attempt} -> ${response.status}`);
    assert.ok(!response.body.includes("TOP-SECRET") && !response.body.includes("root:"), attempt);
  }
  assert.equal((await get("/files/0/link-out.txt")).status, 403);
  assert.equal((await get("/files/0/..%2fsecret.txt")).status, 403);
});

test("answers only its own host name and only GET", async () => {
  assert.equal((await get("/api/state", { host: "evil.example:80" })).status, 403);
  assert.equal((await get("/api/state", { host: `localhost:${port}` })).status, 200);
  assert.equal((await get("/api/state", {}, "POST")).status, 405);
  const page = await get("/");
  assert.equal(page.status, 200);
  assert.match(page.body, /Content-Security-Policy/);
});

test("state: finished and in-progress runs; the version changes as a live run grows", async () => {
  const first = JSON.parse((await get("/api/state")).body);
  assert.equal(first.runs.length, 2);
  assert.deepEqual(first.runs.map((r: { state: string }) => r.state), ["finished", "in progress"]);
  const finishedLines = readFileSync(path.join(runDir, "items.jsonl"), "utf8").trim().split("\n");
  assert.equal(first.items.filter((i: { run: number }) => i.run === 0).length, finishedLines.length);
  assert.equal(first.items.filter((i: { run: number }) => i.run === 1).length, 2);
  appendFileSync(path.join(liveDir, "live.jsonl"), `${finishedLines[2]}\n{"id": "torn`);
  const second = JSON.parse((await get("/api/state")).body);
  assert.notEqual(second.version, first.version);
  assert.equal(second.runs[1].done, 3); // the torn last line waits for the next read
  const summary = await get("/fragment/summary");
  assert.match(summary.body, /in progress: 3 of 20/);
});

test("a folder of runs: the runs the HTML report finds (--repeats folders a level deeper too), and runs started later appear with the earlier ones keeping their index", async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-serve-tree-"));
  const copyRun = (to: string) => cpSync(runDir, to, { recursive: true, filter: (src) => !src.endsWith("link-out.txt") });
  copyRun(path.join(root, "a"));
  copyRun(path.join(root, "rep", "repeat-1"));
  copyRun(path.join(root, "rep", "repeat-2"));
  const tree = await startViewer({ dirs: [root], port: 0, pollMs: 200 });
  try {
    const state = async () => JSON.parse(await (await fetch(`${tree.url}api/state`)).text()) as { runs: Array<{ index: number; key: string }>; items: Array<{ run: number }> };
    const first = await state();
    assert.equal(first.runs.length, 3);
    copyRun(path.join(root, "0-late")); // sorts first, is shown last
    // The viewer looks for new folders at most once a second.
    let second = await state();
    for (let tries = 0; second.runs.length < 4 && tries < 30; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      second = await state();
    }
    assert.equal(second.runs.length, 4);
    assert.deepEqual(second.runs.map((r) => r.index), [0, 1, 2, 3]);
    // Links name a run by its folder's key, the one report.html gives it, whatever its position.
    assert.deepEqual(second.runs.map((r) => r.key), ["a", "rep/repeat-1", "rep/repeat-2", "0-late"].map((dir) => runKey(path.join(root, dir))));
    const perRun = (s: typeof first, run: number) => s.items.filter((i) => i.run === run).length;
    for (const run of [0, 1, 2]) assert.equal(perRun(second, run), perRun(first, run));
    assert.equal(perRun(second, 3), perRun(first, 0));
    const file = await fetch(`${tree.url}files/3/scores.json`);
    assert.equal(file.status, 200);
  } finally {
    await tree.close();
  }
});

test("the first page does not wait for the prompts: it comes without them under a pending version, and the next state brings them", async () => {
  const quick = await startViewer({ dirs: [runDir], port: 0, pollMs: 200, promptWaitMs: 0 });
  try {
    const html = await (await fetch(quick.url)).text();
    const boot = JSON.parse(/<script type="application\/json" id="sp-data">(.*?)<\/script>/s.exec(html)![1]!) as { version: string; prompts: unknown[]; items: Array<{ prompt: number | null }> };
    assert.ok(boot.version.endsWith(PROMPTS_PENDING), boot.version);
    assert.deepEqual(boot.prompts, []);
    assert.ok(boot.items.length > 0 && boot.items.every((item) => item.prompt === null));
    const state = JSON.parse(await (await fetch(`${quick.url}api/state`)).text()) as typeof boot;
    assert.equal(`${state.version}${PROMPTS_PENDING}`, boot.version);
    assert.ok(state.prompts.length > 0);
    assert.ok(state.items.every((item) => typeof item.prompt === "number"));
  } finally {
    await quick.close();
  }
});
