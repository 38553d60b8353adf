import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { markdownReport, readScores } from "../../src/report/render.js";
import { booktabs, latexEscape, markdownBlocks, markdownToLatex, tableCells } from "../../src/report/export/latex.js";
import { leaderboard, leaderboardLatex, leaderboardMarkdown } from "../../src/report/export/leaderboard.js";
import { latexExport, markdownExport } from "../../src/report/export/formats.js";
import { table } from "../../src/report/markdown.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const RUNS = path.join(ROOT, "test/fixtures/report-runs");
type Json = Record<string, any>;
const scoresOf = (...parts: string[]): Json => JSON.parse(readFileSync(path.join(RUNS, ...parts, "scores.json"), "utf8"));

/** The escapes latexEscape writes, undone (test-side, longest first). */
const UNESCAPE: Array<[string, string]> = [
  ["\\textbackslash{}", "\\"], ["\\textasciitilde{}", "~"], ["\\textasciicircum{}", "^"], ["\\textless{}", "<"], ["\\textgreater{}", ">"], ["\\textbar{}", "|"],
  ["\\ensuremath{\\cdot}", "·"], ["\\ensuremath{\\geq}", "≥"], ["\\ensuremath{\\leq}", "≤"], ["\\ensuremath{\\pm}", "±"], ["\\ensuremath{\\times}", "×"], ["\\ensuremath{-}", "−"],
  ["\\ldots{}", "…"], ["{[}", "["], ["{]}", "]"], ["---", "—"], ["--", "–"],
  ["\\dag{}", "†"], ["\\ddag{}", "‡"], ["\\S{}", "§"], ["\\ensuremath{\\varepsilon}", "ε"], ["\\ensuremath{\\Delta}", "Δ"], ["\\ensuremath{\\delta}", "δ"],
  ["\\ensuremath{\\sigma}", "σ"], ["\\ensuremath{\\mu}", "μ"], ["\\ensuremath{\\leftrightarrow}", "↔"], ["\\ensuremath{\\rightarrow}", "→"], ["\\ensuremath{\\leftarrow}", "←"],
  ["\\ensuremath{\\neg}", "¬"], ["\\ensuremath{\\approx}", "≈"], ["\\ensuremath{\\neq}", "≠"], ["\\ensuremath{\\infty}", "∞"], ["\\ensuremath{^2}", "²"], ["\\ensuremath{^\\circ}", "°"],
  ["\\{", "{"], ["\\}", "}"], ["\\$", "$"], ["\\&", "&"], ["\\%", "%"], ["\\#", "#"], ["\\_", "_"],
];
function unlatex(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; ) {
    const hit = UNESCAPE.find(([from]) => text.startsWith(from, i));
    if (hit) (out += hit[1]), (i += hit[0].length);
    else (out += text[i]), i++;
  }
  return out;
}

interface ParsedLatexTable { caption: string; header: string[]; rows: string[][]; lines: string[] }

/** Each table or longtable environment: caption, header and body rows split on " & " and the closing "\\". */
function latexTables(latex: string): ParsedLatexTable[] {
  const cells = (line: string) => {
    assert.ok(line.endsWith(" \\\\"), line);
    return line.slice(0, -3).split(" & ").map((c) => unlatex(c));
  };
  return latex.split(/\\begin\{(?=table\}|longtable\})/).slice(1).map((chunk) => {
    const long = chunk.startsWith("longtable}");
    const lines = chunk.slice(0, chunk.indexOf(long ? "\\end{longtable}" : "\\end{table}")).split("\n");
    const captionLine = lines.find((l) => l.startsWith("\\caption{"))!;
    const caption = unlatex(captionLine.slice("\\caption{".length, captionLine.indexOf("}\\label{") >= 0 ? captionLine.indexOf("}\\label{") : captionLine.length - 1));
    const top = lines.indexOf("\\toprule");
    const mid = lines.indexOf("\\midrule");
    assert.ok(top > 0 && mid === top + 2, "\\toprule, header, \\midrule");
    if (long) {
      // Header again for the following pages, then the foot, then the body.
      assert.deepEqual(lines.slice(top, mid + 1), lines.slice(lines.indexOf("\\endfirsthead") + 1, lines.indexOf("\\endhead")));
      assert.deepEqual(lines.slice(lines.indexOf("\\endhead") + 1, lines.indexOf("\\endfoot")), ["\\bottomrule"]);
      return { caption, header: cells(lines[top + 1]!), rows: lines.slice(lines.indexOf("\\endfoot") + 1).filter((l) => l !== "").map(cells), lines };
    }
    const bottom = lines.indexOf("\\bottomrule");
    assert.ok(bottom > mid, "body, \\bottomrule");
    return { caption, header: cells(lines[top + 1]!), rows: lines.slice(mid + 1, bottom).map(cells), lines };
  });
}

