import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { storedRows } from "../helpers/store-rows.js";
import { startMockServer, type MockRequest, type MockServer } from "../helpers/mock-server.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DATA = path.join(ROOT, "examples/vcn-mini");

/** The mock model's policy: FORWARD until the prompt says four actions were taken, then STOP; frame 3 named throughout. */
function navReply(req: MockRequest): string {
  const text = req.texts.join("\n");
  const taken = /Your four views now, after (\d+) of at most/.exec(text);
  const step = taken ? Number(taken[1]) : -1;
  return JSON.stringify({ frame: 3, action: step >= 4 ? "STOP" : "FORWARD" });
}

let server: MockServer;
before(async () => {
  server = await startMockServer({ latencyMs: 60, strict: true, recordRequests: true, reply: navReply });
});
after(() => server.close());

function navigate(out: string, extra: string[] = []): ChildProcess {
  const args = ["bin/spatialprobe.js", "navigate", "vcn", "--data", DATA, "--model", "openai:mock-nav", "--base-url", `${server.url}/v1`,
    "--limit", "3", "--history", "2", "--prior-frames", "10", "--concurrency", "2", "--out", out, "--quiet", ...extra];
  return spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: "sk-navigate-test" }, stdio: ["ignore", "pipe", "pipe"] });
}

function finished(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let stderr = "";
  let stdout = "";
  child.stderr!.on("data", (d) => (stderr += d));
  child.stdout!.on("data", (d) => (stdout += d));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })));
}


const records = (out: string) => readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
/** A record without what depends on when it ran. */
const stable = (r: any) => ({ ...r, wall_ms: 0, decisions: r.decisions.map((d: any) => ({ ...d, cached: undefined, latency_ms: undefined })) });
const scoresOf = (out: string) => {
  const { created_at, usage, ...rest } = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  return rest;
};

/**
 * The uninterrupted run (3 episodes, concurrency 2), made once: the first test checks it, and the
 * resume test compares the killed and resumed run with it. The requests it made and what the mock
 * saw of them are taken when it ends.
 */
let uninterrupted: Promise<{ out: string; run: Awaited<ReturnType<typeof finished>>; asked: number; imageCounts: number[]; texts: string[] }> | undefined;
function uninterruptedRun() {
  uninterrupted ??= (async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-nav-"));
    const before = server.stats.requests;
    const run = await finished(navigate(out));
    const asked = server.stats.requests - before;
    const seen = server.stats.seen.slice(-asked);
    return { out, run, asked, imageCounts: seen.map((r) => r.imageCount), texts: seen.map((r) => r.texts.join("\n")) };
  })();
  return uninterrupted;
}

test("a model behind the mock OpenAI server (strict rules) completes episodes: every decision asked once, read, and logged", async () => {
  const { out, run, asked, imageCounts, texts } = await uninterruptedRun();
  assert.equal(run.code, 0, run.stderr);
  assert.equal(server.stats.rejected.length, 0, JSON.stringify(server.stats.rejected[0]));
  const list = records(out);
  assert.equal(list.length, 3);
  for (const r of list) {
    assert.equal(r.status, "done");
    assert.equal(r.end, "stop");
    // Four FORWARDs (blocked ones count too), then STOP: five decisions, five actions.
    assert.deepEqual(r.steps.map((s: any) => s.action), ["FORWARD", "FORWARD", "FORWARD", "FORWARD", "STOP"]);
    assert.equal(r.decisions.length, 5);
    for (const d of r.decisions) {
      assert.equal(d.reading.ok, true);
      assert.equal(d.goal_frame, 3);
      assert.match(d.request_key, /^[0-9a-f]{64}$/);
    }
    // The views the model decided on are saved (after every action but the final STOP).
    assert.ok(r.steps.slice(0, -1).every((s: any) => typeof s.views === "string"), "the views the model saw are saved");
    assert.equal(r.steps[r.steps.length - 1].views, undefined);
  }
  assert.equal(asked, 15);
  // Images per request: 10 prior frames + 4 initial + 4 current views + their 4 depth pictures (the
  // default observation, §3.1) + the history window's front views (at most 2).
  const ours = imageCounts.sort((a, b) => a - b);
  assert.deepEqual(ours, [22, 22, 22, 23, 23, 23, 24, 24, 24, 24, 24, 24, 24, 24, 24]);
  // Every request states the pose as seen from the start; each episode's first decision is at the start itself.
  assert.equal(texts.filter((t) => t.includes("Your position: 0.00 m ahead of and 0.00 m to the left of where you started")).length, 3);
  assert.ok(texts.every((t) => /Your position: -?\d+\.\d\d m ahead of and -?\d+\.\d\d m to the left .* turned -?\d+ degrees/.test(t)));
  assert.ok(texts.every((t) => t.includes("Depth of the four views now") && t.includes("Right depth:")));
  const scores = scoresOf(out);
  // stdout is a summary as `run` prints (the tables are in report.md): a row per type, then all, then the status.
  const summary = run.stdout.trim().split("\n");
  assert.match(summary[0]!, /^VCN-Bench navigation: openai:/);
  assert.equal(summary.filter((line) => /^\S+ +\d+ {3}SR /.test(line)).length, Object.keys(scores.navigation.by_task).length + 1);
  assert.match(run.stdout, new RegExp(`^all +3 {3}SR +${(100 * scores.navigation.summary.SR).toFixed(1)} {3}SPL +${(100 * scores.navigation.summary.SPL).toFixed(1)} `, "m"));
  assert.match(run.stdout, /^episodes 3\/3 · complete$/m);
  assert.ok(summary.length <= 10, run.stdout);
  assert.equal(scores.settings.observation, "rgbd-pose");
  assert.equal(scores.settings.depth, true);
  assert.equal(scores.complete, true);
  assert.deepEqual(scores.counts, { episodes: 3, done: 3, error: 0, not_run: 0, skipped: 0 });
  assert.equal(scores.kind, "navigation");
});

