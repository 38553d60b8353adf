/**
 * A --limit run says what it is (issue 30 item 1): scores.json records the limit and the items
 * the asked tasks have, the terminal, report.md and report.html name the run by its limit and show
 * N of the available items, and a run of every item stays unmarked beside it. (The HTML report's
 * progress lines, issue 30 item 10, are checked on the same report.)
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { runCli, ROOT } from "../helpers/cli.js";

const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
/** Questions per task in examples/egopath-mini (rows of each benchmark_evalfix file). */
const PER_TASK = { a1: 7, b1: 7, a2: 14, b2: 14, c: 11 };
const ALL = Object.values(PER_TASK).reduce((a, b) => a + b, 0);

const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

test("run and score with --limit record it, and every table names the run by it", async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-limit-"));
  const full = path.join(root, "full"), limited = path.join(root, "limited"), scored = path.join(root, "scored");
  assert.equal((await runCli(["run", "egopath", "--data", EXAMPLE, "--model", "oracle", "--out", full, "--bootstrap", "0", "--quiet"])).code, 0);
  const run = await runCli(["run", "egopath", "--data", EXAMPLE, "--model", "oracle", "--limit", "3", "--out", limited, "--bootstrap", "0"]);
  assert.equal(run.code, 0, run.stderr);

  assert.equal(json(path.join(full, "scores.json")).limit, undefined);
  const scores = json(path.join(limited, "scores.json"));
  assert.deepEqual(scores.limit, { per_task: 3, n_available: ALL });
  assert.equal(scores.n_total, 15);
  assert.match(run.stdout, new RegExp(`^scored 15 of 15 items · complete \\(limited: first 3 per task, 15 of ${ALL} items\\)$`, "m"));

  // The same limit through `score`, on the full run's predictions.
  const score = await runCli(["score", "egopath", "--data", EXAMPLE, "--predictions", path.join(full, "predictions.jsonl"), "--limit", "2", "--out", scored, "--bootstrap", "0"]);
  assert.equal(score.code, 0, score.stderr);
  assert.deepEqual(json(path.join(scored, "scores.json")).limit, { per_task: 2, n_available: ALL });

  const md = path.join(root, "report.md"), html = path.join(root, "report.html");
  assert.equal((await runCli(["report", full, limited, "--out", md])).code, 0);
  const report = readFileSync(md, "utf8");
  // Leaderboard rows: the full run as it was, the limited one labelled and counted against the whole set.
  assert.match(report, new RegExp(`^\\| oracle \\| ${ALL}/${ALL} \\| 100\\.0 \\|`, "m"));
  assert.match(report, new RegExp(`^\\| oracle \\(limit 3\\) \\| 15/15 of ${ALL} \\(limit 3\\) \\| 100\\.0 \\|`, "m"));
  assert.match(report, new RegExp(`^\\| oracle \\(limit 3\\) \\| oracle \\| release \\| none \\| limit 3 \\| 15/15 \\| complete \\(limited: first 3 per task, 15 of ${ALL} items\\) \\|`, "m"));

  const drawn = await runCli(["report", full, limited, "--format", "html", "--out", html]);
  assert.equal(drawn.code, 0, drawn.stderr);
  // Progress on stderr while the pictures are drawn, at every tenth of the 53 + 15 items.
  const progress = drawn.stderr.split("\n").filter((line) => line.startsWith("drawing pictures: "));
  assert.equal(progress[0], `drawing pictures: 0 of ${ALL + 15} items`);
  assert.equal(progress.at(-1), `drawing pictures: ${ALL + 15} of ${ALL + 15} items`);
  assert.equal(progress.length, 11);
  const page = readFileSync(html, "utf8");
  assert.ok(page.includes("oracle (limit 3)"), "the HTML report labels the limited run");
  assert.ok(page.includes(`complete (limited: first 3 per task, 15 of ${ALL} items)`), "and says what it left out");
});

test("--items (a list or @file) and --sample choose the items, are recorded, and name the run", async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-items-"));
  const ids = ["house_001_v0_a2_00", "house_001_v0_a1_00"];
  const idsOf = (dir: string) => readFileSync(path.join(dir, "items.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line).id as string);
  const base = ["run", "egopath", "--data", EXAMPLE, "--model", "oracle", "--bootstrap", "0", "--quiet"];

  const listed = path.join(root, "listed");
  assert.equal((await runCli([...base, "--items", ids.join(","), "--out", listed])).code, 0);
  assert.deepEqual(idsOf(listed), [...ids].reverse()); // the data's order: a1 before a2
  assert.deepEqual(json(path.join(listed, "scores.json")).selection, { items: 2, n_available: ALL });
  const file = path.join(root, "ids.txt");
  writeFileSync(file, `${ids[0]}\n\n${ids[1]}\n`);
  const fromFile = path.join(root, "from-file");
  assert.equal((await runCli([...base, "--items", `@${file}`, "--out", fromFile])).code, 0);
  assert.deepEqual(idsOf(fromFile), idsOf(listed));

  const unknown = await runCli([...base, "--items", "house_001_v0_a1_00,no_such_item", "--out", path.join(root, "unknown")]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--items: 1 id is not among the asked tasks' items: no_such_item/);

  const sampled = async (seed: string) => {
    const out = path.join(root, `sample-${seed}`);
    assert.equal((await runCli([...base, "--sample", "10", "--sample-seed", seed, "--out", out])).code, 0);
    return out;
  };
  const [a, b, c] = [await sampled("5"), await sampled("5"), await sampled("6")];
  assert.deepEqual(json(path.join(a, "scores.json")).selection, { sample: 10, seed: 5, n_available: ALL });
  assert.equal(new Set(idsOf(a)).size, 10);
  assert.deepEqual(idsOf(b), idsOf(a), "the same seed draws the same items");
  assert.notDeepEqual(idsOf(c), idsOf(a), "another seed draws others");
  const md = path.join(root, "report.md");
  assert.equal((await runCli(["report", a, listed, "--out", md])).code, 0);
  const report = readFileSync(md, "utf8");
  assert.match(report, new RegExp(`^\\| oracle \\(sample 10\\) \\| 10/10 of ${ALL} \\(sample 10\\) \\|`, "m"));
  assert.match(report, new RegExp(`complete \\(limited: a random sample of 10 \\(seed 5\\), 10 of ${ALL} items\\)`));
  assert.match(report, new RegExp(`^\\| oracle \\(items 2\\) \\| 2/2 of ${ALL} \\(items 2\\) \\|`, "m"));
});
