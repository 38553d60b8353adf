import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";

/**
 * A run killed while writing its outputs, then `report` on the folder: it reads a whole old or
 * whole new state, or says the files do not belong together. Never a cut file, never silence.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/spatialprobe.js");
const DATA = path.join(ROOT, "examples/egopath-mini");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-atomic-"));
const HOOK = "SPATIALPROBE_TEST_CRASH_BEFORE_RENAME";
const runArgs = (out: string, model: string) => [BIN, "run", "egopath", "--data", DATA, "--model", model, "--out", out, "--bootstrap", "0", "--quiet"];
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...env } });
const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n");

let oracleRun: string;
before(() => {
  oracleRun = tmp();
  assert.equal(cli(runArgs(oracleRun, "oracle")).status, 0);
});

/** The first finished state (model oracle), copied, then a second run (model none) over it. */
function previousState(): string {
  const dir = tmp();
  cpSync(oracleRun, dir, { recursive: true });
  return dir;
}

/** Every file that is there is whole: scores.json and outputs.json parse, every items line parses. */
function assertWhole(dir: string): void {
  for (const name of ["scores.json", "outputs.json"]) if (existsSync(path.join(dir, name))) JSON.parse(readFileSync(path.join(dir, name), "utf8"));
  if (existsSync(path.join(dir, "items.jsonl"))) for (const line of lines(path.join(dir, "items.jsonl"))) JSON.parse(line);
}

// The write order is predictions.jsonl, items.jsonl, report.md, scores.json, outputs.json (src/core/outputs.ts).
// `report` (md) reads scores.json; the html report reads the folder as the viewer does, where
// live.json newer than scores.json means a run in progress (read from live.jsonl, whole here).
const CASES: Array<{ file: string; reportSees: "oracle" | "mismatch"; html: "finished" | "in progress" | "mismatch" }> = [
  { file: "predictions.jsonl", reportSees: "oracle", html: "in progress" }, // nothing the report reads was replaced yet
  { file: "items.jsonl", reportSees: "oracle", html: "in progress" },
  { file: "report.md", reportSees: "mismatch", html: "in progress" }, // new items beside the old scores.json
  { file: "scores.json", reportSees: "mismatch", html: "in progress" },
  { file: "outputs.json", reportSees: "mismatch", html: "mismatch" }, // new scores and items, but the old record of them
];

for (const { file, reportSees, html: htmlSees } of CASES) {
  test(`killed before renaming ${file} into place: report ${reportSees === "oracle" ? "shows the previous run, whole" : "says the files do not belong together"}; the next run recovers`, () => {
    const dir = previousState();
    const killed = cli(runArgs(dir, "none"), { [HOOK]: file });
    assert.equal(killed.signal, "SIGKILL", killed.stderr);
    assertWhole(dir);
    assert.ok(readdirSync(dir).some((name) => name.startsWith(`.${file}.`) && name.endsWith(".tmp")), "the temporary was left, unrenamed");

    const report = cli([BIN, "report", dir]);
    if (reportSees === "oracle") {
      assert.equal(report.status, 0, report.stderr);
      assert.match(report.stdout, /^\| oracle \| 53\/53 \| 100\.0 \|/m);
      assert.equal(sha(path.join(dir, "items.jsonl")), sha(path.join(oracleRun, "items.jsonl")), "items.jsonl is the previous run's, byte for byte");
    } else {
      assert.equal(report.status, 2);
      assert.equal(report.stdout, "");
      assert.ok(report.stderr.startsWith("error: the run folder has problems; nothing was reported:\n"), report.stderr);
      assert.ok(report.stderr.includes(`  - ${path.join(dir, "items.jsonl")}: does not match outputs.json: `), report.stderr);
      if (file === "outputs.json") assert.ok(report.stderr.includes(`  - ${path.join(dir, "scores.json")}: created_at `), report.stderr);
    }
    assert.ok(!/\n\s+at /.test(report.stderr), "no stack trace");
    const htmlFile = path.join(os.tmpdir(), `spatialprobe-atomic-${path.basename(dir)}.html`);
    const html = cli([BIN, "report", dir, "--format", "html", "--out", htmlFile]);
    if (htmlSees === "mismatch") {
      assert.equal(html.status, 2);
      assert.ok(html.stderr.includes(`  - ${path.join(dir, "items.jsonl")}: does not match outputs.json: `), html.stderr);
    } else {
      assert.equal(html.status, 0, html.stderr);
      // Every result reached live.jsonl before the outputs were written.
      const n = lines(path.join(oracleRun, "items.jsonl")).length;
      assert.ok(readFileSync(htmlFile, "utf8").includes(`<span class="live">in progress: ${n} of ${n}</span>`));
    }

    // Running again takes over the dead run's lock, clears its temporaries and writes a whole state.
    const again = cli(runArgs(dir, "none"));
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /^note: taking over the lock of .*: its owner \(pid \d+ on .*\) is no longer running\n$/);
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith(".tmp") || name === ".lock"), []);
    const after = cli([BIN, "report", dir]);
    assert.equal(after.status, 0, after.stderr);
    assert.match(after.stdout, /^\| none \| /m);
  });
}

test("killed before the first scores.json of a fresh folder: report finds no scores.json, not a scores.json beside empty items", () => {
  const dir = tmp();
  assert.equal(cli(runArgs(dir, "oracle"), { [HOOK]: "scores.json" }).signal, "SIGKILL");
  assert.ok(!existsSync(path.join(dir, "scores.json")));
  assert.equal(lines(path.join(dir, "items.jsonl")).length, lines(path.join(oracleRun, "items.jsonl")).length);
  const report = cli([BIN, "report", dir]);
  assert.equal(report.status, 2);
  assert.equal(report.stderr, `error: no scores.json at ${dir}\n`);
});

test("kill -9 at random moments of a run over a finished folder: report reads a consistent state or says why not", async () => {
  // Seeded delays spread over the whole run (about a second), so some land while outputs are written.
  let seed = 20260717;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let trial = 0; trial < 8; trial++) {
    const dir = previousState();
    const child = spawn(process.execPath, runArgs(dir, "none"), { cwd: ROOT, stdio: "ignore" });
    const exit = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    await new Promise((r) => setTimeout(r, 200 + next() * 1200));
    child.kill("SIGKILL");
    await exit;
    assertWhole(dir);
    const report = cli([BIN, "report", dir]);
    if (report.status === 0) {
      // Consistent: the items beside this scores.json are the ones its outputs.json records.
      const record = JSON.parse(readFileSync(path.join(dir, "outputs.json"), "utf8"));
      assert.equal(record.files["items.jsonl"].sha256, sha(path.join(dir, "items.jsonl")), `trial ${trial}`);
      assert.equal(record.scores_created_at, JSON.parse(readFileSync(path.join(dir, "scores.json"), "utf8")).created_at, `trial ${trial}`);
    } else {
      assert.equal(report.status, 2, `trial ${trial}: ${report.stderr}`);
      assert.match(report.stderr, /^error: the run folder has problems; nothing was reported:\n {2}- .*(items\.jsonl: does not match outputs\.json|scores\.json: created_at)/, `trial ${trial}`);
    }
  }
});