/** A Markdown table line's cells (test-side: unescaped pipes separate, "\X" is X). */
function mdCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  const inner = line.slice(1, line.lastIndexOf("|"));
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "\\") cell += inner[++i];
    else if (inner[i] === "|") cells.push(cell.trim()), (cell = "");
    else cell += inner[i];
  }
  cells.push(cell.trim());
  return cells;
}

/** Every Markdown table: header and body rows. */
function mdTables(markdown: string): Array<{ header: string[]; rows: string[][] }> {
  const tables: Array<{ header: string[]; rows: string[][] }> = [];
  let current: { header: string[]; rows: string[][] } | null = null;
  for (const line of markdown.split("\n")) {
    if (!line.startsWith("|")) {
      current = null;
      continue;
    }
    if (!current) tables.push((current = { header: mdCells(line), rows: [] }));
    else if (!mdCells(line).every((cell) => cell === "---")) current.rows.push(mdCells(line));
  }
  return tables;
}

test("latexEscape: LaTeX's special characters, brackets and the Unicode signs pdfLaTeX lacks", () => {
  assert.equal(latexEscape("a_b & 50% #1 $x$ {y} ~ ^ \\"), "a\\_b \\& 50\\% \\#1 \\$x\\$ \\{y\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}");
  assert.equal(latexEscape("[5.8, 11.7]"), "{[}5.8, 11.7{]}");
  assert.equal(latexEscape("<a|b>"), "\\textless{}a\\textbar{}b\\textgreater{}");
  assert.equal(latexEscape("— (2 of 5 tasks) – ≥3 · −0.5"), "--- (2 of 5 tasks) -- \\ensuremath{\\geq}3 \\ensuremath{\\cdot} \\ensuremath{-}0.5");
  assert.equal(latexEscape("two\nlines"), "two lines");
  // The signs the report prints (blind-rule dagger, PathEval's epsilon and delta, arrows) as LaTeX;
  // anything else outside ASCII as its code point, so the output is ASCII only.
  assert.equal(latexEscape("46.7 † ε=0.1 Δ 2 ↔ ¬ § λ"), "46.7 \\dag{} \\ensuremath{\\varepsilon}=0.1 \\ensuremath{\\Delta} 2 \\ensuremath{\\leftrightarrow} \\ensuremath{\\neg} \\S{} {[}U+03BB{]}");
});

test("booktabs: rules, header, body, caption and label; shrunk to the line when wider; a longtable past 30 rows", () => {
  const small = booktabs({ caption: "A & B", label: "ab", header: ["Run", "Score"], rows: [["m_1", "72.3"], ["m2", "— (1 of 2 tasks)"]] });
  assert.equal(small, [
    "\\begin{table}[htbp]", "\\centering", "\\caption{A \\& B}", "\\label{tab:spatialprobe-ab}",
    "\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%", "\\begin{tabular}{lr}", "\\toprule",
    "Run & Score \\\\", "\\midrule", "m\\_1 & 72.3 \\\\", "m2 & --- (1 of 2 tasks) \\\\", "\\bottomrule", "\\end{tabular}%", "}", "\\end{table}",
  ].join("\n"));
  const rows = Array.from({ length: 31 }, (_, i) => [`r${i}`, String(i)]);
  const long = booktabs({ caption: "Long", label: "long", header: ["Row", "N"], rows, notes: ["a note"] });
  assert.ok(long.startsWith("% a note\n\\begin{longtable}{lr}\n\\caption{Long}\\label{tab:spatialprobe-long}\\\\\n"));
  const parsed = latexTables(long)[0]!;
  assert.deepEqual(parsed.rows, rows);
  assert.equal(latexTables(booktabs({ caption: "c", label: "c", header: ["Row", "N"], rows: rows.slice(0, 30) }))[0]!.lines[0], "table}[htbp]");
});

