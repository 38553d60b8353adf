/**
 * The strict mock server: for every rule, one hand-written request the real API rejects (status
 * and error body asserted exactly, wording as the provider documents or returns it) and the
 * nearest request it accepts. Bodies are raw JSON sent with fetch, independent of src/models.
 * Images are real files made with sharp.
 */
import { noisePng } from "../helpers/media.js";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { startMockServer, type Fault, type MockServer } from "../helpers/mock-server.js";
import { headerOfBase64, readImageHeader } from "../helpers/strict-rules.js";

let strict: MockServer;
let lenient: MockServer;
let fault: Fault | undefined;
before(async () => {
  strict = await startMockServer({ strict: true, reply: () => "The answer is A.", faults: () => fault });
  lenient = await startMockServer();
});
after(async () => {
  await strict.close();
  await lenient.close();
});

type Provider = "openai" | "anthropic" | "gemini";
interface Reply {
  status: number;
  body: any;
}

function urlOf(server: MockServer, provider: Provider, model: string): string {
  if (provider === "openai") return `${server.url}/v1/chat/completions`;
  if (provider === "anthropic") return `${server.url}/v1/messages`;
  return `${server.url}/v1beta/models/${model}:generateContent`;
}

async function post(provider: Provider, body: Record<string, unknown>, model = String(body.model ?? ""), server = strict): Promise<Reply> {
  const res = await fetch(urlOf(server, provider, model), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const accepted = (reply: Reply, what: string) => assert.equal(reply.status, 200, `${what}: ${JSON.stringify(reply.body).slice(0, 300)}`);

// Error bodies, written out as each provider sends them.
const openaiErr = (message: string, param: string | null, code: string | null) => ({ error: { message, type: "invalid_request_error", param, code } });
const anthropicErr = (message: string) => ({ type: "error", error: { type: "invalid_request_error", message } });
const geminiErr = (message: string) => ({ error: { code: 400, message, status: "INVALID_ARGUMENT" } });

// Images.
const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 40 } } });
const pngOf = async (width: number, height: number) => (await solid(width, height).png().toBuffer()).toString("base64");
const jpegOf = async (width: number, height: number) => (await solid(width, height).jpeg().toBuffer()).toString("base64");


/** A 1x1 BMP (BITMAPINFOHEADER, 24-bit): a real image format none of the three providers takes. */
const BMP = Buffer.concat([
  Buffer.from("BM", "latin1"),
  Buffer.from([58, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 24, 0, 0, 0, 0, 0, 4, 0, 0, 0]),
  Buffer.alloc(16),
  Buffer.from([0, 0, 255, 0]),
]).toString("base64");

let tinyPng: string;
let smallJpeg: string;
before(async () => {
  tinyPng = await pngOf(8, 8);
  smallJpeg = await jpegOf(64, 48);
});

const dataUrl = (type: string, base64: string) => ({ type: "image_url", image_url: { url: `data:${type};base64,${base64}` } });
const claudeImage = (type: string, base64: string) => ({ type: "image", source: { type: "base64", media_type: type, data: base64 } });
const inline = (mimeType: string, data: string) => ({ inlineData: { mimeType, data } });
const generate = (contents: unknown[], extra: Record<string, unknown> = {}) => ({ contents, ...extra });
const user = (...parts: unknown[]) => ({ role: "user", parts });

describe("image headers (read without decoding pixels)", () => {
  test("PNG, JPEG (with EXIF before the frame header), GIF and the three WebP layouts", async () => {
    const cases: [string, Buffer, string][] = [
      ["png", await solid(321, 123).png().toBuffer(), "image/png"],
      ["jpeg", await solid(640, 360).jpeg().toBuffer(), "image/jpeg"],
      ["jpeg+exif", await solid(641, 361).jpeg().withExif({ IFD0: { Copyright: "spatialprobe test" } }).toBuffer(), "image/jpeg"],
      ["progressive jpeg", await solid(333, 222).jpeg({ progressive: true }).toBuffer(), "image/jpeg"],
      ["gif", await solid(77, 55).gif().toBuffer(), "image/gif"],
      ["webp lossy (VP8)", await solid(401, 203).webp().toBuffer(), "image/webp"],
      ["webp lossless (VP8L)", await solid(402, 204).webp({ lossless: true }).toBuffer(), "image/webp"],
      ["webp alpha (VP8X)", await sharp({ create: { width: 403, height: 205, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } }).webp().toBuffer(), "image/webp"],
    ];
    for (const [name, bytes, type] of cases) {
      const meta = await sharp(bytes).metadata();
      assert.deepEqual(readImageHeader(bytes), { type, width: meta.width, height: meta.height }, name);
      assert.deepEqual(headerOfBase64(bytes.toString("base64")), { type, width: meta.width, height: meta.height }, name);
    }
  });

  test("not an image, a truncated header and a BMP read as unknown", () => {
    assert.equal(readImageHeader(Buffer.from("not an image at all")), undefined);
    assert.equal(readImageHeader(Buffer.from(tinyPng, "base64").subarray(0, 20)), undefined);
    assert.equal(readImageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00])), undefined);
    assert.equal(readImageHeader(Buffer.from(BMP, "base64")), undefined);
  });
});

