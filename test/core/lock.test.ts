import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { acquireFolderLock, FolderLockedError, LOCK_FILE } from "../../src/core/lock.js";
import { UsageError } from "../../src/core/problems.js";
import { EXAMPLE, exampleItems } from "../helpers/egopath-replies.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";

/** One writer per run folder: through the built CLI (as users meet it) and the module itself. */
const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/spatialprobe.js");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-lock-"));
const ITEMS = exampleItems().length;
let server: MockServer;

before(async () => {
  // Slow enough (ITEMS replies at 2 in flight, 60 ms each) that two runs started together overlap.
  server = await startMockServer({ latencyMs: 60 });
});
after(() => server.close());

function startRun(out: string): ChildProcess {
  const args = [BIN, "run", "egopath", "--data", EXAMPLE, "--model", "openai:mock-vlm", "--base-url", `${server.url}/v1`,
    "--concurrency", "2", "--out", out, "--bootstrap", "0", "--quiet"];
  return spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: "sk-lock-test" }, stdio: ["ignore", "pipe", "pipe"] });
}

function finished(child: ChildProcess): Promise<{ pid: number; code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  child.stdout!.resume();
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ pid: child.pid!, code, signal, stderr })));
}

/** The pid of a process that has ended (reuse within the test is not a concern). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test("two runs started together on one --out: one proceeds, the other refuses naming the folder and the owner's pid, asking nothing", async () => {
  const out = tmp();
  const before = server.stats.requests;
  const [a, b] = await Promise.all([finished(startRun(out)), finished(startRun(out))]);
  const [winner, loser] = a.code === 0 ? [a, b] : [b, a];
  assert.equal(winner.code, 0, winner.stderr);
  assert.equal(loser.code, 2, loser.stderr);
  assert.ok(loser.stderr.startsWith(`error: ${out} is in use by another spatialprobe process (pid ${winner.pid} on ${os.hostname()}, since `), loser.stderr);
  assert.ok(!/\n\s+at /.test(loser.stderr), "no stack trace");
  assert.equal(server.stats.requests - before, ITEMS, "every question asked once, by the winner only");
  assert.equal(readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").length, ITEMS);
  // The winner's outputs only, and the lock is gone.
  assert.deepEqual(readdirSync(out).sort(), ["items.jsonl", "outputs.json", "predictions.jsonl", "report.md", "responses.sqlite", "scores.json"]);
});

test("a second run while the first holds the lock writes nothing at all", async () => {
  const out = tmp();
  const first = startRun(out);
  const firstDone = finished(first);
  await until(() => existsSync(path.join(out, "live.jsonl")), "the first run to start");
  const listing = readdirSync(out).sort();
  const second = await finished(startRun(out));
  assert.equal(second.code, 2);
  assert.match(second.stderr, new RegExp(`pid ${first.pid} `));
  assert.deepEqual(readdirSync(out).sort(), listing, "the refused run created no file");
  assert.equal((await firstDone).code, 0);
});

test("a stale lock (its process is dead, same host) is taken over with a note on stderr; the dead writer's temporaries go", () => {
  const out = tmp();
  const pid = deadPid();
  writeFileSync(path.join(out, LOCK_FILE), JSON.stringify({ pid, host: os.hostname(), started_at: "2026-01-01T00:00:00.000Z" }));
  writeFileSync(path.join(out, `.items.jsonl.0badc0de.${pid}.tmp`), "{\"id\": \"half");
  const run = spawnSync(process.execPath, [BIN, "run", "egopath", "--data", EXAMPLE, "--model", "oracle", "--out", out, "--bootstrap", "0", "--quiet"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, `note: taking over the lock of ${out}: its owner (pid ${pid} on ${os.hostname()}, since 2026-01-01T00:00:00.000Z) is no longer running\n`);
  assert.deepEqual(readdirSync(out).sort(), ["items.jsonl", "outputs.json", "predictions.jsonl", "report.md", "scores.json"]);
});

test("a lock held by a live process, or by one on another host, refuses; release removes only our own lock", () => {
  const dir = tmp();
  const lock = acquireFolderLock(dir);
  const recorded = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8"));
  assert.equal(recorded.pid, process.pid);
  assert.equal(recorded.host, os.hostname());
  assert.equal(recorded.started_at, lock.owner.started_at);
  assert.throws(() => acquireFolderLock(dir), (error: unknown) => error instanceof FolderLockedError && error instanceof UsageError &&
    error.message === `${dir} is in use by another spatialprobe process (pid ${process.pid} on ${os.hostname()}, since ${lock.owner.started_at}); wait for it to finish, or delete ${path.join(dir, LOCK_FILE)} if that process is not writing this folder`);
  lock.release();
  assert.ok(!existsSync(path.join(dir, LOCK_FILE)));
  lock.release(); // twice is harmless

  const far = tmp();
  writeFileSync(path.join(far, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: "some-other-host", started_at: "x" }));
  assert.throws(() => acquireFolderLock(far, () => assert.fail("no takeover")), /another host: it cannot be checked from here/);

  // A lock replaced by someone else after a takeover is not removed by our release.
  const taken = tmp();
  const ours = acquireFolderLock(taken);
  writeFileSync(path.join(taken, LOCK_FILE), JSON.stringify({ pid: 1, host: os.hostname(), started_at: "y" }));
  ours.release();
  assert.ok(existsSync(path.join(taken, LOCK_FILE)));
});

test("SIGTERM with nobody else handling it releases the lock and still ends the process by the signal", async () => {
  const dir = tmp();
  const script = `import { acquireFolderLock } from ${JSON.stringify(path.join(ROOT, "src/core/lock.ts"))}; acquireFolderLock(${JSON.stringify(dir)}); console.log("locked"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const exit = finished(child);
  await until(() => existsSync(path.join(dir, LOCK_FILE)), "the lock");
  child.kill("SIGTERM");
  const { signal } = await exit;
  assert.equal(signal, "SIGTERM");
  assert.ok(!existsSync(path.join(dir, LOCK_FILE)));
});

test("Ctrl-C on a run: exit 130, the lock released, and the same command resumes", async () => {
  const out = tmp();
  const child = startRun(out);
  const exit = finished(child);
  await until(() => existsSync(path.join(out, "live.jsonl")) && readFileSync(path.join(out, "live.jsonl"), "utf8").split("\n").length > 4, "a few results");
  assert.ok(existsSync(path.join(out, LOCK_FILE)));
  child.kill("SIGINT");
  const { code, stderr } = await exit;
  assert.equal(code, 130, stderr);
  assert.ok(!existsSync(path.join(out, LOCK_FILE)));
  const resumed = await finished(startRun(out));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.ok(!resumed.stderr.includes("taking over"), "nothing stale was left");
  assert.equal(readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").length, ITEMS);
});