test("tableCells and markdownBlocks read table() output back, escapes and empty cells included", () => {
  const md = table(["Run", "Note"], [["a|b", "x\\y *z*"], ["", "[1, 2]"]]);
  assert.deepEqual(markdownBlocks(`## Head\n\nSome text:\n\n${md}\n`), [
    { kind: "heading", level: 2, text: "Head" },
    { kind: "text", text: "Some text:" },
    { kind: "table", header: ["Run", "Note"], rows: [["a|b", "x\\y *z*"], ["", "[1, 2]"]] },
  ]);
  assert.deepEqual(tableCells("| a | \\| | c |"), ["a", "|", "c"]);
});

test("LaTeX of the report: one booktabs table per Markdown table, the same cells, captioned by section and heading", () => {
  const runs = readScores([RUNS]);
  const markdown = markdownReport(runs);
  const expected = mdTables(markdown);
  const latex = latexTables(markdownToLatex(markdown));
  assert.equal(latex.length, expected.length);
  assert.ok(latex.length >= 20, `${latex.length} tables`);
  latex.forEach((t, i) => {
    assert.deepEqual(t.header, expected[i]!.header, t.caption);
    assert.deepEqual(t.rows, expected[i]!.rows.map((row) => [...row, ...Array(Math.max(0, expected[i]!.header.length - row.length)).fill("")]), t.caption);
  });
  // Captions: the benchmark's section, then its heading (and a lead-in line ending in ":").
  const captions = latex.map((t) => t.caption);
  assert.equal(captions[0], "EgoPathBench");
  const sections = ["EgoPathBench", "EgoTL-Bench", "EPIC-Bench", "PathEval", "VCN-Bench"];
  assert.ok(captions.every((c) => sections.some((s) => c.startsWith(s))), captions.join("\n"));
  assert.ok(captions.includes("EPIC-Bench: Mean over 2 repeats: random:1"));
  // The intervals as the Markdown prints them: [low, high] in % with one decimal, from scores.json.
  const s = scoresOf("egopath", "random");
  const bracket = (ci: [number, number]) => `[${(100 * ci[0]).toFixed(1)}, ${(100 * ci[1]).toFixed(1)}]`;
  const randomRows = latex.filter((t) => t.caption.startsWith("EgoPathBench")).flatMap((t) => t.rows.filter((row) => row[0] === "random:1"));
  assert.ok(randomRows.some((row) => row.includes(bracket(s.score_ci)) && row.includes(bracket(s.tasks.point_traversability.ci.BA))));
  // No label is defined twice.
  const labels = markdownToLatex(markdown).match(/\\label\{[^}]*\}/g)!;
  assert.equal(new Set(labels).size, labels.length);
});

test("leaderboard in Markdown and LaTeX: each benchmark's score in % as its tables print it, — when it does not cover its tasks, the mean of repeats", () => {
  const runs = readScores([RUNS]);
  const board = leaderboard(runs);
  const md = mdTables(leaderboardMarkdown(board))[0]!;
  const tex = latexTables(leaderboardLatex(board))[0]!;
  assert.deepEqual(tex.header, md.header);
  assert.deepEqual(tex.rows, md.rows);
  assert.deepEqual(md.header, ["Run", "EgoPathBench (EgoPath Score)", "EgoTL-Bench (Avg.)", "EPIC-Bench (Overall)", "PathEval (accuracy)", "VCN-Bench (Avg. SR, mean of types)"]);
  const pct = (v: number) => (100 * v).toFixed(1);
  const row = (label: string) => md.rows.find((r) => r[0] === label)!;
  assert.deepEqual(row("oracle"), ["oracle", pct(scoresOf("egopath", "oracle").score), "", "", "", pct(scoresOf("vcn", "oracle").score)]);
  assert.deepEqual(row("random:1"), ["random:1", ...["egopath", "egotl", "epic", "patheval", "vcn"].map((b) => pct(scoresOf(b, "random").score))]);
  assert.deepEqual(row('partial, "two tasks"'), ['partial, "two tasks"', "— (2 of 5 tasks)", "", "", "", ""]);
  assert.deepEqual(row("=1+2 @x"), ["=1+2 @x", "", pct(scoresOf("egotl", "formula").score), "", "", ""]);
  const mean = (scoresOf("repeats", "epic-rep", "repeat-1").score + scoresOf("repeats", "epic-rep", "repeat-2").score) / 2;
  assert.deepEqual(row("random:1 · mean of 2 repeats"), ["random:1 · mean of 2 repeats", "", "", `${pct(mean)} (mean of 2)`, "", ""]);
  // Navigation runs have no headline score: not a row.
  assert.equal(md.rows.length, 5);
});

