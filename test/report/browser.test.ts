import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { executeRun } from "../../src/core/session.js";
import { htmlReport } from "../../src/report/html-report.js";
import { startViewer, type Viewer } from "../../src/serve/server.js";
import { artifact, launchBrowser, openRecordedPage } from "../helpers/browser.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";

/**
 * The HTML report and the viewer in Debian's Chromium: the numbers on the page equal scores.json,
 * filters and paging work, an item opens with its overlay picture, two runs compare, a run in
 * progress updates live, and model replies carrying HTML or JavaScript stay text.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const EGOPATH = path.join(ROOT, "examples/egopath-mini");
const VCN = path.join(ROOT, "test/fixtures/vcn-legacy-mini");
const work = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-browser-"));
process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(work, "frames");
const PAYLOAD = `<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned='img'"><a href="javascript:window.__pwned='link'">click</a> {"display_ids": [1]}`;
const HOSTILE_MODEL = `openai:<img src=x onerror="window.__pwned='model'">`;

const runs = { oracle: path.join(work, "oracle"), random: path.join(work, "random"), hostile: path.join(work, "hostile"), vcn: path.join(work, "vcn") };
let mock: MockServer;
let browser: Browser;

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const readLines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const common = { bootstrapResamples: 200, bootstrapSeed: 1, quiet: true, control: "none", seed: 1, retryErrors: false };

before(async () => {
  mock = await startMockServer({ reply: () => PAYLOAD });
  await executeRun({ ...common, benchmark: "egopath", data: EGOPATH, out: runs.oracle, model: "oracle", promptSource: "release", flags: {} });
  await executeRun({ ...common, benchmark: "egopath", data: EGOPATH, out: runs.random, model: "random:1", promptSource: "release", flags: {} });
  await executeRun({
    ...common, benchmark: "egopath", data: EGOPATH, out: runs.hostile, model: HOSTILE_MODEL, tasks: ["a1", "a2"], promptSource: "release",
    flags: { base_url: `${mock.url}/v1`, max_attempts: 2, backoff_base_ms: 5, backoff_cap_ms: 10 }, env: { OPENAI_API_KEY: "sk-browser-test" },
  });
  await executeRun({ ...common, benchmark: "vcn", data: VCN, out: runs.vcn, model: "random:1", promptSource: "plain", flags: {} });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await mock?.close();
});

/** A page that records script errors and dialogs, opened once the gallery shows. */
const openPage = (url: string): Promise<{ page: Page; problems: string[] }> => openRecordedPage(browser, url, "#grid .card");

/** Every run row's score cell equals scores.json's score as a percentage with one decimal; its N cell is n_scored / n_total. */
async function checkRunsTable(page: Page, dirs: string[]): Promise<void> {
  for (const [index, dir] of dirs.entries()) {
    const scores = readJson(path.join(dir, "scores.json"));
    const cell = page.locator(`#runs tr[data-run="${index}"] td.score`);
    // A score over fewer than all of its tasks (the hostile run asks a1 and a2 only) is "— (k of n tasks)".
    const { tasks, without_predictions: without } = scores.score_coverage;
    const expected = !scores.score_complete ? `— (${tasks.length - without.length} of ${tasks.length} tasks)` : scores.score === null ? "–" : (scores.score * 100).toFixed(1);
    assert.equal((await cell.textContent())?.trim(), expected, dir);
    assert.equal((await page.locator(`#runs tr[data-run="${index}"] td.n`).textContent())?.trim(), `${scores.n_scored} / ${scores.n_total}`);
  }
}

