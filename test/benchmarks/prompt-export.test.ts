import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { conversationPieces, exportFromPrompts, mediaDirFor } from "../../src/benchmarks/prompt-export.js";
import { llavaRecord, sharegptRecord, swiftRecord, type Conversation } from "../../src/core/training-export.js";
import type { Message } from "../../src/core/types.js";
import { getBenchmark } from "../../src/registry.js";
import { runCli } from "../helpers/cli.js";

const EGOTL = path.resolve(import.meta.dirname, "../fixtures/egotl-legacy-mini");
const VCN = path.resolve(import.meta.dirname, "../fixtures/vcn-legacy-mini");

const picture = (base64: string) => ({ type: "image" as const, mediaType: "image/png", base64 });

test("messages become a system text and user pieces with the pictures where the model saw them", () => {
  const messages: Message[] = [
    { role: "system", content: [{ type: "text", text: "Be brief." }] },
    { role: "user", content: [{ type: "text", text: "Frame 0:" }, picture("AA=="), { type: "text", text: "Frame 1:" }, { type: "text", text: " (last)" }, picture("AQ==")] },
  ];
  const seen: string[] = [];
  const pieces = conversationPieces(messages, (part) => seen.push(part.base64) - 1);
  assert.deepEqual(pieces, { system: "Be brief.", user: [{ text: "Frame 0:" }, { image: 0 }, { text: "Frame 1: (last)" }, { image: 1 }] });
  assert.deepEqual(seen, ["AA==", "AQ=="]);
  assert.deepEqual(conversationPieces([{ role: "user", content: [{ type: "text", text: "see <video> here" }] }], () => 0), { reason: "the prompt text contains <video>, which the trainers read as a media placeholder" });
  assert.match((conversationPieces([{ role: "user", content: [] }, { role: "assistant", content: [] }], () => 0) as { reason: string }).reason, /assistant turns/);
});

test("each format places one <image> per picture, in order; llava puts leading pictures before the system prompt", () => {
  const c: Conversation = { id: "q1", images: ["m/a.png", "m/b.png"], system: "S", user: [{ image: 0 }, { text: "look, then " }, { image: 1 }, { text: "answer" }], answer: "42" };
  assert.deepEqual(llavaRecord(c), { id: "q1", image: ["m/a.png", "m/b.png"], conversations: [{ from: "human", value: "<image>\nS\n\nlook, then <image>answer" }, { from: "gpt", value: "42" }] });
  assert.deepEqual(sharegptRecord(c), { conversations: [{ from: "human", value: "<image>look, then <image>answer" }, { from: "gpt", value: "42" }], system: "S", images: ["m/a.png", "m/b.png"] });
  assert.deepEqual(swiftRecord(c), { messages: [{ role: "system", content: "S" }, { role: "user", content: "<image>look, then <image>answer" }, { role: "assistant", content: "42" }], images: ["m/a.png", "m/b.png"] });
  assert.equal(llavaRecord({ ...c, images: ["m/a.png"], user: [{ image: 0 }, { text: "x" }] }).image, "m/a.png");
});

test("an EgoTL export holds every question with its true answer and the frames the prompt sends", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sp-export-"));
  const out = path.join(dir, "egotl.jsonl");
  const summary = await exportFromPrompts(getBenchmark("egotl"), { data: EGOTL, format: "swift", outFile: out });
  assert.equal(summary.exported, 30);
  assert.deepEqual(summary.refused, []);
  assert.deepEqual(summary.counts, { planning: 5, scene_action: 5, next_action: 5, action_recognition: 5, direction: 5, distance: 5 });
  const rows = readFileSync(path.join(EGOTL, "test.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; task: string; answer: unknown; options?: string[] });
  const records = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { messages: Array<{ role: string; content: string }>; images: string[] });
  assert.equal(records.length, rows.length);
  for (const [i, record] of records.entries()) {
    const row = rows[i]!;
    const user = record.messages.find((m) => m.role === "user")!.content;
    assert.equal(user.split("<image>").length - 1, record.images.length, `${row.id}: one <image> per picture`);
    for (const image of record.images) assert.ok(existsSync(path.join(dir, image)), `${row.id}: ${image} exists`);
    const answer = record.messages.find((m) => m.role === "assistant")!.content;
    // The target is the row's own answer in the task's output form (a letter, an option text, a label, metres).
    if (row.task === "direction") assert.equal(answer, row.answer);
    if (row.task === "distance") assert.equal(Number(answer), row.answer);
    if (row.task === "action_recognition") assert.equal(answer, row.answer);
  }
  assert.equal(summary.mediaDir, path.join(dir, "egotl_media"));
  // Every picture is written once: 30 questions of 8 frames or one picture share nothing here, but the count is the folder's.
  assert.equal(summary.pictures, new Set(records.flatMap((r) => r.images)).size);
});

test("a VCN target the scorer would not count as right is refused and reported, and the CLI exits 1", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sp-export-"));
  const out = path.join(dir, "vcn.json");
  const result = await runCli(["export", "vcn", "--data", VCN, "--format", "llava", "--out", out, "--max-images", "16"]);
  assert.equal(result.code, 1);
  assert.match(result.stdout, /wrote .*vcn\.json: 18 conversations \(count 3, order 6, distance 3, orientation 3, instance 3\), llava format/);
  // With 12 of 24 tour frames shown, none of the shown frames sees house_2's target instance.
  assert.match(result.stderr, /refused 1 question .*\n  - house_2\/instance \(instance\): the oracle's frame is not a success \(perception\)/);
  const records = JSON.parse(readFileSync(out, "utf8")) as Array<{ id: string; image: string[] }>;
  assert.equal(records.length, 18);
  assert.ok(!records.some((r) => r.id === "house_2/instance"));
});

test("export overwrites nothing: an existing file or a non-empty media folder is refused before anything is written", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sp-export-"));
  const out = path.join(dir, "e.json");
  writeFileSync(out, "keep");
  await assert.rejects(exportFromPrompts(getBenchmark("egotl"), { data: EGOTL, format: "llava", outFile: out }), /already exists/);
  const other = path.join(dir, "f.json");
  mkdirSync(mediaDirFor(other));
  writeFileSync(path.join(mediaDirFor(other), "x.png"), "keep");
  await assert.rejects(exportFromPrompts(getBenchmark("egotl"), { data: EGOTL, format: "llava", outFile: other }), /already holds files/);
  assert.equal(existsSync(other), false);
  assert.equal(readFileSync(out, "utf8"), "keep");
});