test("--table: auto adds the leaderboard only for runs of two or more benchmarks; tables alone are report.md's", () => {
  const one = readScores([path.join(RUNS, "egopath")]);
  assert.equal(markdownExport(one, "auto"), markdownReport(one));
  assert.ok(!latexExport(one, "auto").includes("Leaderboard"));
  assert.ok(markdownExport(one, "all").startsWith("## Leaderboard\n"));
  const all = readScores([RUNS]);
  assert.equal(markdownExport(all, "auto"), `${leaderboardMarkdown(leaderboard(all))}\n\n${markdownReport(all)}`);
  assert.equal(markdownExport(all, "tables"), markdownReport(all));
  assert.equal(markdownExport(all, "leaderboard"), `${leaderboardMarkdown(leaderboard(all))}\n`);
  assert.equal(latexTables(latexExport(all, "leaderboard")).length, 1);
  assert.equal(latexTables(latexExport(all, "auto")).length, 1 + mdTables(markdownReport(all)).length);
});

/** pdflatex on PATH, if any (the LaTeX output is compiled where it is installed). */
const pdflatex = spawnSync("pdflatex", ["--version"], { encoding: "utf8" }).status === 0;

test("the LaTeX of every fixture run compiles with pdfLaTeX (booktabs, graphicx, longtable), without errors", { skip: pdflatex ? false : "pdflatex is not installed" }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-export-latex-"));
  writeFileSync(path.join(dir, "tables.tex"), latexExport(readScores([RUNS]), "all"));
  writeFileSync(path.join(dir, "doc.tex"), "\\documentclass{article}\n\\usepackage{booktabs,graphicx,longtable}\n\\extrafloats{100}\\maxdeadcycles=1000\n\\begin{document}\n\\input{tables.tex}\n\\end{document}\n");
  const run = spawnSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "doc.tex"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
  assert.equal(run.status, 0, run.stdout.split("\n").filter((l) => l.startsWith("!")).join("\n"));
  assert.ok(!/^! /m.test(run.stdout));
  assert.ok(existsSync(path.join(dir, "doc.pdf")));
});

test("leaderboard cells: (s/t) when items are unscored, — when tasks lack predictions, the mean of repeats and what is missing", async () => {
  const { leaderboardCell, repeatedCell } = await import("../../src/report/export/leaderboard.js");
  const doc = (over: Json) => ({ benchmark: "vcn", model: "m", tasks: {}, n: 3, score: 0.5, n_total: 4, n_scored: 3, complete: false, counts: { errors: 1, missing: 0 }, score_coverage: { tasks: ["count", "order"], without_predictions: [] }, ...over }) as never;
  // 3 of 4 items scored, both tasks covered: the value, marked.
  assert.equal(leaderboardCell(doc({})).text, "50.0 (3/4)");
  assert.equal(leaderboardCell(doc({ n_scored: 4, complete: true, counts: {} })).text, "50.0");
  // A task without predictions: no value (the number would average fewer tasks than the benchmark's).
  assert.equal(leaderboardCell(doc({ score_coverage: { tasks: ["count", "order"], without_predictions: ["order"] } })).text, "— (1 of 2 tasks)");
  // Repeats: 0.25 and 0.5 -> 37.5; one of three repeats missing is said.
  const rep = (index: number, score: number) => doc({ score, n_scored: 4, complete: true, counts: {}, repeat: { index, of: 3, group: "/g" } });
  const cell = repeatedCell([rep(1, 0.25), rep(2, 0.5)]);
  assert.equal(cell.score, 0.375);
  assert.equal(cell.text, "37.5 (mean of 2 of 3 repeats)");
  assert.equal(cell.complete, false);
  assert.equal(repeatedCell([rep(1, 0.25), rep(2, 0.5), rep(3, 0.75)]).text, "50.0 (mean of 3)");
});