describe("openai", () => {
  const chat = (extra: Record<string, unknown> = {}, model = "gpt-4o") => ({ model, messages: [{ role: "user", content: "Which way is the exit?" }], max_completion_tokens: 100, ...extra });

  test("json_object without the word json in any message is refused; the word anywhere, in any case, is enough", async () => {
    const refused = await post("openai", {
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Answer briefly." },
        { role: "user", content: [{ type: "text", text: "Answer: ... Explanation: ..." }] },
      ],
      response_format: { type: "json_object" },
    });
    assert.deepEqual(refused, { status: 400, body: openaiErr("'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", "messages", null) });
    accepted(await post("openai", { model: "gpt-4o", messages: [{ role: "system", content: "Reply with a JSON object." }, { role: "user", content: "Go." }], response_format: { type: "json_object" } }), "JSON in system");
    accepted(await post("openai", { model: "gpt-4o", messages: [{ role: "user", content: [{ type: "text", text: "reply as json" }] }], response_format: { type: "json_object" } }), "json in a user part");
    accepted(await post("openai", chat({ response_format: { type: "text" } })), "text format");
  });

  test("reasoning models take only the default temperature (1); gpt-4o, gpt-5-chat-latest and gpt-5.1 with reasoning_effort none take any", async () => {
    const temperatureErr = (v: string) => openaiErr(`Unsupported value: 'temperature' does not support ${v} with this model. Only the default (1) value is supported.`, "temperature", "unsupported_value");
    for (const model of ["gpt-5-mini", "gpt-5", "gpt-5-nano", "gpt-5.1", "o3", "o4-mini", "o3-mini", "o1"])
      assert.deepEqual(await post("openai", chat({ temperature: 0 }, model)), { status: 400, body: temperatureErr("0") }, model);
    assert.deepEqual(await post("openai", chat({ temperature: 0.2 }, "gpt-5-mini")), { status: 400, body: temperatureErr("0.2") });
    accepted(await post("openai", chat({}, "gpt-5-mini")), "no temperature");
    accepted(await post("openai", chat({ temperature: 1 }, "gpt-5-mini")), "temperature 1");
    accepted(await post("openai", chat({ temperature: 0 }, "gpt-4o")), "gpt-4o");
    accepted(await post("openai", chat({ temperature: 0 }, "gpt-4.1-mini")), "gpt-4.1-mini");
    accepted(await post("openai", chat({ temperature: 0 }, "gpt-5-chat-latest")), "gpt-5-chat-latest");
    accepted(await post("openai", chat({ temperature: 0, top_p: 1, reasoning_effort: "none" }, "gpt-5.1")), "gpt-5.1 effort none");
  });

  test("reasoning models refuse top_p and max_tokens; the others accept both", async () => {
    assert.deepEqual(await post("openai", chat({ top_p: 1 }, "o4-mini")), {
      status: 400,
      body: openaiErr("Unsupported parameter: 'top_p' is not supported with this model.", "top_p", "unsupported_parameter"),
    });
    const noMaxTokens = { model: "gpt-5-nano", messages: [{ role: "user", content: "Hi" }], max_tokens: 100 };
    assert.deepEqual(await post("openai", noMaxTokens), {
      status: 400,
      body: openaiErr("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "max_tokens", "unsupported_parameter"),
    });
    accepted(await post("openai", chat({}, "o4-mini")), "o4-mini without top_p");
    accepted(await post("openai", chat({}, "gpt-5-nano")), "max_completion_tokens");
    accepted(await post("openai", { model: "gpt-4o", messages: [{ role: "user", content: "Hi" }], max_tokens: 100, top_p: 1, temperature: 0 }), "gpt-4o max_tokens + top_p");
  });

  test("more completion tokens than the model can write is refused", async () => {
    assert.deepEqual(await post("openai", chat({ max_completion_tokens: 20000 }, "gpt-4o")), {
      status: 400,
      body: openaiErr("max_completion_tokens is too large: 20000. This model supports at most 16384 completion tokens, whereas you provided 20000.", "max_completion_tokens", "invalid_value"),
    });
    accepted(await post("openai", chat({ max_completion_tokens: 16384 }, "gpt-4o")), "16384");
  });

  test("unknown arguments, and reasoning_effort to a model that does not reason, are unrecognized", async () => {
    assert.deepEqual(await post("openai", chat({ reasoning_effort: "low" }, "gpt-4o")), { status: 400, body: openaiErr("Unrecognized request argument supplied: reasoning_effort", null, null) });
    assert.deepEqual(await post("openai", chat({ thinking: { type: "enabled" }, top_k: 5 })), { status: 400, body: openaiErr("Unrecognized request arguments supplied: thinking, top_k", null, null) });
    accepted(await post("openai", chat({ reasoning_effort: "low" }, "gpt-5-mini")), "gpt-5-mini reasoning_effort");
    accepted(await post("openai", chat({ seed: 7, n: 1, stop: ["\n\n"] })), "known arguments");
  });

  test("a message role outside the documented set is refused", async () => {
    assert.deepEqual(await post("openai", { model: "gpt-4o", messages: [{ role: "robot", content: "Hi" }] }), {
      status: 400,
      body: openaiErr("Invalid value: 'robot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", "messages[0].role", "invalid_value"),
    });
    accepted(await post("openai", { model: "gpt-4o", messages: [{ role: "developer", content: "Be brief." }, { role: "user", content: "Hi" }] }), "developer");
  });

  test("an image whose bytes are not what its data URL says is invalid; a format outside png/jpeg/gif/webp is unsupported", async () => {
    const invalid = openaiErr("You uploaded an unsupported image. Please make sure your image is valid.", null, "invalid_image");
    const withImage = (part: unknown) => ({ model: "gpt-4o", messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, part] }] });
    assert.deepEqual(await post("openai", withImage(dataUrl("image/png", smallJpeg))), { status: 400, body: invalid });
    assert.deepEqual(await post("openai", withImage(dataUrl("image/png", Buffer.from("plain text, not a picture").toString("base64")))), { status: 400, body: invalid });
    assert.deepEqual(await post("openai", withImage(dataUrl("image/bmp", BMP))), {
      status: 400,
      body: openaiErr("You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].", null, "invalid_image_format"),
    });
    accepted(await post("openai", withImage(dataUrl("image/jpeg", smallJpeg))), "jpeg as jpeg");
    accepted(await post("openai", withImage(dataUrl("image/png", tinyPng))), "png as png");
    accepted(await post("openai", withImage(dataUrl("image/gif", (await solid(9, 9).gif().toBuffer()).toString("base64")))), "gif");
    accepted(await post("openai", withImage(dataUrl("image/webp", (await solid(9, 9).webp().toBuffer()).toString("base64")))), "webp");
    accepted(await post("openai", withImage({ type: "image_url", image_url: { url: "https://example.com/a.png" } })), "web URL");
  });

  test("more than 500 images in a request is refused (our wording: the limit is documented, the text is not)", async () => {
    const images = (n: number) => ({ model: "gpt-4o", messages: [{ role: "user", content: [{ type: "text", text: "Count them." }, ...Array.from({ length: n }, () => dataUrl("image/png", tinyPng))] }] });
    assert.deepEqual(await post("openai", images(501)), { status: 400, body: openaiErr("Invalid 'messages': the request has 501 images; at most 500 are allowed per request.", "messages", null) });
    accepted(await post("openai", images(500)), "500 images");
  });

  test("a body over 50 MB is refused with 413 (our wording)", async () => {
    const limit = 50 * 1024 * 1024;
    const over = { model: "gpt-4o", messages: [{ role: "user", content: "x".repeat(limit) }] };
    const bytes = Buffer.byteLength(JSON.stringify(over));
    assert.deepEqual(await post("openai", over), {
      status: 413,
      body: { error: { message: `Request too large: the body is ${bytes} bytes; the limit is ${limit} bytes (50 MB).`, type: "invalid_request_error", param: null, code: "request_too_large" } },
    });
    accepted(await post("openai", { model: "gpt-4o", messages: [{ role: "user", content: "x".repeat(limit - 200) }] }), "just under 50 MB");
  });
});