test("kill -9 in the middle of an episode, then the same command resumes: the same trajectories and scores as the uninterrupted run, no decision asked twice", async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-nav-resume-"));
  const killed = path.join(tmp, "killed");
  // The reference: the first test's uninterrupted run of the same episodes (episodes.jsonl is
  // rewritten in episode order at the end, and its concurrency of 2 changes no trajectory).
  const { out: whole, run: reference } = await uninterruptedRun();
  assert.equal(reference.code, 0, reference.stderr);

  const child = navigate(killed, ["--concurrency", "1"]);
  const exit = finished(child);
  // Seven replies stored: the second episode is under way (five decisions each).
  for (let i = 0; i < 6000 && storedRows(killed) < 7; i++) await new Promise((r) => setTimeout(r, 20));
  child.kill("SIGKILL");
  assert.equal((await exit).signal, "SIGKILL");
  const kept = storedRows(killed);
  assert.ok(kept >= 7 && kept < 15, `kept ${kept}`);

  const before = server.stats.requests;
  const resumed = await finished(navigate(killed, ["--concurrency", "1"]));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(server.stats.requests - before, 15 - kept, "only the decisions not stored are asked");
  assert.deepEqual(records(killed).map(stable), records(whole).map(stable));
  assert.deepEqual(scoresOf(killed), { ...scoresOf(whole), data: scoresOf(killed).data });
});

test("sim serve + navigate --bridge: the oracle through the bridge walks the same trajectories as in process", async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-nav-bridge-"));
  const direct = spawn(process.execPath, ["bin/spatialprobe.js", "navigate", "vcn", "--data", DATA, "--model", "oracle", "--limit", "2", "--out", path.join(tmp, "direct"), "--quiet"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const directDone = finished(direct);
  const server = spawn(process.execPath, ["bin/spatialprobe.js", "sim", "serve", "--data", DATA], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const serverExit = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    let text = "";
    server.stdout!.on("data", (d) => {
      text += d;
      if (text.includes("\n")) resolve(text.split("\n")[0]!);
    });
    server.on("exit", (code) => reject(new Error(`sim serve exited (${code})`)));
  });
  try {
    const { url } = JSON.parse(line);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/?$/);
    const bridged = await finished(spawn(process.execPath, ["bin/spatialprobe.js", "navigate", "vcn", "--data", DATA, "--model", "oracle", "--limit", "2", "--bridge", url, "--out", path.join(tmp, "bridged"), "--quiet"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] }));
    assert.equal(bridged.code, 0, bridged.stderr);
    assert.equal((await directDone).code, 0);
    // The client closed the session: the server exits by itself.
    assert.equal(await serverExit, 0);
    const steps = (out: string) => records(out).map((r: any) => r.steps);
    assert.deepEqual(steps(path.join(tmp, "bridged")), steps(path.join(tmp, "direct")));
    assert.equal(scoresOf(path.join(tmp, "bridged")).navigation.summary.SR, 1);
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
    if (direct.exitCode === null) direct.kill("SIGKILL");
  }
});

