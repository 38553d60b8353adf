import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { readReportRuns } from "../../src/report/render.js";
import { csvField, csvTable } from "../../src/report/export/csv.js";
import { tidyCsv, tidyRows } from "../../src/report/export/tidy.js";
import { leaderboard, leaderboardCsv } from "../../src/report/export/leaderboard.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const RUNS = path.join(ROOT, "test/fixtures/report-runs");
const at = (...parts: string[]) => path.join(RUNS, ...parts);

type Json = Record<string, any>;
const json = (file: string): Json => JSON.parse(readFileSync(file, "utf8"));
const scoresOf = (...parts: string[]) => json(at(...parts, "scores.json"));
const itemTasks = (...parts: string[]) => readFileSync(at(...parts, "items.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line).task as string);

/** RFC 4180, read independently of the writer: quoted fields with "" for a quote, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (ch === '"') (quoted = false), i++;
      else (field += ch), i++;
    } else if (ch === '"' && field === "") (quoted = true), i++;
    else if (ch === ",") record.push(field), (field = ""), i++;
    else if (ch === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      (record = []), (field = ""), (i += 2);
    } else if (ch === "\r" || ch === "\n") throw new Error(`a bare line break at ${i}: records end in CRLF`);
    else (field += ch), i++;
  }
  assert.equal(field, "", "the last record ends in CRLF");
  assert.equal(record.length, 0);
  return records;
}

/** Records as objects keyed by the header. */
function parseTable(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  for (const row of rows) assert.equal(row.length, header!.length, `record ${row.join(",")}`);
  return rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i]!])));
}

const num = (cell: string | undefined): number | null => (cell === undefined || cell === "" ? null : Number(cell));

test("csvField: RFC 4180 quoting, CRLF records, formula starts defused, numbers left as numbers", () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('a "b", c'), '"a ""b"", c"');
  assert.equal(csvField("two\nlines"), '"two\nlines"');
  assert.equal(csvField("=1+2"), "'=1+2");
  assert.equal(csvField("+x"), "'+x");
  assert.equal(csvField("-x"), "'-x");
  assert.equal(csvField("@SUM(A1)"), "'@SUM(A1)");
  assert.equal(csvField("\tx"), "'\tx");
  assert.equal(csvField('=a,"b"'), `"'=a,""b"""`);
  assert.equal(csvField(-0.5), "-0.5");
  assert.equal(csvField(0.1 + 0.2), "0.30000000000000004");
  assert.equal(csvField(null), "");
  assert.equal(csvField(Number.NaN), "");
  assert.equal(csvTable(["a", "b"], [["x,y", 1]]), 'a,b\r\n"x,y",1\r\n');
  assert.deepEqual(parseCsv(csvTable(["a", "b"], [['q"', "l1\r\nl2"]])), [["a", "b"], ['q"', "l1\r\nl2"]]);
});

/** The metrics each benchmark's task blocks hold (read off the scores.json definitions; counts such as n, tp, correct are not metrics). */
const EXPECTED_METRICS: Record<string, (task: string) => string[]> = {
  egopath: (task) => (task.endsWith("traversability") ? ["BA", "F1", "precision", "recall", "TNR", "accuracy"] : ["VPR", "SR", "SPL", "valid_id_rate", "SPL_success_only"]),
  vcn: () => ["SR"],
  egotl: (task) => (task === "distance" ? ["MRA", "MRA_strict"] : task === "direction" ? ["accuracy", "accuracy_counted", "no_label_share"] : ["accuracy", "accuracy_counted"]),
  epic: () => ["mean_score"],
  patheval: () => ["accuracy", "official_accuracy"],
};

const ITEM_RUNS: Array<[string, string]> = [
  ["egopath", "oracle"], ["egopath", "random"], ["egopath", "partial"], ["vcn", "oracle"], ["vcn", "random"],
  ["egotl", "random"], ["egotl", "formula"], ["epic", "random"], ["patheval", "random"],
];