describe("anthropic", () => {
  const message = (extra: Record<string, unknown> = {}, model = "claude-sonnet-4-5") => ({ model, max_tokens: 1024, messages: [{ role: "user", content: "Which way is the exit?" }], ...extra });
  const withBlocks = (blocks: unknown[], model = "claude-sonnet-4-5") => ({ model, max_tokens: 1024, messages: [{ role: "user", content: blocks }] });

  test("max_tokens is required", async () => {
    assert.deepEqual(await post("anthropic", { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "Hi" }] }), { status: 400, body: anthropicErr("max_tokens: Field required") });
    accepted(await post("anthropic", message()), "with max_tokens");
  });

  test("a system message inside messages is refused; the top-level system field is the way", async () => {
    const refused = await post("anthropic", { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }] });
    assert.deepEqual(refused, { status: 400, body: anthropicErr('messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.') });
    assert.deepEqual(await post("anthropic", { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "tool", content: "Hi" }] }), { status: 400, body: anthropicErr("messages.0.role: Input should be 'user' or 'assistant'") });
    accepted(await post("anthropic", message({ system: "Be brief." })), "top-level system");
    accepted(await post("anthropic", { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello." }, { role: "user", content: "Go on." }] }), "turns");
  });

  test("temperature with top_p is refused by Claude Opus 4.1 and later; one of them, or an older model, is fine", async () => {
    const both = anthropicErr("`temperature` and `top_p` cannot both be specified for this model. Please use only one.");
    for (const model of ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-haiku-4-5", "claude-haiku-4-5-20251001", "claude-opus-4-1-20250805", "claude-opus-4-5", "claude-sonnet-4-6"])
      assert.deepEqual(await post("anthropic", message({ temperature: 0, top_p: 0.9 }, model)), { status: 400, body: both }, model);
    accepted(await post("anthropic", message({ temperature: 0 })), "temperature alone");
    accepted(await post("anthropic", message({ top_p: 0.9 })), "top_p alone");
    for (const model of ["claude-sonnet-4-20250514", "claude-opus-4-20250514", "claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022"])
      accepted(await post("anthropic", message({ temperature: 0, top_p: 0.9 }, model)), model);
  });

  test("extended thinking: temperature only 1, budget at least 1024 and below max_tokens", async () => {
    const thinking = (budget: number, maxTokens: number, extra: Record<string, unknown> = {}) =>
      post("anthropic", { model: "claude-sonnet-4-5", max_tokens: maxTokens, thinking: { type: "enabled", budget_tokens: budget }, messages: [{ role: "user", content: "Think." }], ...extra });
    assert.deepEqual(await thinking(2048, 4096, { temperature: 0 }), {
      status: 400,
      body: anthropicErr("`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. Please consult our documentation at https://platform.claude.com/docs/en/build-with-claude/extended-thinking"),
    });
    assert.deepEqual(await thinking(512, 4096), { status: 400, body: anthropicErr("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024") });
    assert.deepEqual(await thinking(4096, 4096), {
      status: 400,
      body: anthropicErr("`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://platform.claude.com/docs/en/build-with-claude/extended-thinking#max-tokens-and-context-window-size"),
    });
    accepted(await thinking(2048, 4096), "thinking without temperature");
    accepted(await thinking(1024, 1025, { temperature: 1 }), "temperature 1, smallest budget");
  });

  test("more output tokens than the model can write is refused", async () => {
    assert.deepEqual(await post("anthropic", message({ max_tokens: 48000 }, "claude-opus-4-1-20250805")), {
      status: 400,
      body: anthropicErr("max_tokens: 48000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-1-20250805"),
    });
    accepted(await post("anthropic", message({ max_tokens: 32000 }, "claude-opus-4-1-20250805")), "32000");
    accepted(await post("anthropic", message({ max_tokens: 64000 }, "claude-sonnet-4-5")), "sonnet 64000");
  });

  test("fields the Messages API does not have, and empty text blocks, are refused", async () => {
    assert.deepEqual(await post("anthropic", message({ response_format: { type: "json_object" } })), { status: 400, body: anthropicErr("response_format: Extra inputs are not permitted") });
    assert.deepEqual(await post("anthropic", withBlocks([{ type: "text", text: "" }, { type: "text", text: "Hi" }])), { status: 400, body: anthropicErr("messages: text content blocks must be non-empty") });
    accepted(await post("anthropic", message({ stop_sequences: ["\n\n"], top_k: 5, metadata: { user_id: "u1" } })), "known fields");
    accepted(await post("anthropic", withBlocks([{ type: "text", text: " " }, { type: "text", text: "Hi" }])), "non-empty blocks");
  });

  test("an image media type outside jpeg/png/gif/webp is refused", async () => {
    assert.deepEqual(await post("anthropic", withBlocks([{ type: "text", text: "What is this?" }, claudeImage("image/bmp", BMP)])), {
      status: 400,
      body: anthropicErr("messages.0.content.1.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"),
    });
    accepted(await post("anthropic", withBlocks([{ type: "text", text: "What is this?" }, claudeImage("image/png", tinyPng)])), "png");
  });

  test("an image over 5 MB of base64 is refused, even when its file is under 5 MB", async () => {
    const big = (await noisePng(1200, 1200)).toString("base64");
    const bigFile = Buffer.from(big, "base64").length;
    assert.ok(bigFile < 5 * 1024 * 1024 && big.length > 5 * 1024 * 1024, `file ${bigFile}, base64 ${big.length}`);
    assert.deepEqual(await post("anthropic", withBlocks([claudeImage("image/png", big)])), {
      status: 400,
      body: anthropicErr(`messages.0.content.0.image.source.base64: image exceeds 5 MB maximum: ${big.length} bytes > 5242880 bytes`),
    });
    const fits = (await noisePng(1100, 1100)).toString("base64");
    assert.ok(fits.length <= 5 * 1024 * 1024, String(fits.length));
    accepted(await post("anthropic", withBlocks([claudeImage("image/png", fits)])), "4.8 MB of base64");
  });

  test("JPEG bytes declared as image/png are refused; declared as image/jpeg they are fine", async () => {
    assert.deepEqual(await post("anthropic", withBlocks([claudeImage("image/png", smallJpeg), { type: "text", text: "What is this?" }])), {
      status: 400,
      body: anthropicErr("messages.0.content.0.image.source.base64: The image was specified using the image/png media type, but the image appears to be a image/jpeg image"),
    });
    assert.deepEqual(await post("anthropic", withBlocks([claudeImage("image/png", Buffer.from("not a picture").toString("base64"))])), { status: 400, body: anthropicErr("Could not process image") });
    accepted(await post("anthropic", withBlocks([claudeImage("image/jpeg", smallJpeg), { type: "text", text: "What is this?" }])), "jpeg as jpeg");
  });

  test("a side over 8000 px is refused", async () => {
    const wide = await pngOf(8001, 10);
    const tall = await pngOf(10, 8001);
    const tooBig = anthropicErr("messages.0.content.1.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels");
    assert.deepEqual(await post("anthropic", withBlocks([{ type: "text", text: "Look." }, claudeImage("image/png", wide)])), { status: 400, body: tooBig });
    assert.deepEqual(await post("anthropic", withBlocks([{ type: "text", text: "Look." }, claudeImage("image/png", tall)])), { status: 400, body: tooBig });
    accepted(await post("anthropic", withBlocks([{ type: "text", text: "Look." }, claudeImage("image/png", await pngOf(8000, 10))])), "8000 px");
  });

  test("with more than 20 images, a side over 2000 px is refused", async () => {
    const large = await pngOf(2001, 2001);
    const edge = await pngOf(2000, 2000);
    const small = await pngOf(64, 64);
    const blocks = (count: number, big: string) => [{ type: "text", text: "Compare." }, ...Array.from({ length: count - 1 }, () => claudeImage("image/png", small)), claudeImage("image/png", big)];
    assert.deepEqual(await post("anthropic", withBlocks(blocks(21, large))), {
      status: 400,
      body: anthropicErr("messages.0.content.21.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels"),
    });
    accepted(await post("anthropic", withBlocks(blocks(20, large))), "20 images, one 2001 px");
    accepted(await post("anthropic", withBlocks(blocks(21, edge))), "21 images, one 2000 px");
  });

  test("more than 100 images is refused", async () => {
    const images = (n: number) => withBlocks([{ type: "text", text: "Count." }, ...Array.from({ length: n }, () => claudeImage("image/png", tinyPng))]);
    assert.deepEqual(await post("anthropic", images(101)), { status: 400, body: anthropicErr("Too much media: 0 document pages + 101 images > 100") });
    accepted(await post("anthropic", images(100)), "100 images");
  });

  test("a body over 32 MB is refused with 413 request_too_large", async () => {
    const limit = 32 * 1024 * 1024;
    assert.deepEqual(await post("anthropic", message({ messages: [{ role: "user", content: "x".repeat(limit) }] })), {
      status: 413,
      body: { error: { type: "request_too_large", message: "Request exceeds the maximum size" } },
    });
    accepted(await post("anthropic", message({ messages: [{ role: "user", content: "x".repeat(limit - 200) }] })), "just under 32 MB");
  });
});

