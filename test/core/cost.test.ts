/**
 * --max-cost arithmetic: image tokens per provider for exact sizes (worked by hand from each
 * provider's documented rule, cited in src/core/cost.ts), request sizes read from real image
 * bytes, the projection and its messages.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import sharp from "sharp";
import type { ItemResult } from "../../src/core/benchmark.js";
import {
  anthropicImageTokens, costBudget, CostLimitReached, estimateInputTokens, expectedOutputTokens, formatUsd,
  geminiImageTokens, imageTokens, openaiImageTokens, projectCost, requestSize, textTokens,
} from "../../src/core/cost.js";
import { UsageError } from "../../src/core/problems.js";
import type { Model, ModelRequest } from "../../src/core/types.js";

test("text: about four characters a token, rounded up", () => {
  assert.deepEqual([0, 1, 4, 5, 8, 9].map(textTokens), [0, 1, 1, 2, 2, 3]);
});

test("OpenAI high detail: fit 2048 x 2048, shortest side down to 768, 85 + 170 per 512 px tile", () => {
  // The two worked examples of the OpenAI vision guide.
  assert.equal(openaiImageTokens(1024, 1024), 765); // -> 768x768: 2x2 tiles
  assert.equal(openaiImageTokens(2048, 4096), 1105); // -> 1024x2048 -> 768x1536: 2x3 tiles
  assert.equal(openaiImageTokens(1280, 720), 1105); // shortest side 720 stays: 3x2 tiles
  assert.equal(openaiImageTokens(1920, 1080), 1105); // -> 1365.3x768: 3x2 tiles
  assert.equal(openaiImageTokens(1536, 1152), 765); // -> 1024x768 exactly: 2x2 tiles
  assert.equal(openaiImageTokens(4000, 500), 765); // -> 2048x256: 4x1 tiles
  assert.equal(openaiImageTokens(512, 512), 255); // never scaled up: 1 tile
  assert.equal(openaiImageTokens(513, 100), 425); // 2x1 tiles
});

test("Anthropic: width x height / 750 after the long edge is fitted to 1568 px and the image to about 1600 tokens", () => {
  // The vision guide's table: 200x200 ~54, 1000x1000 ~1334, 1092x1092 ~1590.
  assert.equal(anthropicImageTokens(200, 200), 54); // 40000 / 750 = 53.3
  assert.equal(anthropicImageTokens(1000, 1000), 1334); // 1333.3
  assert.equal(anthropicImageTokens(1092, 1092), 1590); // 1192464 / 750 = 1589.95
  assert.equal(anthropicImageTokens(1280, 720), 1229); // 921600 / 750 = 1228.8
  assert.equal(anthropicImageTokens(1500, 500), 1000); // exactly 1000, not rounded up
  assert.equal(anthropicImageTokens(4000, 1000), 820); // long edge to 1568: 1568x392 = 614656 / 750 = 819.5
  assert.equal(anthropicImageTokens(1568, 1568), 1600); // capped at 1600 tokens
  assert.equal(anthropicImageTokens(8000, 8000), 1600);
});

test("Gemini: 258 up to 384 x 384, else 258 per 768 x 768 tile", () => {
  assert.equal(geminiImageTokens(384, 384), 258);
  assert.equal(geminiImageTokens(384, 200), 258);
  assert.equal(geminiImageTokens(385, 100), 258); // one tile
  assert.equal(geminiImageTokens(768, 768), 258);
  assert.equal(geminiImageTokens(769, 768), 516); // 2x1 tiles
  assert.equal(geminiImageTokens(1280, 720), 516); // 2x1 tiles
  assert.equal(geminiImageTokens(1920, 1080), 1548); // 3x2 tiles
});

test("imageTokens picks the provider's rule (OpenAI-format servers use OpenAI's); empty sizes cost nothing", () => {
  assert.equal(imageTokens("openai", 1280, 720), 1105);
  assert.equal(imageTokens("anthropic", 1280, 720), 1229);
  assert.equal(imageTokens("gemini", 1280, 720), 516);
  assert.equal(imageTokens("vllm-anything", 1280, 720), 1105);
  assert.equal(imageTokens("openai", 0, 720), 0);
});

async function png(width: number, height: number): Promise<string> {
  return (await sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 30 } } }).png().toBuffer()).toString("base64");
}

test("a request's size: its text characters and each image's pixel size, read from the bytes sent", async () => {
  const jpeg = (await sharp({ create: { width: 200, height: 100, channels: 3, background: "#808080" } }).jpeg({ quality: 80 }).toBuffer()).toString("base64");
  const request: ModelRequest = {
    itemId: "q1",
    settings: { temperature: 0, topP: 1, maxTokens: 64, jsonOutput: false },
    messages: [
      { role: "system", content: [{ type: "text", text: "abcd" }] },
      { role: "user", content: [{ type: "image", mediaType: "image/png", base64: await png(1280, 720) }, { type: "text", text: "0123456789" }, { type: "image", mediaType: "image/jpeg", base64: jpeg }] },
    ],
  };
  const size = await requestSize(request);
  assert.deepEqual(size, { textChars: 14, images: [{ width: 1280, height: 720 }, { width: 200, height: 100 }] });
  // 14 characters = 4 tokens, plus the two images.
  assert.equal(estimateInputTokens("openai", size), 4 + 1105 + 255);
  assert.equal(estimateInputTokens("anthropic", size), 4 + 1229 + 27); // 20000 / 750 = 26.7
  assert.equal(estimateInputTokens("gemini", size), 4 + 516 + 258);

  // Bytes that are no image count as 2048 x 2048 (OpenAI: 768x768, 4 tiles).
  const junk: ModelRequest = { ...request, messages: [{ role: "user", content: [{ type: "image", mediaType: "image/png", base64: Buffer.from("not an image").toString("base64") }] }] };
  const junkSize = await requestSize(junk);
  assert.deepEqual(junkSize, { textChars: 0, images: [{ width: 2048, height: 2048 }] });
  assert.equal(estimateInputTokens("openai", junkSize), 765);
});

const replied = (usage?: Record<string, number>): ItemResult =>
  ({ id: "x", task: "t", cluster: "c", status: "scored", response: { latency_ms: 1, attempts: 1, cached: false, ...(usage ? { usage } : {}) } }) as ItemResult;

test("expected output per request: the mean over replies that reported it, else the token limit", () => {
  assert.equal(expectedOutputTokens([replied({ inputTokens: 9, outputTokens: 50 }), replied({ outputTokens: 70 }), replied()], 8192), 60);
  assert.equal(expectedOutputTokens([replied(), replied({ inputTokens: 3 })], 8192), 8192);
  assert.equal(expectedOutputTokens([], 512), 512);
});

test("the projection: replies' reported usage (estimates where missing) plus the rest's estimates", () => {
  const price = { input_per_mtok: 2, output_per_mtok: 8 };
  const projection = projectCost(
    [
      { result: replied({ inputTokens: 1000, outputTokens: 50 }), inputEstimate: 1200 },
      { result: replied(), inputEstimate: 900 }, // no usage reported: its estimate and the expected output
    ],
    [800, 1200],
    40,
    price,
  );
  assert.deepEqual(projection, {
    spent: { input: 1900, output: 90 },
    remaining: { input: 2000, output: 80 },
    usd: 0.00916, // (3900 * 2 + 170 * 8) / 1e6
  });
  assert.equal(projectCost([], [], 40, price).usd, 0);
});

test("messages: dollar amounts, the stop message, and --max-cost without a price", () => {
  assert.deepEqual([0, 2.5, 0.5, 0.1, 0.0034, 0.004567, 0.01].map(formatUsd), ["$0.00", "$2.50", "$0.50", "$0.10", "$0.0034", "$0.0046", "$0.01"]);
  const stop = new CostLimitReached(0.0123, 0.01, 8);
  assert.equal(stop.message, "projected cost $0.012 exceeds --max-cost $0.01 after 8 items; answered items are stored, nothing is lost");

  const model = { spec: "openai:gpt-4o", identity: { provider: "openai", endpoint: "https://api.openai.com/v1", model: "gpt-4o" }, local: false } as Model;
  const price = { input_per_mtok: 2.5, output_per_mtok: 10 };
  assert.equal(costBudget("openai:gpt-4o", undefined, price, model, 8192), undefined);
  assert.equal(costBudget("oracle", 1, undefined, undefined, 8192), undefined); // built-ins cost nothing
  assert.deepEqual(costBudget("openai:gpt-4o", 1, price, model, 8192), { maxUsd: 1, price, provider: "openai", maxTokens: 8192 });
  assert.throws(
    () => costBudget("openai:gpt-4o", 1, undefined, model, 8192),
    (error: unknown) => error instanceof UsageError && /^--max-cost needs the price of openai:gpt-4o: set price: \{ input_per_mtok: <USD>, output_per_mtok: <USD> \} in the config/.test(error.message),
  );
});
