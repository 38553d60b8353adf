import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { executeRun } from "../../src/core/session.js";
import { htmlReport, runKey } from "../../src/report/html-report.js";
import { blindReferences } from "../../src/report/blind-rows.js";
import { markdownReport, readScores } from "../../src/report/render.js";
import { mcnemarExact } from "../../src/stats/mcnemar.js";
import { artifact, launchBrowser, openRecordedPage } from "../helpers/browser.js";
import { startMockServer, type MockRequest, type MockServer } from "../helpers/mock-server.js";

/**
 * The self-contained HTML report in Debian's Chromium (issue 15): the table of contents, headings
 * above their charts and every section of report.md, the gallery's order, search and deep links,
 * the item view (prompt sent, reply, parsed value, score detail, tokens, latency, attempts) and the
 * paired comparison. Expected values come from items.jsonl and from what the mock provider received,
 * never from the viewer's own code.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const EGOPATH = path.join(ROOT, "examples/egopath-mini");
const VCN = path.join(ROOT, "test/fixtures/vcn-legacy-mini");
const work = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-html-"));
process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(work, "frames");

const runs = { oracle: path.join(work, "oracle"), random: path.join(work, "random"), mock: path.join(work, "mock"), vcn: path.join(work, "vcn") };
const DIRS = [runs.oracle, runs.random, runs.mock, runs.vcn];
const MOCK_RUN = 2;
const VCN_RUN = 3;
/** What the mock provider received for each reply it wrote: the reply carries its number. */
const received = new Map<number, MockRequest>();
let mock: MockServer;
let browser: Browser;
let reportFile: string;

type Row = { id: string; task: string; status: string; answer?: { status: string; value?: unknown; stored?: unknown }; detail?: Record<string, unknown>; reply?: string; response?: { latency_ms: number; attempts: number; usage?: Record<string, number> } };
const readLines = (file: string): Row[] => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const rowsOf = (dir: string) => readLines(path.join(dir, "items.jsonl"));
const common = { bootstrapResamples: 200, bootstrapSeed: 1, quiet: true, control: "none", seed: 1, retryErrors: false };

before(async () => {
  let n = 0;
  mock = await startMockServer({
    reply: (req) => {
      n++;
      received.set(n, req);
      return `{"display_ids":[1]} #req-${n}!`;
    },
  });
  await executeRun({ ...common, benchmark: "egopath", data: EGOPATH, out: runs.oracle, model: "oracle", promptSource: "release", flags: {} });
  await executeRun({ ...common, benchmark: "egopath", data: EGOPATH, out: runs.random, model: "random:1", promptSource: "release", flags: {} });
  await executeRun({
    ...common, benchmark: "egopath", data: EGOPATH, out: runs.mock, model: "openai:mock-vlm", promptSource: "release",
    flags: { base_url: `${mock.url}/v1`, max_attempts: 1 }, env: { OPENAI_API_KEY: "sk-html-test" },
  });
  await executeRun({ ...common, benchmark: "vcn", data: VCN, out: runs.vcn, model: "random:1", promptSource: "plain", flags: {} });
  const { html } = await htmlReport(DIRS);
  reportFile = path.join(work, "report.html");
  writeFileSync(reportFile, html);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await mock?.close();
});

const openReport = (hash = ""): Promise<{ page: Page; problems: string[] }> => openRecordedPage(browser, `file://${reportFile}${hash}`, "#grid .card");

// ------------------------------------------------------------------ independent readings of items.jsonl

/** Right or not as EgoPathBench and VCN-Bench define it: an exact id set, a route that reaches the success stage, a success flag. */
function verdict(row: Row): "right" | "wrong" | "unreadable" | "error" | "missing" {
  if (row.status === "error") return "error";
  if (!row.answer) return "missing";
  if (row.answer.status !== "ok") return row.answer.status === "missing" ? "missing" : "unreadable";
  const d = row.detail ?? {};
  if (d["kind"] === "set") return d["fp"] === 0 && d["fn"] === 0 && d["invalid"] === 0 ? "right" : "wrong";
  if (typeof d["stage"] === "string") return d["stage"] === "success" ? "right" : "wrong";
  return d["success"] === true ? "right" : "wrong";
}