describe("gemini", () => {
  const FLASH = "gemini-2.5-flash";

  test("a role other than user or model is refused", async () => {
    for (const role of ["assistant", "system"])
      assert.deepEqual(await post("gemini", generate([user({ text: "Hi" }), { role, parts: [{ text: "Hello." }] }]), FLASH), { status: 400, body: geminiErr("Please use a valid role: user, model.") }, role);
    accepted(await post("gemini", generate([user({ text: "Hi" }), { role: "model", parts: [{ text: "Hello." }] }, user({ text: "Go on." })], { systemInstruction: { parts: [{ text: "Be brief." }] } }), FLASH), "user/model");
  });

  test("JSON mode needs no word json in the prompt", async () => {
    accepted(await post("gemini", generate([user({ text: "Answer: ... Explanation: ..." })], { generationConfig: { responseMimeType: "application/json", temperature: 0, topP: 1, maxOutputTokens: 100 } }), FLASH), "json mode");
  });

  test("a body over 20 MB is refused", async () => {
    const limit = 20 * 1024 * 1024;
    assert.deepEqual(await post("gemini", generate([user({ text: "x".repeat(limit) })]), FLASH), { status: 400, body: geminiErr("Request payload size exceeds the limit: 20971520 bytes.") });
    accepted(await post("gemini", generate([user({ text: "x".repeat(limit - 200) })]), FLASH), "just under 20 MB");
  });

  test("JPEG bytes declared as image/png cannot be processed; an unsupported MIME type is named", async () => {
    const unable = geminiErr("Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting");
    assert.deepEqual(await post("gemini", generate([user({ text: "What is this?" }, inline("image/png", smallJpeg))]), FLASH), { status: 400, body: unable });
    assert.deepEqual(await post("gemini", generate([user(inline("image/bmp", BMP))]), FLASH), { status: 400, body: geminiErr("Unsupported MIME type: image/bmp") });
    accepted(await post("gemini", generate([user({ text: "What is this?" }, inline("image/jpeg", smallJpeg))]), FLASH), "jpeg as jpeg");
    accepted(await post("gemini", generate([user(inline("image/webp", (await solid(9, 9).webp().toBuffer()).toString("base64")))]), FLASH), "webp");
  });

  test("unknown fields, at the top or in generationConfig, are refused", async () => {
    assert.deepEqual(await post("gemini", generate([user({ text: "Hi" })], { response_format: { type: "json_object" } }), FLASH), {
      status: 400,
      body: geminiErr('Invalid JSON payload received. Unknown name "response_format": Cannot find field.'),
    });
    assert.deepEqual(await post("gemini", generate([user({ text: "Hi" })], { generationConfig: { max_tokens: 100 } }), FLASH), {
      status: 400,
      body: geminiErr("Invalid JSON payload received. Unknown name \"max_tokens\" at 'generation_config': Cannot find field."),
    });
    accepted(await post("gemini", generate([user({ text: "Hi" })], { generationConfig: { maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 0 }, stopSequences: ["\n"] }, safetySettings: [] }), FLASH), "known fields");
  });

  test("gemini-2.5-pro cannot turn thinking off; gemini-2.5-flash can", async () => {
    const noThinking = { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } };
    assert.deepEqual(await post("gemini", generate([user({ text: "Hi" })], noThinking), "gemini-2.5-pro"), { status: 400, body: geminiErr("Budget 0 is invalid. This model only works in thinking mode.") });
    accepted(await post("gemini", generate([user({ text: "Hi" })], noThinking), FLASH), "flash, budget 0");
    accepted(await post("gemini", generate([user({ text: "Hi" })], { generationConfig: { thinkingConfig: { thinkingBudget: 128 } } }), "gemini-2.5-pro"), "pro, budget 128");
  });
});

