import assert from "node:assert/strict";
import { test } from "node:test";
import sharp from "sharp";
import type { Benchmark, BenchItem } from "../../src/core/benchmark.js";
import { requestKey, runItems } from "../../src/core/run.js";
import { DEFAULT_SETTINGS, type Message, type Model, type ModelRequest, type Part } from "../../src/core/types.js";
import { base64Length } from "../../src/media/fit.js";
import { noisePng } from "../helpers/media.js";
import { anthropicBody } from "../../src/models/anthropic.js";
import { geminiBody } from "../../src/models/gemini.js";
import { limitsTable, PROVIDER_LIMITS } from "../../src/models/limits.js";
import { openaiBody } from "../../src/models/openai.js";
import { fairCap, nonImageBytes, resolveImageBudgets, shapeMessages, type ImageBudgets } from "../../src/models/shape.js";


function gradientPng(width: number, height: number, blue: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set([Math.floor((255 * x) / width), Math.floor((255 * y) / height), blue], (y * width + x) * 3);
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

const image = (bytes: Buffer, source: string, kind?: "picture" | "frame"): Part => ({
  type: "image", mediaType: "image/png", base64: bytes.toString("base64"), source, ...(kind ? { kind } : {}),
});

/** A system message, then one user message: per image a label and the image, then the question. */
function request(images: Part[]): Message[] {
  const content: Part[] = [];
  images.forEach((part, i) => content.push({ type: "text", text: `Frame ${i}:` }, part));
  content.push({ type: "text", text: "How far did the camera wearer walk, in meters?" });
  return [{ role: "system", content: [{ type: "text", text: "You watch egocentric video." }] }, { role: "user", content }];
}

const KEEP: ImageBudgets = { picture: { format: "keep", jpegQuality: 85 }, frame: { format: "keep", jpegQuality: 85 } };

function sent(messages: Message[]): Array<Extract<Part, { type: "image" }>> {
  return messages.flatMap((m) => m.content.filter((p): p is Extract<Part, { type: "image" }> => p.type === "image"));
}

const wireRequest = (messages: Message[]): ModelRequest => ({ itemId: "x", messages, settings: DEFAULT_SETTINGS });

test("budgets: benchmark defaults, then the user's flags for both kinds; sizes kept for coordinate pictures", () => {
  const egotl = { picture: { maxSide: 768, format: "jpeg" as const, jpegQuality: 85 }, frame: { maxSide: 768, format: "jpeg" as const, jpegQuality: 85 } };
  assert.deepEqual(resolveImageBudgets(egotl), egotl);
  assert.deepEqual(resolveImageBudgets(egotl, { maxPixels: 2_000_000, jpegQuality: 70 }), {
    picture: { maxPixels: 2_000_000, format: "jpeg", jpegQuality: 70 },
    frame: { maxPixels: 2_000_000, format: "jpeg", jpegQuality: 70 },
  });
  assert.deepEqual(resolveImageBudgets(undefined), { picture: { format: "keep", jpegQuality: 85 }, frame: { format: "keep", jpegQuality: 85 } });
  const epic = { picture: { format: "keep" as const, keepSize: true }, frame: { format: "keep" as const, keepSize: true } };
  assert.deepEqual(resolveImageBudgets(epic, { maxPixels: 1000, format: "png" }).picture, { format: "png", jpegQuality: 85, keepSize: true });
});

test("fair shares: images below an equal share keep their size, the rest share what is left", () => {
  // 15 to share among 1, 2, 10, 10: 1 and 2 fit their shares (3.75, 4.67); the two 10s get (15 - 3) / 2 = 6 each.
  assert.equal(fairCap([10, 1, 10, 2], 15), 6);
  assert.equal(fairCap([1, 2, 3], 6), Infinity);
  assert.equal(fairCap([5, 5, 5], 10), 3); // floor(10 / 3)
  assert.equal(fairCap([5], -1), 0);
});

test("the limits table names every limit with its source", () => {
  const table = limitsTable().split("\n");
  assert.equal(table.length, 5);
  assert.equal(table[0], "| Provider | Bytes per image | Pixels per side | Many-image rule | Images per request | Request bytes |");
  assert.match(table[3]!, /^\| Anthropic \| 5 MB \(base64\) \[source\]\(https:\/\/platform\.claude\.com\/docs\/en\/build-with-claude\/vision#evaluate-image-size\) \| 8000 px .* \| 2000 px per side when more than 20 images .* \| 100 .* \| 32 MB \(whole body, base64 images\) \[source\]\(https:\/\/platform\.claude\.com\/docs\/en\/api\/overview#request-size-limits\) \|$/);
  assert.match(table[4]!, /^\| Gemini \| not documented \| not documented \(scaled by the server\) \| none \| 3600 .* \| 20 MB /);
  assert.match(table[2]!, /^\| OpenAI \| 20 MB \(base64\) .* \| 500 .* \| 50 MB /);
});

test("Anthropic: more than 20 images in a request brings every side to 2000 px; 20 images go as they are", async () => {
  const a = await gradientPng(2400, 1800, 40);
  const b = await gradientPng(2400, 1800, 200);
  const parts = Array.from({ length: 21 }, (_, i) => image(i % 2 ? b : a, `clip.mp4#${i}`, "frame"));

  const many = await shapeMessages(request(parts), PROVIDER_LIMITS.anthropic, KEEP);
  assert.ok(!("error" in many));
  assert.equal(many.images.length, 21);
  for (const [i, img] of many.images.entries()) {
    // 2400x1800 -> longest side 2000 -> 2000x1500 (1800 * 2000 / 2400), re-encoded as PNG (keep).
    assert.deepEqual(img, {
      source: `clip.mp4#${i}`,
      kind: "frame",
      original: { width: 2400, height: 1800, bytes: (i % 2 ? b : a).length, media_type: "image/png" },
      sent: { width: 2000, height: 1500, bytes: img.sent.bytes, media_type: "image/png" },
      transform: "resize 2400x1800->2000x1500, png",
    });
  }
  for (const part of sent(many.messages)) {
    const meta = await sharp(Buffer.from(part.base64, "base64")).metadata();
    assert.deepEqual([meta.width, meta.height, part.mediaType], [2000, 1500, "image/png"]);
  }

  const twenty = await shapeMessages(request(parts.slice(0, 20)), PROVIDER_LIMITS.anthropic, KEEP);
  assert.ok(!("error" in twenty));
  assert.ok(twenty.images.every((img) => img.transform === "none" && img.sent.width === 2400 && img.sent.height === 1800));
  assert.deepEqual(sent(twenty.messages).map((p) => p.base64), parts.slice(0, 20).map((p) => (p as { base64: string }).base64));

  // OpenAI documents no side limit: 21 such images go as they are.
  const openai = await shapeMessages(request(parts), PROVIDER_LIMITS.openai, KEEP);
  assert.ok(!("error" in openai));
  assert.ok(openai.images.every((img) => img.transform === "none"));
});

test("too many images is a limit error naming the limit and the count, before any fitting", async () => {
  const tiny = await gradientPng(8, 8, 0);
  const anthropic = await shapeMessages(request(Array.from({ length: 101 }, (_, i) => image(tiny, `v${i}.png`))), PROVIDER_LIMITS.anthropic, KEEP);
  assert.deepEqual(anthropic, { error: { kind: "limit", message: "Anthropic allows at most 100 images per request; this item has 101" } });
  const openai = await shapeMessages(request(Array.from({ length: 501 }, (_, i) => image(tiny, `v${i}.png`))), PROVIDER_LIMITS.openai, KEEP);
  assert.deepEqual(openai, { error: { kind: "limit", message: "OpenAI allows at most 500 images per request; this item has 501" } });
  // No limits (a model without a table): only the budgets apply.
  const free = await shapeMessages(request(Array.from({ length: 101 }, (_, i) => image(tiny, `v${i}.png`))), undefined, KEEP);
  assert.ok(!("error" in free));
  assert.equal(free.images.length, 101);
});

test("16 full-size 1280x720 frames share a request limit: each provider's real body stays inside it", async () => {
  const frames = await Promise.all(Array.from({ length: 16 }, (_, i) => noisePng(1280, 720, 100 + i)));
  const parts = frames.map((f, i) => image(f, `walk.mp4#${i * 10}`, "frame"));
  const messages = request(parts);
  const before = frames.reduce((sum, f) => sum + base64Length(f.length), 0);
  assert.ok(before > 55_000_000); // about 59 MB of base64 as read

  const cases = [
    { limits: PROVIDER_LIMITS.gemini, body: () => geminiBody("gemini-2.5-flash", wireRequest(shaped())) },
    { limits: PROVIDER_LIMITS.anthropic, body: () => anthropicBody("claude-sonnet-4-5", wireRequest(shaped())) },
    { limits: PROVIDER_LIMITS.openai, body: () => openaiBody("gpt-4o", wireRequest(shaped())) },
  ];
  let current: Message[] = [];
  const shaped = () => current;
  for (const { limits, body } of cases) {
    const result = await shapeMessages(messages, limits, KEEP);
    assert.ok(!("error" in result), limits.name);
    current = result.messages;
    // The share each image may use: what the request limit leaves after the text, split 16 ways.
    const share = Math.floor((limits.requestBytes.max - nonImageBytes(messages)) / 16);
    for (const img of result.images) {
      assert.ok(base64Length(img.sent.bytes) <= share, `${limits.name}: ${img.sent.bytes}`);
      assert.equal(img.sent.media_type, "image/jpeg");
      assert.equal(img.kind, "frame");
    }
    assert.equal(result.requestBytes, nonImageBytes(messages) + result.images.reduce((s, i) => s + base64Length(i.sent.bytes), 0));
    const wire = Buffer.byteLength(JSON.stringify(body()));
    assert.ok(wire <= limits.requestBytes.max, `${limits.name}: body ${wire}`);
    assert.ok(wire <= result.requestBytes, `${limits.name}: estimate ${result.requestBytes} below body ${wire}`);
    // Neither kind nor source goes on the wire.
    const text = JSON.stringify(body());
    assert.ok(!text.includes('"kind"') && !text.includes("walk.mp4#"), limits.name);
  }
});

test("pictures kept at their size: re-encoded to fit the bytes, a limit error when a side is over", async () => {
  const keepSize: ImageBudgets = { picture: { format: "keep", jpegQuality: 85, keepSize: true }, frame: KEEP.frame };
  // 1600x1200 noise: 5.76 MB of PNG (7.7 MB base64), over Anthropic's 5 MB; JPEG q85 at the same size fits.
  const scene = await noisePng(1600, 1200, 9);
  const fitted = await shapeMessages(request([image(scene, "scene.png")]), PROVIDER_LIMITS.anthropic, keepSize);
  assert.ok(!("error" in fitted));
  assert.deepEqual(fitted.images[0], {
    source: "scene.png",
    kind: "picture",
    original: { width: 1600, height: 1200, bytes: scene.length, media_type: "image/png" },
    sent: { width: 1600, height: 1200, bytes: fitted.images[0]!.sent.bytes, media_type: "image/jpeg" },
    transform: "jpeg q85, stepped down for a 5000000 byte budget (base64)",
  });
  assert.ok(base64Length(fitted.images[0]!.sent.bytes) <= 5_000_000);

  // 21 images make Anthropic's side limit 2000 px; a 2400x1800 picture that keeps its size cannot go.
  const big = await gradientPng(2400, 1800, 90);
  const small = await gradientPng(64, 48, 90);
  const parts = [image(big, "overlay.png"), ...Array.from({ length: 20 }, (_, i) => image(small, `f${i}.png`, "frame"))];
  const refused = await shapeMessages(request(parts), PROVIDER_LIMITS.anthropic, keepSize);
  assert.ok("error" in refused);
  assert.deepEqual(refused.error, {
    kind: "limit",
    message: "Anthropic allows at most 2000 px per side when a request holds more than 20 images; image 1 of 21 (overlay.png) is 2400x1800 and is kept at its size (its answers are pixel coordinates)",
  });
  assert.equal(refused.images?.length, 21);
  assert.equal(refused.images?.[0]?.transform, "none");
});

test("a picture that fits no step is a limit error naming the per-image limit", async () => {
  const budgets: ImageBudgets = { picture: { format: "jpeg", jpegQuality: 85, keepSize: true }, frame: KEEP.frame };
  const photo = await noisePng(4000, 3000, 11);
  const result = await shapeMessages(request([image(photo, "room.png")]), PROVIDER_LIMITS.anthropic, budgets);
  assert.ok("error" in result);
  assert.equal(result.error.kind, "limit");
  assert.match(result.error.message, /^Anthropic allows at most 5 MB \(base64\) per image; image 1 of 1 \(room\.png\) is \d+(\.\d+)? MB even after shaping \(jpeg q45, stepped down for a 5000000 byte budget \(base64\)\)$/);
  assert.deepEqual(result.images?.[0]?.sent.width, 4000);
});

test("a broken image is a prompt error, not a crash", async () => {
  const result = await shapeMessages(request([{ type: "image", mediaType: "image/png", base64: Buffer.from("\x89PNG\r\n\x1a\nbroken").toString("base64"), source: "bad.png" }]), PROVIDER_LIMITS.gemini, KEEP);
  assert.ok("error" in result);
  assert.equal(result.error.kind, "prompt");
  assert.match(result.error.message, /^image 1 of 1 \(bad\.png\) cannot be read as an image: /);
});

test("the request key covers the budget, not the image kind or source", () => {
  const model = { identity: { provider: "anthropic", endpoint: "https://api.anthropic.com", model: "m" } } as unknown as Model;
  const frame = (kind?: "picture" | "frame", source = "a.mp4#1"): Message[] => [
    { role: "user", content: [{ type: "image", mediaType: "image/jpeg", base64: "/9j/4AAQ", source, ...(kind ? { kind } : {}) }, { type: "text", text: "?" }] },
  ];
  const a = resolveImageBudgets({ picture: {}, frame: { maxSide: 768, format: "jpeg" } });
  const b = resolveImageBudgets({ picture: {}, frame: { maxSide: 768, format: "jpeg" } }, { jpegQuality: 70 });
  const plain = requestKey(model, DEFAULT_SETTINGS, frame());
  const withA = requestKey(model, DEFAULT_SETTINGS, frame("frame"), a);
  assert.notEqual(withA, plain);
  assert.notEqual(requestKey(model, DEFAULT_SETTINGS, frame("frame"), b), withA);
  assert.equal(requestKey(model, DEFAULT_SETTINGS, frame("picture", "/elsewhere/a.mp4#1"), a), withA);
  assert.equal(requestKey(model, DEFAULT_SETTINGS, frame("frame")), plain); // no budget: the key as before shaping
});

interface Item extends BenchItem {
  frames: number;
}

/** Just enough of a benchmark for runItems: any reply scores as read. */
const benchmark = {
  readReply: (_item: Item, text: string) => ({ status: "ok", value: text }),
  scoreItem: () => ({}),
} as unknown as Benchmark<Item>;

test("a run records what was sent for each image, and sends nothing for an item that cannot fit", async () => {
  const frame = await noisePng(1280, 720, 21);
  const received: ModelRequest[] = [];
  const model: Model = {
    spec: "anthropic:fake",
    identity: { provider: "anthropic", endpoint: "http://127.0.0.1:9", model: "fake" },
    local: false,
    limits: PROVIDER_LIMITS.anthropic,
    async generate(req) {
      received.push(req);
      return { outcome: "ok", text: "3.5", latencyMs: 1, attempts: 1 };
    },
  };
  const items: Item[] = [
    { id: "walk", task: "distance", cluster: "v1", frames: 2 },
    { id: "long", task: "distance", cluster: "v1", frames: 101 },
  ];
  const imageBudget = resolveImageBudgets({ picture: { format: "keep" }, frame: { maxSide: 768, format: "jpeg", jpegQuality: 85 } });
  const results = await runItems({
    benchmark,
    items,
    responder: { kind: "model", model },
    build: (item) => ({ messages: request(Array.from({ length: item.frames }, (_, i) => image(frame, `walk.mp4#${i}`, "frame"))), info: {} }),
    settings: DEFAULT_SETTINGS,
    concurrency: 1,
    retryErrors: false,
    signal: new AbortController().signal,
    imageBudget,
  });

  assert.equal(received.length, 1);
  assert.equal(results[0]!.status, "scored");
  const images = results[0]!.response!.images!;
  assert.equal(images.length, 2);
  for (const [i, img] of images.entries()) {
    assert.deepEqual(img, {
      source: `walk.mp4#${i}`,
      kind: "frame",
      original: { width: 1280, height: 720, bytes: frame.length, media_type: "image/png" },
      sent: { width: 768, height: 432, bytes: img.sent.bytes, media_type: "image/jpeg" },
      transform: "resize 1280x720->768x432, jpeg q85",
    });
  }
  const shipped = sent(received[0]!.messages);
  assert.deepEqual(shipped.map((p) => Buffer.from(p.base64, "base64").length), images.map((img) => img.sent.bytes));
  assert.ok(shipped.every((p) => p.mediaType === "image/jpeg"));

  assert.equal(results[1]!.status, "error");
  assert.deepEqual(results[1]!.response, {
    latency_ms: 0,
    attempts: 0,
    cached: false,
    error: { kind: "limit", message: "Anthropic allows at most 100 images per request; this item has 101" },
  });
});
