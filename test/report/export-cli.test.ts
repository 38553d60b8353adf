import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

/** `spatialprobe report` from the sources, as a user runs it. */
const ROOT = path.resolve(import.meta.dirname, "../..");
const RUNS = path.join(ROOT, "test/fixtures/report-runs");
const cli = (...args: string[]) => spawnSync(process.execPath, [path.join(ROOT, "bin/spatialprobe.js"), "report", ...args], { cwd: ROOT, encoding: "utf8" });
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-export-cli-"));

/** Twelve run folders: eleven item runs (two of them repeats) and one navigation run (see the fixture's README). */
const ITEM_RUNS = 11;

test("report on a folder of runs: md, json, csv and latex read the same runs", () => {
  const md = cli(RUNS);
  assert.equal(md.status, 0, md.stderr);
  assert.equal(md.stderr, "");
  assert.ok(md.stdout.startsWith("## Leaderboard\n"));
  // The leaderboard, then a section per benchmark: five item benchmarks and the navigation runs.
  assert.equal(md.stdout.split("\n").filter((l) => l.startsWith("## ")).length, 1 + 5 + 1);

  const json = cli(RUNS, "--format", "json");
  assert.equal(json.status, 0, json.stderr);
  const docs = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
  assert.equal(docs.length, ITEM_RUNS + 1);
  assert.equal(docs.filter((d) => d["kind"] === "navigation").length, 1);

  const csv = cli(RUNS, "--format", "csv");
  assert.equal(csv.status, 0, csv.stderr);
  const lines = csv.stdout.split("\r\n");
  assert.equal(lines[0], "run,benchmark,model,task,metric,value,ci_low,ci_high,n,n_total,folder,created_at");
  assert.equal(lines.at(-1), "", "ends in CRLF");
  // One overall row per item run, in the order json lists them.
  const overall = lines.filter((l) => l.includes(",overall,") && !l.includes(",vcn-navigation,"));
  assert.equal(overall.length, ITEM_RUNS);
  assert.deepEqual(overall.map((l) => l.split(",").at(-7)), docs.filter((d) => d["kind"] !== "navigation").map((d) => (typeof d["score"] === "number" ? String(d["score"]) : "")));
  // Each row ends with its run's scores.json time, as json lists it.
  assert.deepEqual(overall.map((l) => l.split(",").at(-1)), docs.filter((d) => d["kind"] !== "navigation").map((d) => String(d["created_at"])));

  const board = cli(RUNS, "--format", "csv", "--table", "leaderboard");
  assert.equal(board.status, 0, board.stderr);
  // Five runs, then the audit's chance and best-blind rows (the example sets are audited on the fly).
  const boardRows = board.stdout.split("\r\n").slice(1, -1);
  assert.equal(boardRows.length, 5 + 2, "five leaderboard rows and two audit rows");
  assert.deepEqual(boardRows.slice(5).map((l) => l.split(",")[0]), ["chance", "best blind rule (no picture)"]);

  const out = path.join(tmp(), "tables.tex");
  const latex = cli(RUNS, "--format", "latex", "--out", out);
  assert.equal(latex.status, 0, latex.stderr);
  assert.equal(latex.stdout, `wrote ${out}\n`);
  const tex = readFileSync(out, "utf8");
  assert.equal((tex.match(/\\begin\{(?:table|longtable)\}/g) ?? []).length, md.stdout.split("\n").filter((l) => /^\| ---( \| ---)* \|$/.test(l)).length, "one table environment per Markdown table");
  assert.ok(tex.includes("\\caption{Leaderboard: headline score of each benchmark (\\%)}"));
});

test("report --format html reads the same folder of runs, repeats two levels down included", () => {
  const out = path.join(tmp(), "report.html");
  const html = cli(RUNS, "--format", "html", "--max-size", "0", "--out", out);
  assert.equal(html.status, 0, html.stderr);
  const page = readFileSync(out, "utf8");
  for (const label of ["random:1 · repeat 1/2", "random:1 · repeat 2/2", "forward-only", "=1+2 @x"]) assert.ok(page.includes(label), label);
});

test("report errors: one line on stderr, exit 2, no stack trace", () => {
  const dir = tmp();
  const check = (args: string[], message: string | RegExp) => {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.split("\n").length, 2, `one line: ${r.stderr}`);
    if (typeof message === "string") assert.equal(r.stderr, `error: ${message}\n`);
    else assert.match(r.stderr, message);
    assert.ok(!/\n\s+at /.test(r.stderr), "no stack trace");
  };
  check([path.join(dir, "nowhere")], `no run at ${path.join(dir, "nowhere")}`);
  mkdirSync(path.join(dir, "empty"));
  check([path.join(dir, "empty"), "--format", "csv"], `${path.join(dir, "empty")} is not a run folder and holds none (looked 8 levels down for scores.json)`);
  cpSync(path.join(RUNS, "vcn/random"), path.join(dir, "runs/r"), { recursive: true });
  writeFileSync(path.join(dir, "runs/r/scores.json"), '{"benchmark": "vcn", "model": ');
  check([path.join(dir, "runs"), "--format", "latex"], new RegExp(`^error: ${path.join(dir, "runs/r/scores.json").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: invalid JSON`));
  check([RUNS, "--format", "xml"], 'unknown format "xml" (md, json, csv, latex, html)');
  check([RUNS, "--format", "csv", "--table", "tables"], 'unknown table "tables" for --format csv (tidy, leaderboard)');
  check([RUNS, "--format", "json", "--table", "tidy"], "--table applies to md, latex and csv, not json");
});

test("report --help names every format and table once, with their defaults", () => {
  const help = cli("--help");
  assert.equal(help.status, 0);
  assert.match(help.stdout, /md \| json \| csv \| latex \| html/);
  assert.match(help.stdout, /--table <table>/);
  assert.equal((help.stdout.match(/\(default: "md"\)/g) ?? []).length, 1);
});
