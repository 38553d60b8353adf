import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { executeRun } from "../../src/core/session.js";
import { startViewer, type Viewer } from "../../src/serve/server.js";
import { mcnemarExact } from "../../src/stats/mcnemar.js";
import { launchBrowser, openRecordedPage } from "../helpers/browser.js";
import { startMockServer, type MockRequest, type MockServer } from "../helpers/mock-server.js";

/**
 * `serve`: the prompt each item was sent (rebuilt from the data, compared with what the mock
 * provider received), its images served as sent, and the paired counts of two runs.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const EGOPATH = path.join(ROOT, "examples/egopath-mini");
const work = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-serve-prompt-"));
const dirs = { oracle: path.join(work, "oracle"), mock: path.join(work, "mock") };
const received = new Map<number, MockRequest>();
let mock: MockServer;
let viewer: Viewer;

type Row = { id: string; task: string; reply?: string; detail?: Record<string, unknown>; prompt?: { image?: string } };
const rowsOf = (dir: string): Row[] => readFileSync(path.join(dir, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const common = { bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, promptSource: "release", control: "none", seed: 1, retryErrors: false, tasks: ["a1", "a2"] };

before(async () => {
  let n = 0;
  mock = await startMockServer({ reply: (req) => (received.set(++n, req), `{"display_ids":[1,2]} #req-${n}!`) });
  await executeRun({ ...common, benchmark: "egopath", data: EGOPATH, out: dirs.oracle, model: "oracle", flags: {} });
  await executeRun({ ...common, benchmark: "egopath", data: EGOPATH, out: dirs.mock, model: "openai:mock-vlm", flags: { base_url: `${mock.url}/v1`, max_attempts: 1 }, env: { OPENAI_API_KEY: "sk-serve-test" } });
  viewer = await startViewer({ dirs: [dirs.oracle, dirs.mock], port: 0, pollMs: 60_000 });
});
after(async () => {
  await viewer?.close();
  await mock?.close();
});

type Part = { type: "text"; text: string } | { type: "image"; k: number; source?: string };
interface State {
  items: Array<{ run: number; index: number; id: string; prompt: number | null; reply: string | null }>;
  prompts: Array<{ messages: Array<{ role: string; parts: Part[] }> }>;
  comparisons: Record<string, { bothRight: number; onlyA: number; onlyB: number; bothWrong: number; notCompared: number; p: number }>;
}

test("the state carries each item's prompt as the provider received it, and the paired counts of the two runs", async () => {
  const state = (await (await fetch(`${viewer.url}api/state`)).json()) as State;
  const mockItems = state.items.filter((item) => item.run === 1);
  assert.equal(mockItems.length, rowsOf(dirs.mock).length);
  for (const item of mockItems) {
    const request = received.get(Number(/#req-(\d+)!/.exec(item.reply!)![1]))!;
    const prompt = state.prompts[item.prompt!]!;
    const texts = prompt.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])));
    assert.deepEqual(texts, [request.system, ...request.texts], item.id);
    assert.equal(prompt.messages.flatMap((m) => m.parts).filter((p) => p.type === "image").length, request.imageCount);
  }
  // Oracle (A) against the mock (B): an exact id set or a successful route is right.
  const right = (r: Row) => (r.detail?.["kind"] === "set" ? r.detail["fp"] === 0 && r.detail["fn"] === 0 && r.detail["invalid"] === 0 : r.detail?.["stage"] === "success");
  const oracle = new Map(rowsOf(dirs.oracle).map((r) => [r.id, right(r)]));
  const expected = { bothRight: 0, onlyA: 0, onlyB: 0, bothWrong: 0 };
  for (const r of rowsOf(dirs.mock)) expected[oracle.get(r.id) ? (right(r) ? "bothRight" : "onlyA") : right(r) ? "onlyB" : "bothWrong"]++;
  const counts = state.comparisons["0-1"]!;
  assert.deepEqual({ bothRight: counts.bothRight, onlyA: counts.onlyA, onlyB: counts.onlyB, bothWrong: counts.bothWrong, notCompared: counts.notCompared }, { ...expected, notCompared: 0 });
  assert.equal(counts.p, mcnemarExact(expected.onlyA, expected.onlyB).p);
});

test("/prompt-image/ sends the image the item was asked with, byte for byte; other requests are refused", async () => {
  const rows = rowsOf(dirs.mock);
  const index = rows.findIndex((r) => r.task === "a2");
  const response = await fetch(`${viewer.url}prompt-image/1/${index}/0`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "image/png");
  // The run recorded which picture it sent (items.jsonl prompt.image); built-ins and real models send the file as read.
  assert.deepEqual(Buffer.from(await response.arrayBuffer()), readFileSync(rows[index]!.prompt!.image!));
  assert.equal((await fetch(`${viewer.url}prompt-image/1/${index}/1`)).status, 404); // one image per EgoPathBench prompt
  assert.equal((await fetch(`${viewer.url}prompt-image/1/9999/0`)).status, 404);
  assert.equal((await fetch(`${viewer.url}prompt-image/7/0/0`)).status, 404);
});

test("in the browser the item view shows the prompt's picture as served", async () => {
  const browser = await launchBrowser();
  try {
    const rows = rowsOf(dirs.mock);
    const { page, problems } = await openRecordedPage(browser, `${viewer.url}#item/1/${encodeURIComponent(rows[0]!.id)}`, "#detail[open]");
    const image = page.locator("#detail-prompt .prompt-image img");
    assert.equal(await image.count(), 1);
    assert.ok(await image.evaluate(async (img: HTMLImageElement) => (await img.decode(), img.naturalWidth > 0)));
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await browser.close();
  }
});
