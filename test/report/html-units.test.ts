import assert from "node:assert/strict";
import { test } from "node:test";
import type { ItemResult } from "../../src/core/benchmark.js";
import { pairCounts } from "../../src/report/compare.js";
import { answerText } from "../../src/report/gallery.js";
import { markdownSection, slug } from "../../src/report/markdown-html.js";
import { itemScore, verdictOf } from "../../src/report/outcome.js";
import { tocHtml } from "../../src/report/page.js";

const result = (extra: Partial<ItemResult>): ItemResult => ({ id: "q", task: "t", cluster: "c", status: "scored", answer: { status: "ok", value: 1 }, ...extra });

test("verdicts: a route stage other than success is a failure; the other words keep their meaning", () => {
  assert.deepEqual(["success", "right", "parse", "invalid_id", "wrong_start", "illegal_edge", "wrong_goal", "wrong"].map(verdictOf), ["right", "right", "wrong", "wrong", "wrong", "wrong", "wrong", "wrong"]);
  assert.deepEqual(["partial", "unreadable", "error", "missing", "scored"].map(verdictOf), ["partial", "unreadable", "error", "missing", "scored"]);
});

test("item scores for sorting, by hand", () => {
  // F1 of a set: 2*3 / (2*3 + 1 fp + 2 fn + 1 not displayed) = 6/10.
  assert.equal(itemScore(result({ detail: { kind: "set", tp: 3, fp: 1, fn: 2, invalid: 1 } })), 0.6);
  assert.equal(itemScore(result({ detail: { kind: "set", tp: 0, fp: 0, fn: 0, invalid: 0 } })), 1);
  assert.equal(itemScore(result({ detail: { score: 0.25 } })), 0.25);
  assert.equal(itemScore(result({ detail: { MRA: 0.5 } })), 0.5);
  assert.equal(itemScore(result({ detail: { stage: "wrong_goal" } })), 0);
  assert.equal(itemScore(result({ detail: { correct: true } })), 1);
  assert.equal(itemScore(result({ status: "error" })), null);
  assert.equal(itemScore(result({ answer: { status: "unparseable", value: null } })), null);
});

test("the item view's parsed answer is the value that was scored, not the stored prediction", () => {
  const vcn = result({ answer: { status: "ok", value: { frame: 57, rule: "json" }, stored: '{"frame":57}' } });
  assert.equal(answerText(vcn), '{"frame":57,"rule":"json"}');
  assert.equal(answerText(result({ answer: { status: "ok", value: "Path 2", stored: "Answer: Path 2. Because..." } })), "Path 2");
  assert.equal(answerText(result({ answer: { status: "unparseable", value: null, reason: "no list" } })), "unparseable: no list");
});

test("paired counts: both right, only A, only B, both not right; errors and missing left out; McNemar p by hand", () => {
  const e = (run: number, id: string, verdict: "right" | "wrong" | "partial" | "error" | "missing") => ({ run, id, verdict });
  const entries = [
    e(0, "a", "right"), e(1, "a", "right"),
    e(0, "b", "right"), e(1, "b", "wrong"),
    e(0, "c", "right"), e(1, "c", "partial"), // partial is not right
    e(0, "d", "wrong"), e(1, "d", "right"),
    e(0, "f", "wrong"), e(1, "f", "wrong"),
    e(0, "g", "error"), e(1, "g", "right"),
    e(0, "h", "right"), e(1, "h", "missing"),
    e(0, "only-in-a", "right"),
  ];
  // Discordant pairs: 2 only A, 1 only B: p = 2 * P(X <= 1 | n = 3) = 2 * 4/8 = 1.
  assert.deepEqual(pairCounts(entries, 0, 1), { a: 0, b: 1, bothRight: 1, onlyA: 2, onlyB: 1, bothWrong: 1, notCompared: 2, p: 1 });
  const lopsided = Array.from({ length: 6 }, (_, i) => [e(0, `x${i}`, "right"), e(1, `x${i}`, "wrong")]).flat();
  // 6 only A, 0 only B: p = 2 * 0.5^6 = 1/32.
  assert.equal(pairCounts(lopsided, 0, 1).p, 1 / 32);
});

test("sections: ids for every heading, charts under the first heading, per-run parts folded, a contents list", () => {
  const seen = new Set<string>();
  const md = "## EgoPathBench\n\ntext\n\n### Runs\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n### oracle: where routes fail\n\nstages\n\n### Runs\n";
  const { html, headings } = markdownSection(md, { idPrefix: "egopath", seen, afterFirstHeading: "<div class=\"charts\"></div>", collapsible: (text) => text.startsWith("oracle: ") });
  assert.equal(html, [
    '<h2 id="egopath-egopathbench">EgoPathBench</h2>',
    '<div class="charts"></div>',
    "<p>text</p>",
    '<h3 id="egopath-runs">Runs</h3>',
    "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>",
    '<details class="fold" data-heading="egopath-oracle-where-routes-fail"><summary><h3 id="egopath-oracle-where-routes-fail">oracle: where routes fail</h3></summary>',
    "<p>stages</p>",
    "</details>",
    '<h3 id="egopath-runs-2">Runs</h3>',
  ].join("\n"));
  assert.deepEqual(headings.map((h) => h.id), ["egopath-egopathbench", "egopath-runs", "egopath-oracle-where-routes-fail", "egopath-runs-2"]);
  assert.equal(tocHtml([{ level: 2, text: "Runs", id: "runs-section" }, ...headings]),
    '<nav id="toc" aria-label="Contents"><h2>Contents</h2><ol><li><a href="#runs-section">Runs</a></li><li><a href="#egopath-egopathbench">EgoPathBench</a><ol>' +
    '<li><a href="#egopath-runs">Runs</a></li><li><a href="#egopath-oracle-where-routes-fail">oracle: where routes fail</a></li><li><a href="#egopath-runs-2">Runs</a></li></ol></li></ol></nav>');
  assert.equal(slug("<img src=x> & \"quotes\""), "img-src-x-quotes");
  // Model names in headings stay text, in the heading and in the contents.
  const hostile = markdownSection("### \\<script\\>: where routes fail", { idPrefix: "x", seen: new Set() });
  assert.equal(hostile.html, '<h3 id="x-script-where-routes-fail">&lt;script&gt;: where routes fail</h3>');
  assert.ok(!tocHtml(hostile.headings).includes("<script>"));
});