test("waypoint mode: a pixel of the front view is walked to by the executor, then STOP; the reply's frame is goal identification; --observation rgb sends the views alone", async () => {
  const waypoint = await startMockServer({ strict: true, recordRequests: true, reply: () => JSON.stringify({ frame: 0, view: "front", pixel: [191, 300], stop: true }) });
  try {
    const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-nav-waypoint-"));
    const args = ["bin/spatialprobe.js", "navigate", "vcn", "--data", DATA, "--model", "openai:mock-nav", "--base-url", `${waypoint.url}/v1`,
      "--limit", "2", "--history", "0", "--prior-frames", "5", "--mode", "waypoint", "--depth", "--observation", "rgb", "--out", out, "--quiet"];
    const run = await finished(spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: "sk-navigate-test" }, stdio: ["ignore", "pipe", "pipe"] }));
    assert.equal(run.code, 0, run.stderr);
    // RGB only: 5 prior frames + 4 initial + 4 current views, no pose text (depth still places the pixel).
    assert.deepEqual(waypoint.stats.seen.map((r) => r.imageCount), [13, 13]);
    assert.ok(waypoint.stats.seen.every((r) => !r.texts.join("\n").includes("Your position")));
    assert.equal(scoresOf(out).settings.observation, "rgb");
    assert.equal(scoresOf(out).settings.depth, true);
    for (const r of records(out)) {
      assert.equal(r.decisions.length, 1);
      const d = r.decisions[0];
      assert.equal(d.kind, "goto");
      assert.equal(d.goto.then, "stop");
      assert.equal(d.reading.rule, "json");
      assert.equal(d.goal_frame, 0);
      assert.equal(typeof d.goal_correct, "boolean");
      assert.equal(r.end, "stop");
      // The point lies straight ahead (the pixel column 191 is the centre), 1.41 / tan of the row's angle away, or nearer when depth says so.
      const [target] = d.goto.targets;
      const start = r.start.position;
      const h = (r.start.heading_deg * Math.PI) / 180;
      const ahead = (target[0] - start[0]) * -Math.sin(h) + (target[2] - start[2]) * -Math.cos(h);
      const side = (target[0] - start[0]) * Math.cos(h) - (target[2] - start[2]) * Math.sin(h);
      assert.ok(ahead > 0 && ahead <= 1.41 / ((300.5 - 192) / 192) + 1e-6, `ahead ${ahead}`);
      assert.ok(Math.abs(side) < 0.01, `side ${side}`);
      // The executor stops within 0.25 m (geodesic) of the point, or of the free point nearest it when the point is on furniture (at most 1 m off).
      const final = r.steps[r.steps.length - 1].position;
      const blocked = r.steps.some((s: any) => s.collided);
      if (!blocked) assert.ok(Math.hypot(final[0] - target[0], final[2] - target[2]) <= 1.25 + 1e-6, `final ${final} target ${target}`);
    }
  } finally {
    await waypoint.close();
  }
});

test("a provider error that persists ends the episode as an error: not scored, the run incomplete (exit 3); --retry-errors asks again and completes it", async () => {
  let failing = true;
  const flaky = await startMockServer({
    strict: true,
    reply: navReply,
    faults: (req) => (failing && req.texts.join("\n").includes("after 2 of at most") ? { type: "status", status: 500 } : undefined),
  });
  try {
    const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-nav-errors-"));
    const args = ["bin/spatialprobe.js", "navigate", "vcn", "--data", DATA, "--model", "openai:mock-nav", "--base-url", `${flaky.url}/v1`,
      "--limit", "2", "--history", "1", "--prior-frames", "5", "--max-attempts", "2", "--out", out, "--quiet"];
    const env = { ...process.env, OPENAI_API_KEY: "sk-navigate-test" };
    const first = await finished(spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] }));
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stderr, /incomplete: 2 episodes ended in provider errors/);
    const errored = records(out);
    assert.deepEqual(errored.map((r: any) => [r.status, r.end, r.steps.length]), [["error", "error", 2], ["error", "error", 2]]);
    assert.equal(errored[0].decisions[2].error.status, 500);
    const scores = scoresOf(out);
    assert.equal(scores.complete, false);
    assert.deepEqual(scores.counts, { episodes: 2, done: 0, error: 2, not_run: 0, skipped: 0 });
    assert.equal(scores.navigation.summary.missing, 2);
    assert.match(readFileSync(path.join(out, "report.md"), "utf8"), /incomplete/);
    failing = false;
    const second = await finished(spawn(process.execPath, [...args, "--retry-errors"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] }));
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(records(out).map((r: any) => [r.status, r.end, r.steps.length]), [["done", "stop", 5], ["done", "stop", 5]]);
    assert.equal(scoresOf(out).complete, true);
  } finally {
    await flaky.close();
  }
});
