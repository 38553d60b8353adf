import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScoresDocument } from "../../src/core/benchmark.js";
import { inlineHtml, markdownToHtml, tableCells } from "../../src/report/markdown-html.js";
import { mdText, table } from "../../src/report/markdown.js";
import { getBenchmark } from "../../src/registry.js";

/** Free text in our Markdown (model names above all) shows as written and adds no markup. */
const HOSTILE = "<script>alert(1)</script> | [x](http://evil) `code` *b* _i_ ~s~ \\ &amp; &\ny";
// By hand: a backslash before each of \ ` * _ ~ [ ] < > |, before an & that starts an entity, and the line break as a space.
const ESCAPED = "\\<script\\>alert(1)\\</script\\> \\| \\[x\\](http://evil) \\`code\\` \\*b\\* \\_i\\_ \\~s\\~ \\\\ \\&amp; & y";
// What a reader should see, as HTML text: the name itself (line break as a space), HTML-escaped.
const AS_HTML = "&lt;script&gt;alert(1)&lt;/script&gt; | [x](http://evil) `code` *b* _i_ ~s~ \\ &amp;amp; &amp; y";

test("mdText: the exact escaped form; plain names are unchanged", () => {
  assert.equal(mdText(HOSTILE), ESCAPED);
  for (const plain of ["oracle", "openai:gpt-4o-mini", "random:1", "direct-to-goal", "uniform chance", "Distance (MRA)"]) assert.equal(mdText(plain), plain);
  assert.equal(mdText("a\r\nb\rc"), "a b c");
});

test("table: every cell escaped, one row per line, the delimiter row ours", () => {
  assert.equal(table(["Model", "A|B"], [[HOSTILE, "1.0"]]), `| Model | A\\|B |\n| --- | --- |\n| ${ESCAPED} | 1.0 |`);
});

test("the HTML conversion reads our escapes back: the name as text, nothing else", () => {
  assert.equal(inlineHtml(ESCAPED), AS_HTML);
  assert.deepEqual(tableCells(`| ${ESCAPED} | 1.0 |`), [ESCAPED, "1.0"]);
  assert.equal(markdownToHtml(`| Model | Score |\n| --- | --- |\n| ${ESCAPED} | 1.0 |`),
    `<table><thead><tr><th>Model</th><th>Score</th></tr></thead><tbody><tr><td>${AS_HTML}</td><td>1.0</td></tr></tbody></table>`);
  assert.equal(markdownToHtml(`### ${ESCAPED}: where routes fail`), `<h4>${AS_HTML}: where routes fail</h4>`);
  assert.equal(markdownToHtml("SPL = `spl_all` (failures count 0)."), "<p>SPL = <code>spl_all</code> (failures count 0).</p>");
});

const doc = (benchmark: string, extra: Record<string, unknown> = {}) =>
  ({ benchmark, model: HOSTILE, n: 1, score: null, tasks: {}, counts: { parse_failures: 0, errors: 0, missing: 0 }, ...extra }) as unknown as ScoresDocument;

test("every benchmark's report.md carries a hostile model name escaped, in tables and headings", () => {
  const cases: Array<[string, ScoresDocument, string[]]> = [
    ["egopath", doc("egopath"), [`| ${ESCAPED} | 1/1 | – |`, `### ${ESCAPED}: where routes fail`]],
    ["patheval", doc("patheval"), [`| ${ESCAPED} | 1/1 |  | – |`, `### ${ESCAPED}: accuracy by scenario (Fig. 3)`]],
    ["epic", doc("epic", { counting_by_targets: [{ targets: "1", n: 1, count_score: 1 }] }), [`| ${ESCAPED} | 1/1 | – |`, `### ${ESCAPED}: counting score by number of ground-truth targets (Fig. 4)`]],
    ["vcn", doc("vcn"), [`| ${ESCAPED} |  | 1/1 | 1 |`]],
    ["egotl", doc("egotl"), [`| ${ESCAPED} | 1/1 | – |`]],
    // A run name and a server's error message are outside text too: the Runs table and its notes escape them.
    ["egopath", doc("egopath", { name: HOSTILE, n_total: 2, n_scored: 0, complete: false, counts: { parse_failures: 0, errors: 2, missing: 0 }, first_error: { id: "q1", kind: "http", message: HOSTILE } }),
      [`| ${ESCAPED} | 0/2 incomplete | – |`, `- ${ESCAPED}: every request failed; the first error, on item q1 (http): ${ESCAPED}`]],
  ];
  for (const [id, scores, expected] of cases) {
    const md = getBenchmark(id).markdown([scores]);
    for (const line of expected) assert.ok(md.split("\n").some((l) => l.startsWith(line)), `${id}: ${line}\n${md}`);
    assert.ok(!md.includes("<script>") && !md.includes("[x](") && !md.includes("\ny |"), id);
    const html = markdownToHtml(md);
    assert.ok(!html.includes("<script"), id);
    assert.ok(html.includes(AS_HTML), id);
  }
});