describe("the server around the rules", () => {
  test("each rejection is recorded in stats.rejected; strict off accepts the same request", async () => {
    const body = { model: "gpt-4o", messages: [{ role: "user", content: "Go." }], response_format: { type: "json_object" } };
    const before = strict.stats.rejected.length;
    assert.equal((await post("openai", body)).status, 400);
    assert.deepEqual(strict.stats.rejected.slice(before), [
      { status: 400, message: "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", provider: "openai", model: "gpt-4o", rule: "openai.json_without_json_word" },
    ]);
    accepted(await post("openai", body, "gpt-4o", lenient), "lenient server");
    assert.deepEqual(lenient.stats.rejected, []);
  });

  test("reasoning fault: reasoning beside the answer, in each provider's field", async () => {
    fault = { type: "reasoning", text: "Two doors; the left one is open." };
    try {
      const openai = await post("openai", { model: "deepseek-r1", messages: [{ role: "user", content: "Which door?" }] });
      assert.equal(openai.body.choices[0].message.content, "The answer is A.");
      assert.equal(openai.body.choices[0].message.reasoning_content, "Two doors; the left one is open.");
      assert.deepEqual(openai.body.usage.completion_tokens_details, { reasoning_tokens: 8 });
      const claude = await post("anthropic", { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "Which door?" }] });
      assert.deepEqual(claude.body.content, [
        { type: "thinking", thinking: "Two doors; the left one is open.", signature: "mock-signature" },
        { type: "text", text: "The answer is A." },
      ]);
      const gemini = await post("gemini", generate([user({ text: "Which door?" })]), "gemini-2.5-flash");
      assert.deepEqual(gemini.body.candidates[0].content.parts, [{ text: "Two doors; the left one is open.", thought: true }, { text: "The answer is A." }]);
      assert.equal(gemini.body.usageMetadata.thoughtsTokenCount, 8);
    } finally {
      fault = undefined;
    }
  });

  test("length fault: a reply cut by the token limit, with partial text or none", async () => {
    fault = { type: "length" };
    try {
      const openai = await post("openai", { model: "gpt-4o", messages: [{ role: "user", content: "Go." }] });
      assert.deepEqual(openai.body.choices[0], { index: 0, message: { role: "assistant", content: "The answ" }, finish_reason: "length" });
      const claude = await post("anthropic", { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "Go." }] });
      assert.equal(claude.body.stop_reason, "max_tokens");
      assert.deepEqual(claude.body.content, [{ type: "text", text: "The answ" }]);
      const gemini = await post("gemini", generate([user({ text: "Go." })]), "gemini-2.5-flash");
      assert.equal(gemini.body.candidates[0].finishReason, "MAX_TOKENS");
      assert.deepEqual(gemini.body.candidates[0].content.parts, [{ text: "The answ" }]);
      fault = { type: "length", text: "" };
      const empty = await post("anthropic", { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "Go." }] });
      assert.deepEqual({ content: empty.body.content, stop: empty.body.stop_reason }, { content: [], stop: "max_tokens" });
      const emptyGemini = await post("gemini", generate([user({ text: "Go." })]), "gemini-2.5-flash");
      assert.deepEqual(emptyGemini.body.candidates[0].content.parts, []);
    } finally {
      fault = undefined;
    }
  });

  test("mock-server-main --strict refuses and logs each refusal as a JSON line on stderr", async () => {
    const main = fileURLToPath(new URL("../helpers/mock-server-main.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", main, "--strict"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const { url } = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve))) as { url: string };
      const logged = new Promise<string>((resolve) => createInterface({ input: child.stderr! }).once("line", resolve));
      const res = await fetch(`${url}/v1/messages`, { method: "POST", body: JSON.stringify({ model: "claude-haiku-4-5", messages: [{ role: "user", content: "Hi" }] }) });
      assert.equal(res.status, 400);
      assert.deepEqual(JSON.parse(await logged), { status: 400, message: "max_tokens: Field required", provider: "anthropic", model: "claude-haiku-4-5", rule: "anthropic.max_tokens_missing" });
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
  });
});