test("tidy CSV: every task metric of every run, with its interval, N and N total, equal to scores.json and items.jsonl", () => {
  const runs = readReportRuns([RUNS]);
  const rows = parseTable(tidyCsv(tidyRows(runs)));
  assert.deepEqual(Object.keys(rows[0]!), ["run", "benchmark", "model", "task", "metric", "value", "ci_low", "ci_high", "n", "n_total", "folder", "created_at"]);
  const labels: Record<string, string> = { "egopath/oracle": "oracle", "egopath/random": "random:1", "egopath/partial": 'partial, "two tasks"', "vcn/oracle": "oracle", "vcn/random": "random:1", "egotl/random": "random:1", "egotl/formula": "'=1+2 @x", "epic/random": "random:1", "patheval/random": "random:1" };
  let checked = 0;
  for (const [benchmark, folder] of ITEM_RUNS) {
    const scores = scoresOf(benchmark, folder);
    const label = labels[`${benchmark}/${folder}`]!;
    const mine = rows.filter((r) => r.benchmark === benchmark && r.run === label);
    const tasks = itemTasks(benchmark, folder);
    // The overall row: score, score_ci, n_scored / n_total.
    const overall = mine.filter((r) => r.task === "overall");
    assert.equal(overall.length, 1, `${benchmark}/${folder} overall`);
    assert.equal(overall[0]!.metric, scores.score_name ?? "score");
    assert.equal(num(overall[0]!.value), scores.score);
    assert.equal(num(overall[0]!.ci_low), scores.score_ci?.[0] ?? null);
    assert.equal(num(overall[0]!.ci_high), scores.score_ci?.[1] ?? null);
    assert.equal(num(overall[0]!.n), scores.n_scored);
    assert.equal(num(overall[0]!.n_total), tasks.length);
    const expected = Object.entries(scores.tasks as Record<string, Json>).flatMap(([task, block]) => EXPECTED_METRICS[benchmark]!(task).map((metric) => ({ task, metric, block })));
    assert.equal(mine.length, 1 + expected.length, `${benchmark}/${folder}: one row per task metric`);
    for (const { task, metric, block } of expected) {
      const row = mine.find((r) => r.task === task && r.metric === metric);
      assert.ok(row, `${benchmark}/${folder} ${task} ${metric}`);
      assert.equal(row.model, scores.model);
      assert.equal(num(row.value), block[metric]);
      assert.equal(num(row.ci_low), block.ci?.[metric]?.[0] ?? null, `${task} ${metric} ci`);
      assert.equal(num(row.ci_high), block.ci?.[metric]?.[1] ?? null);
      // accuracy_counted is over every question (EgoTL definitions); the rest over the scored ones.
      assert.equal(num(row.n), metric === "accuracy_counted" ? block.n : block.n_scored ?? block.n ?? block.total_processed);
      assert.equal(num(row.n_total), tasks.filter((t) => t === task || t === block.code).length, `${task} n_total`);
      checked++;
    }
  }
  assert.ok(checked > 60, `${checked} metric rows checked`);
  // The repeats, two levels down: each repeat its own run, each row its repeat's scores.json.
  for (const k of [1, 2]) {
    const scores = scoresOf("repeats", "epic-rep", `repeat-${k}`);
    const row = rows.find((r) => r.run === `random:1 · repeat ${k}/2` && r.task === "overall")!;
    assert.equal(num(row.value), scores.score);
  }
});

test("tidy CSV: a navigation run gives its pooled and per-type metrics, RSR over the episodes with a room", () => {
  const rows = parseTable(tidyCsv(tidyRows(readReportRuns([at("navigation", "forward")]))));
  const scores = scoresOf("navigation", "forward");
  const metrics = ["SR", "SPL", "soft_SPL", "SSR", "RSR", "DTG", "steps", "collisions"];
  const blocks: Array<[string, Json]> = [["overall", scores.navigation.summary], ...Object.entries(scores.navigation.by_task as Record<string, Json>)];
  assert.equal(rows.length, blocks.length * metrics.length);
  for (const [task, block] of blocks) {
    for (const metric of metrics) {
      const row = rows.find((r) => r.task === task && r.metric === metric)!;
      assert.equal(row.benchmark, "vcn-navigation");
      assert.equal(row.run, "forward-only");
      assert.equal(num(row.value), block[metric], `${task} ${metric}`);
      assert.equal(num(row.n), metric === "RSR" ? block.rsr_n : block.n);
      assert.equal(num(row.n_total), task === "overall" ? scores.counts.episodes : null);
    }
  }
});

test("leaderboard CSV: one row per run label, each benchmark's score as in scores.json, empty where it does not cover its tasks", () => {
  const board = parseTable(leaderboardCsv(leaderboard(readReportRuns([RUNS]).map((r) => r.scores))));
  const row = (run: string) => board.find((r) => r.run === run)!;
  assert.deepEqual(board.map((r) => r.run), ["oracle", 'partial, "two tasks"', "random:1", "'=1+2 @x", "random:1 · mean of 2 repeats"]);
  const oracle = row("oracle");
  for (const [benchmark, folder] of [["egopath", "oracle"], ["vcn", "oracle"]] as const) {
    const s = scoresOf(benchmark, folder);
    assert.equal(num(oracle[benchmark]), s.score);
    assert.equal(num(oracle[`${benchmark}_ci_low`]), s.score_ci[0]);
    assert.equal(num(oracle[`${benchmark}_ci_high`]), s.score_ci[1]);
    assert.equal(num(oracle[`${benchmark}_n`]), s.n_scored);
    assert.equal(num(oracle[`${benchmark}_n_total`]), s.n_total);
  }
  assert.equal(oracle.epic, "");
  const random = row("random:1");
  for (const benchmark of ["egopath", "vcn", "egotl", "epic", "patheval"]) assert.equal(num(random[benchmark]), scoresOf(benchmark, "random").score, benchmark);
  // score null, 2 of 5 tasks: no value, the counts still there.
  const partial = row('partial, "two tasks"');
  assert.equal(partial.egopath, "");
  assert.equal(num(partial.egopath_n), scoresOf("egopath", "partial").n_scored);
  // The repeated run: the mean of its two repeats' scores.
  const [r1, r2] = [1, 2].map((k) => scoresOf("repeats", "epic-rep", `repeat-${k}`).score as number);
  assert.equal(num(row("random:1 · mean of 2 repeats").epic), (r1! + r2!) / 2);
  assert.equal(row("random:1 · mean of 2 repeats").epic_ci_low, "");
});
