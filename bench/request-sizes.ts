/**
 * Request sizes before and after shaping (models/shape.ts), against each provider's documented
 * request limit (models/limits.ts), for EgoTL-Bench items on a 1280x720 clip:
 *
 *   node --import tsx bench/request-sizes.ts
 *
 * Environment (optional): SIZES_BENCH_SECONDS (clip length, default 10).
 *
 * Steps, one run (the ratios are measurements, not tests):
 *   1. make a 30 fps 1280x720 H.264 clip from ffmpeg's testsrc2 with film grain (the noise filter),
 *      so a frame weighs what a camera frame does as PNG (about 0.8 MB) — untimed;
 *   2. load a planning item (16 uniform frames) and a distance item (48 uniform frames) with the
 *      EgoTL loader and build their prompts as `run` does (template prompts, full-size PNG frames);
 *   3. for each provider, the JSON body as built (before) and after shaping to the benchmark's
 *      default budget, and the ratios after / before and after / the provider's request limit.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { egotl } from "../src/benchmarks/egotl/index.js";
import type { Message } from "../src/core/types.js";
import { DEFAULT_SETTINGS } from "../src/core/types.js";
import { anthropicBody } from "../src/models/anthropic.js";
import { geminiBody } from "../src/models/gemini.js";
import { PROVIDER_LIMITS } from "../src/models/limits.js";
import { openaiBody } from "../src/models/openai.js";
import { resolveImageBudgets, shapeMessages } from "../src/models/shape.js";

const seconds = Number(process.env["SIZES_BENCH_SECONDS"] ?? 10);
const PROVIDERS = [
  { name: "openai", model: "gpt-4o", body: openaiBody },
  { name: "anthropic", model: "claude-sonnet-4-5", body: anthropicBody },
  { name: "gemini", model: "gemini-2.5-flash", body: geminiBody },
] as const;

const MB = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

function makeClip(file: string): void {
  const args = ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=1280x720:rate=30:duration=${seconds}`, "-vf", "noise=alls=20:allf=t", "-pix_fmt", "yuv420p", "-c:v", "libx264", file];
  const done = spawnSync("ffmpeg", args, { stdio: ["ignore", "ignore", "pipe"] });
  if (done.status !== 0) throw new Error(`ffmpeg failed: ${done.stderr.toString()}`);
}

function bodyBytes(provider: (typeof PROVIDERS)[number], messages: Message[]): number {
  return Buffer.byteLength(JSON.stringify(provider.body(provider.model, { itemId: "bench", messages, settings: DEFAULT_SETTINGS })));
}

const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-sizes-"));
try {
  makeClip(path.join(dir, "walk.mp4"));
  const options = ["1. Walk straight. 2. Turn right.", "1. Turn right. 2. Walk straight.", "1. Turn left. 2. Walk straight.", "1. Walk straight. 2. Turn left."];
  const rows = [
    { id: "planning-16", task: "planning", video_id: "walk", media: { video: "walk.mp4", spec: { mode: "uniform", count: 16 } }, abstract_task: "Walk to the far wall.", options, answer: "A" },
    { id: "distance-48", task: "distance", video_id: "walk", media: { video: "walk.mp4", spec: { mode: "uniform", count: 48 } }, answer: 4.5 },
  ];
  writeFileSync(path.join(dir, "test.jsonl"), rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
  const loaded = egotl.load(path.join(dir, "test.jsonl"));
  if (loaded.problems.length > 0) throw new Error(JSON.stringify(loaded.problems));
  const budgets = resolveImageBudgets(egotl.imageBudget);
  console.log(`EgoTL-Bench on a ${seconds} s 1280x720 clip; default budget ${JSON.stringify(budgets.frame)}`);
  for (const item of loaded.items) {
    for (const provider of PROVIDERS) {
      const limits = PROVIDER_LIMITS[provider.name];
      const { build } = egotl.preparePrompts([item], { source: "templates", control: "none", seed: 0, maxImages: limits.maxImages.count });
      const prompt = await build(item);
      if ("error" in prompt) throw new Error(prompt.error);
      const before = bodyBytes(provider, prompt.messages);
      const shaped = await shapeMessages(prompt.messages, limits, budgets);
      if ("error" in shaped) throw new Error(shaped.error.message);
      const after = bodyBytes(provider, shaped.messages);
      const limit = limits.requestBytes.max;
      console.log(
        `${item.id.padEnd(12)} ${provider.name.padEnd(9)} ${String(shaped.images.length).padStart(2)} images  before ${MB(before).padStart(10)}` +
          `  after ${MB(after).padStart(9)}  after/before ${(after / before).toFixed(3)}  after/limit ${(after / limit).toFixed(3)} (limit ${MB(limit)})` +
          `  before/limit ${(before / limit).toFixed(2)}  [${shaped.images[0]!.transform}]`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