async function checkHostileRepliesStayText(page: Page, hostileRun: number): Promise<void> {
  await page.selectOption("#f-run", String(hostileRun));
  await page.locator("#grid .card").first().click();
  await page.waitForSelector("#detail[open]");
  const reply = await page.locator("#detail pre.reply").textContent();
  assert.equal(reply, PAYLOAD);
  // One overlay; every picture in the dialog is ours (the report's data: URIs, the viewer's overlay
  // and prompt-image routes); no link with a javascript: URL exists.
  assert.equal(await page.locator("#detail img.overlay").count(), 1);
  const sources = await page.locator("#detail img").evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src") ?? ""));
  assert.ok(sources.every((src) => /^(data:image\/(webp|jpeg|png);base64,|\/overlay\/|\/prompt-image\/)/.test(src)), sources.join(", "));
  assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), undefined);
  await page.locator("#detail-close").click();
}

test("HTML report: numbers, filters, paging, an item with its overlay, comparison, hostile replies", async () => {
  const dirs = [runs.oracle, runs.random, runs.hostile, runs.vcn];
  const { html, summary } = await htmlReport(dirs, { budgetBytes: 40 * 1024 * 1024, maxSide: 480 });
  const total = dirs.reduce((n, dir) => n + readLines(path.join(dir, "items.jsonl")).length, 0);
  assert.equal(summary.total, total);
  assert.equal(summary.pictured, total); // the budget holds every picture of these small runs
  assert.ok(!html.includes("<script>window.__pwned"), "the payload appears only escaped in the file");
  const file = path.join(work, "report.html");
  writeFileSync(file, html);

  const { page, problems } = await openPage(`file://${file}`);
  await checkRunsTable(page, dirs);
  assert.match((await page.locator("#page-info").textContent())!, new RegExp(`page 1 of ${Math.ceil(total / 48)} · ${total} items`));
  assert.ok((await page.locator(".charts svg").count()) >= 3, "charts for egopath and vcn");
  await page.screenshot({ path: artifact("report-top.png") });

  // The run filter names each run by label and every identity field; two random:1 runs stay apart.
  // The identity, then the run's folder and when it was scored.
  assert.match(await page.locator('#f-run option[value="1"]').textContent() ?? "", /^random:1 · egopath — model random:1 · prompt release · control none · folder \/.*\/random · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  assert.match(await page.locator('#f-run option[value="3"]').textContent() ?? "", /^random:1 · vcn — model random:1 · prompt plain · control none · folder \/.*\/vcn · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);

  // Filter to one task of one run: the count equals that run's a2 results.
  const a2 = readLines(path.join(runs.random, "items.jsonl")).filter((r) => r.task === "a2").length;
  await page.selectOption("#f-run", "1");
  await page.selectOption("#f-task", "a2");
  assert.equal(await page.locator("#page-info").textContent(), `page 1 of 1 · ${a2} items`);
  assert.equal(await page.locator("#grid .card").count(), a2);
  await page.locator("#grid .card").first().click();
  await page.waitForSelector("#detail[open]");
  const image = page.locator("#detail img.overlay");
  assert.ok(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), "the overlay picture loads");
  assert.ok((await page.locator("#detail-caption li").count()) > 0);
  await page.screenshot({ path: artifact("report-item.png") });
  await page.locator("#detail-close").click();
  await page.selectOption("#f-task", "");

  // Paging over all items.
  await page.selectOption("#f-run", "");
  await page.locator("#next").click();
  assert.match((await page.locator("#page-info").textContent())!, /^page 2 of /);

  // Compare oracle and random:1 on the same items: rows only where the outcomes differ.
  await page.selectOption("#c-a", "0");
  await page.selectOption("#c-b", "1");
  const oracle = new Map(readLines(path.join(runs.oracle, "items.jsonl")).map((r) => [r.id, r]));
  const differ = readLines(path.join(runs.random, "items.jsonl")).filter((r) => JSON.stringify(outcomeKey(r)) !== JSON.stringify(outcomeKey(oracle.get(r.id)))).length;
  assert.ok(differ > 0);
  assert.equal(await page.locator("#compare-rows .compare-row").count(), Math.min(differ, 200));

  await checkHostileRepliesStayText(page, 2);

  // The models x benchmarks leaderboard comes first: its table (a row per run, a column per
  // benchmark, as report.md prints it) and its chart; at 1366 px the page is no wider than the window.
  const board = page.locator("#leaderboard-section");
  assert.equal(await board.locator("svg rect[fill^='rgb'], svg rect[fill^='url']").count(), 4, "one filled cell per run: three egopath runs and the vcn run");
  assert.deepEqual(await board.locator("table thead th").allTextContents(), ["Run", "EgoPathBench (EgoPath Score)", "VCN-Bench (Avg. SR, mean of types)"]);
  assert.ok(await page.evaluate(() => Boolean(document.getElementById("leaderboard-section")!.compareDocumentPosition(document.getElementById("runs-section")!) & Node.DOCUMENT_POSITION_FOLLOWING)), "the leaderboard before the runs");
  await page.setViewportSize({ width: 1366, height: 800 });
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 1366, "no horizontal page scroll at 1366 px");
  assert.deepEqual(problems, []);
  await page.close();
});