/** The item's score for sorting: an id set's F1 (ids not displayed count as false positives), else 1 right / 0 wrong, none when unread. */
function score(row: Row): number | null {
  const v = verdict(row);
  if (v === "unreadable" || v === "error" || v === "missing") return null;
  const d = row.detail ?? {};
  if (d["kind"] === "set") {
    const [tp, fp, fn, invalid] = [d["tp"], d["fp"], d["fn"], d["invalid"]] as number[];
    return 2 * tp! + fp! + fn! + invalid! === 0 ? 1 : (2 * tp!) / (2 * tp! + fp! + fn! + invalid!);
  }
  return v === "right" ? 1 : 0;
}

/** Failures first: wrong and unreadable, then errors and missing, then right; lower scores first; then file order. */
function failuresFirst(rows: Row[]): Row[] {
  const rank = (r: Row) => ({ wrong: 0, unreadable: 0, error: 2, missing: 2, right: 4 })[verdict(r)];
  return rows.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || (score(a.r) ?? 2) - (score(b.r) ?? 2) || a.i - b.i).map((x) => x.r);
}

async function cardIds(page: Page): Promise<string[]> {
  // Each card's text is "<outcome> <task> · <id>" then the run's label on its own line.
  return page.locator("#grid .card .meta").evaluateAll((metas) => metas.map((m) => (m.childNodes[1]?.textContent ?? "").split(" · ").slice(1).join(" · ")));
}

// ------------------------------------------------------------------ tests