/** The fields the outcome word is made from (stage, or exact set match), for an independent count. */
function outcomeKey(r: { detail?: Record<string, unknown> }) {
  const d = r.detail ?? {};
  return d["kind"] === "set" ? d["fp"] === 0 && d["fn"] === 0 && d["invalid"] === 0 : d["stage"];
}

test("viewer: the same views served locally, pictures drawn on demand, a run in progress updates live", async () => {
  const live = path.join(work, "live");
  mkdirSync(live);
  const finished = readLines(path.join(runs.oracle, "items.jsonl"));
  writeFileSync(path.join(live, "live.json"), JSON.stringify({ benchmark: "egopath", model: "oracle-live", data: EGOPATH, prompt_source: "release", benchmark_options: {}, n_total: finished.length, started_at: "2026-11-30T00:00:00Z" }));
  writeFileSync(path.join(live, "live.jsonl"), `${JSON.stringify(finished[0])}\n`);
  const viewer: Viewer = await startViewer({ dirs: [runs.oracle, runs.hostile, live], port: 0, pollMs: 250 });
  try {
    const { page, problems } = await openPage(viewer.url);
    await checkRunsTable(page, [runs.oracle, runs.hostile]);
    assert.equal((await page.locator('#runs tr[data-run="2"] .live').textContent())?.trim(), `in progress: 1 of ${finished.length}`);

    await page.selectOption("#f-run", "0");
    await page.selectOption("#f-outcome", "success");
    const successes = finished.filter((r) => r.detail?.stage === "success").length;
    assert.equal(await page.locator("#grid .card").count(), Math.min(successes, 48));
    await page.locator("#grid .card").first().click();
    await page.waitForSelector("#detail[open]");
    await page.waitForFunction(() => document.querySelectorAll("#detail-caption li").length > 0);
    const image = page.locator("#detail img.overlay");
    await image.evaluate((img: HTMLImageElement) => img.decode());
    assert.ok(await image.evaluate((img: HTMLImageElement) => img.naturalWidth > 0 && img.src.includes("/overlay/0/")));
    await page.screenshot({ path: artifact("viewer-item.png") });
    await page.locator("#detail-close").click();

    // The live run grows by two results: the page shows it without a reload.
    appendFileSync(path.join(live, "live.jsonl"), `${JSON.stringify(finished[1])}\n${JSON.stringify(finished[2])}\n`);
    await page.waitForFunction((n) => document.querySelector('#runs tr[data-run="2"] .live')?.textContent?.trim() === `in progress: 3 of ${n}`, finished.length, { timeout: 10_000 });
    await page.selectOption("#f-outcome", "");
    await page.selectOption("#f-run", "2");
    assert.equal(await page.locator("#grid .card").count(), 3);
    await page.screenshot({ path: artifact("viewer-live.png") });

    await checkHostileRepliesStayText(page, 1);
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await viewer.close();
  }
});