test("contents: every link lands on a heading, each benchmark's heading is above its charts, every report.md section is there, per-run parts fold", async () => {
  const { page, problems } = await openReport();
  const hrefs = await page.locator("#toc a").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  assert.ok(hrefs.length >= 8);
  for (const href of hrefs) {
    assert.match(href, /^#[a-z0-9-]+$/);
    assert.equal(await page.locator(href).count(), 1, `${href} names one element`);
  }
  // The Markdown report's headings, in order, are the page's section headings (escapes resolved), the audit's chance and blind tables included.
  const scores = readScores(DIRS);
  const markdown = markdownReport(scores, await blindReferences(scores, []));
  const expected = [...markdown.matchAll(/^#{2,3} (.*)$/gm)].map((m) => m[1]!.replace(/\\(.)/g, "$1").replace(/`/g, ""));
  const shown = await page.locator("section.benchmark h2, section.benchmark h3").allTextContents();
  assert.deepEqual(shown, expected);
  const tocTexts = await page.locator("#toc a").allTextContents();
  for (const heading of expected) assert.ok(tocTexts.includes(heading), `${heading} is in the contents`);
  for (const wanted of ["Runs", "Items", "Compare runs"]) assert.ok(tocTexts.includes(wanted));
  // In every benchmark section the heading comes first, then the charts.
  const order = await page.locator("section.benchmark").evaluateAll((sections) => sections.map((s) => {
    const heading = s.querySelector("h2");
    const charts = s.querySelector(".charts");
    return { first: s.firstElementChild?.tagName, chartsAfterHeading: charts ? Boolean(heading!.compareDocumentPosition(charts) & Node.DOCUMENT_POSITION_FOLLOWING) : null };
  }));
  assert.deepEqual(order.map((o) => o.first), ["H2", "H2"]);
  assert.deepEqual(order.map((o) => o.chartsAfterHeading), [true, true]);
  // The per-run diagnostics of the three EgoPathBench runs fold away, closed.
  const folds = await page.locator("section[data-benchmark=egopath] details.fold").evaluateAll((ds) => ds.map((d) => [(d as HTMLDetailsElement).open, d.querySelector("summary")?.textContent]));
  assert.deepEqual(folds, [[false, "oracle: where routes fail"], [false, "random:1: where routes fail"], [false, "openai:mock-vlm: where routes fail"]]);
  await page.locator("#toc a", { hasText: "EgoPathBench" }).first().click();
  assert.equal(await page.evaluate(() => location.hash), "#egopath-egopathbench");
  await page.screenshot({ path: artifact("html-contents.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("gallery: failures first by default, sort by score and by id, search over prompts and replies, coloured badges", async () => {
  const { page, problems } = await openReport();
  const random = rowsOf(runs.random);
  await page.selectOption("#f-run", "1");
  assert.deepEqual(await cardIds(page), failuresFirst(random).slice(0, 48).map((r) => r.id));
  assert.notEqual(verdict(failuresFirst(random)[0]!), "right");

  await page.selectOption("#f-sort", "id");
  assert.deepEqual(await cardIds(page), [...random].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, 48).map((r) => r.id));
  await page.selectOption("#f-sort", "score-desc");
  const byScoreDesc = random.map((r, i) => ({ r, i })).sort((a, b) => (score(b.r) ?? -1) - (score(a.r) ?? -1) || a.i - b.i).map((x) => x.r.id);
  assert.deepEqual(await cardIds(page), byScoreDesc.slice(0, 48));

  // Every outcome's badge has a colour of its own kind (none is the plain grey of an unknown word).
  const backgrounds = await page.locator("#grid .badge").evaluateAll((badges) => [...new Set(badges.map((b) => `${b.textContent}=${getComputedStyle(b).backgroundColor}`))]);
  assert.ok(backgrounds.length >= 2, backgrounds.join(" "));
  for (const entry of backgrounds) assert.ok(!entry.endsWith("rgb(243, 244, 246)"), entry);

  // Search covers the prompt sent: the mock provider saw which requests mention a round body.
  await page.selectOption("#f-sort", "failures");
  await page.selectOption("#f-run", String(MOCK_RUN));
  const sent = [...received.values()];
  const roundBody = sent.filter((req) => `${req.system}\n${req.texts.join("\n")}`.toLowerCase().includes("round body")).length;
  assert.ok(roundBody > 0 && roundBody < sent.length);
  await page.fill("#f-query", "Round Body");
  assert.equal(await page.locator("#page-info").textContent(), `page 1 of ${Math.ceil(roundBody / 48)} · ${roundBody} items`);
  // ... and the replies: each mock reply carries its request's number.
  const withSeven = rowsOf(runs.mock).filter((r) => r.reply?.includes("#req-7!"));
  assert.equal(withSeven.length, 1);
  await page.fill("#f-query", "#req-7!");
  assert.deepEqual(await cardIds(page), [withSeven[0]!.id]);
  assert.deepEqual(problems, []);
  await page.close();
});

test("deep link: #item/<run key>/<id> opens the item, ← and → walk the gallery's order, the link and the hash follow", async () => {
  // The key names the run's folder (runKey), so the link opens the same run wherever it is listed.
  const link = (x: { run: number; row: { id: string } }) => `#item/${runKey(DIRS[x.run]!)}/${encodeURIComponent(x.row.id)}`;
  const all = DIRS.flatMap((dir, run) => rowsOf(dir).map((row, index) => ({ row, run, index })));
  const rank = (x: (typeof all)[number]) => ({ wrong: 0, unreadable: 0, error: 2, missing: 2, right: 4 })[verdict(x.row)];
  const ordered = [...all].sort((a, b) => rank(a) - rank(b) || (score(a.row) ?? 2) - (score(b.row) ?? 2) || a.run - b.run || a.index - b.index);
  const at = 5;
  const target = ordered[at]!;
  const { page, problems } = await openReport(link(target));
  await page.waitForSelector("#detail[open]");
  assert.equal(await page.locator("#detail-body h3").textContent(), target.row.id);
  assert.equal(await page.locator("#detail-pos").textContent(), `${at + 1} of ${all.length}`);
  assert.equal(await page.locator("#detail-link").getAttribute("href"), link(target));
  await page.keyboard.press("ArrowRight");
  const next = ordered[at + 1]!;
  assert.equal(await page.locator("#detail-body h3").textContent(), next.row.id);
  assert.equal(await page.evaluate(() => location.hash), link(next));
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.locator("#detail-body h3").textContent(), ordered[at - 1]!.row.id);
  await page.locator("#detail-close").click();
  assert.equal(await page.evaluate(() => location.hash), "");
  assert.deepEqual(problems, []);
  await page.close();
});

test("item view: the prompt as the provider received it, the reply, the parsed value, the score detail, tokens, latency and attempts", async () => {
  const rows = rowsOf(runs.mock);
  const index = rows.findIndex((r) => r.task === "c");
  const row = rows[index]!;
  const request = received.get(Number(/#req-(\d+)!/.exec(row.reply!)![1]))!;
  const { page, problems } = await openReport(`#item/${MOCK_RUN}/${encodeURIComponent(row.id)}`);
  await page.waitForSelector("#detail[open]");
  // Text parts in order: the system message, then the user's texts; the image named with its size as sent.
  assert.deepEqual(await page.locator("#detail-prompt pre.prompt-text").allTextContents(), [request.system, ...request.texts]);
  assert.equal(await page.locator("#detail-prompt .prompt-image-ref").count(), request.imageCount);
  assert.equal(await page.locator("#detail pre.reply").textContent(), row.reply);
  assert.equal(await page.locator("#detail pre.answer").textContent(), JSON.stringify(row.answer!.value));
  assert.equal(await page.locator("#detail pre.score-detail").textContent(), JSON.stringify(row.detail, null, 2));
  // The mock counts a token per 4 characters (rounded up) and 85 per image (test/helpers/mock-server.ts).
  const input = Math.ceil(`${request.system}${request.texts.join("")}`.length / 4) + 85 * request.imageCount;
  const output = Math.ceil(row.reply!.length / 4);
  const facts = await page.locator("#detail-request li").allTextContents();
  assert.equal(facts[0], `tokens: ${input} in · ${output} out`);
  assert.equal(facts[1], `latency: ${row.response!.latency_ms} ms`);
  assert.equal(facts[2], "attempts: 1");
  await page.screenshot({ path: artifact("html-item.png"), fullPage: true });

  // VCN-Bench: the parsed value (frame index and how it was read), not the stored prediction.
  const vcn = rowsOf(runs.vcn);
  const vcnRow = vcn[0]!;
  assert.notEqual(JSON.stringify(vcnRow.answer!.value), vcnRow.answer!.stored);
  await page.evaluate((hash) => (location.hash = hash), `#item/${VCN_RUN}/${encodeURIComponent(vcnRow.id)}`);
  await page.waitForFunction((id) => document.querySelector("#detail-body h3")?.textContent === id, vcnRow.id);
  assert.equal(await page.locator("#detail pre.answer").textContent(), JSON.stringify(vcnRow.answer!.value));
  // The composite (drawn for a 1024 px row with 12 px labels) is shown at its own size: labels stay >= 11 px.
  const size = await page.locator("#detail img.overlay").evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    return { natural: img.naturalWidth, shown: img.getBoundingClientRect().width };
  });
  assert.ok(size.natural >= 940, `natural width ${size.natural}`);
  assert.equal(size.shown, size.natural);
  await page.screenshot({ path: artifact("html-item-vcn.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("comparison: agreement counts from items.jsonl, McNemar's exact p, rows with both replies open the item", async () => {
  const a = new Map(rowsOf(runs.oracle).map((r) => [r.id, verdict(r)]));
  const counts = { bothRight: 0, onlyA: 0, onlyB: 0, bothWrong: 0 };
  for (const r of rowsOf(runs.random)) {
    const left = a.get(r.id)! === "right";
    const right = verdict(r) === "right";
    counts[left ? (right ? "bothRight" : "onlyA") : right ? "onlyB" : "bothWrong"]++;
  }
  const { page, problems } = await openReport();
  await page.selectOption("#c-a", "0");
  await page.selectOption("#c-b", "1");
  for (const [name, value] of Object.entries(counts)) assert.equal(await page.locator(`#compare-table [data-count=${name}]`).textContent(), String(value), name);
  const p = mcnemarExact(counts.onlyA, counts.onlyB).p;
  assert.match((await page.locator("#compare-test").textContent())!, new RegExp(`McNemar exact p = ${(p >= 0.001 ? p.toFixed(3) : p.toExponential(2)).replace(/[.+]/g, "\\$&")}$`));
  // B and A swapped: the discordant counts swap, the p stays.
  await page.selectOption("#c-a", "1");
  await page.selectOption("#c-b", "0");
  assert.equal(await page.locator("#compare-table [data-count=onlyA]").textContent(), String(counts.onlyB));
  assert.equal(await page.locator("#compare-table [data-count=onlyB]").textContent(), String(counts.onlyA));
  await page.selectOption("#c-a", "0");
  await page.selectOption("#c-b", "1");
  // Clicking a count shows those items, each row with both parsed answers and both replies.
  await page.locator("#compare-table [data-count=onlyA]").click();
  assert.equal(await page.locator("#compare-rows .compare-row").count(), Math.min(200, counts.onlyA));
  const first = page.locator("#compare-rows .compare-row").first();
  assert.equal(await first.locator("pre.reply").count(), 2);
  assert.equal(await first.locator("pre.answer").count(), 2);
  const id = await first.getAttribute("data-id");
  await first.click();
  await page.waitForSelector("#detail[open]");
  assert.equal(await page.locator("#detail-body h3").textContent(), id);
  await page.screenshot({ path: artifact("html-compare.png") });
  assert.deepEqual(problems, []);
  await page.close();
});
