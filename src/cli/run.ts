import { InvalidArgumentError, type Command } from "commander";
import { executeRun } from "../core/session.js";
import { CostLimitReached } from "../core/cost.js";
import { getBenchmark } from "../registry.js";
import { integer, number, positiveInteger } from "./main.js";
import { readConfigFile, REASONING_EFFORTS } from "../core/config.js";
import { usageLine } from "../report/run-facts.js";
import { addScoringFlags, benchmarkOptions, defaultOut, reportCompleteness } from "./shared.js";

/** A number of seconds above zero (fractions allowed). */
function positiveSeconds(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError("must be a number of seconds above 0");
  return value;
}

/** An amount of US dollars above zero. */
function positiveUsd(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError("must be an amount of US dollars above 0");
  return value;
}

function reasoningEffort(text: string): (typeof REASONING_EFFORTS)[number] {
  if (!(REASONING_EFFORTS as readonly string[]).includes(text)) throw new InvalidArgumentError(`must be one of ${REASONING_EFFORTS.join(", ")}`);
  return text as (typeof REASONING_EFFORTS)[number];
}

function imageFormat(text: string): "png" | "jpeg" {
  if (text !== "png" && text !== "jpeg") throw new InvalidArgumentError("must be png or jpeg");
  return text;
}

function jpegQuality(text: string): number {
  const value = integer(text);
  if (value < 1 || value > 100) throw new InvalidArgumentError("must be a whole number from 1 to 100");
  return value;
}

export function registerRun(program: Command): void {
  const command = program
    .command("run <benchmark>")
    .description("run a model on a benchmark and score it (replies are stored: re-running resumes)")
    .requiredOption("--model <spec>", "openai:<model> | anthropic:<model> | gemini:<model> | replay:<file> | a built-in (oracle, random[:seed], ...)");
  addScoringFlags(command)
    .option("--concurrency <n>", "requests in flight (default 8)", positiveInteger)
    .option("--prompt <variant>", "egopath: release (default) | templates; patheval: plain (default) | with-descriptors | descriptors-only | random-ids | flipped | attribute-abstraction | fine-grained; epic: mask-overlay (default) | box-overlay | no-overlay; vcn: plain (default) | shuffled-frames | counterfactual")
    .option("--template <file>", "template file for --prompt templates (default: templates/<benchmark>.yaml)")
    .option("--control <name>", "egopath input-dependence control: none (default) | text-only | mismatched-overlay")
    .option("--seed <n>", "seed for controls that draw at random", integer, 20260717)
    .option("--config <file>", "YAML config with model settings (flags win)")
    .option("--base-url <url>", "API base URL (vLLM, SGLang, Ollama, LM Studio, OpenRouter, or a proxy)")
    .option("--temperature <t>", "sampling temperature (default 0)", number)
    .option("--top-p <p>", "nucleus sampling (default 1)", number)
    .option("--max-tokens <n>", "output token limit (default 8192)", positiveInteger)
    .option("--reasoning-effort <level>", "OpenAI reasoning models (o-series, gpt-5): none | minimal | low | medium | high | xhigh (default: the model's own)", reasoningEffort)
    .option("--thinking-budget <tokens>", "Anthropic extended thinking / Gemini 2.5 thinking budget in tokens (0 = off where the model allows it, -1 = Gemini's dynamic budget)", integer)
    .option("--timeout-ms <n>", "per-request timeout (default 120000)", positiveInteger)
    .option("--max-attempts <n>", "attempts per request including retries (default 6)", positiveInteger)
    .option("--max-retry-wait <seconds>", "longest server-asked wait (Retry-After) honoured, in full (default 120); a longer one ends the request as an error", positiveSeconds)
    .option("--max-reply-bytes <n>", "cap on a reply's text (default 4194304 = 4 MiB): longer replies are cut to it and marked truncated in items.jsonl; a body over 4x the cap + 1 MiB fails", positiveInteger)
    .option("--rpm <n>", "requests-per-minute limit for the provider", number)
    .option("--max-images <n>", "most images per request (default: the provider's limit; video frames are thinned evenly to fit)", positiveInteger)
    .option("--max-pixels <n>", "largest area (width x height) of each image sent, pictures and video frames alike; overrides the benchmark's default (EPIC pictures keep their size: answers are pixel coordinates)", positiveInteger)
    .option("--image-format <format>", "encoding of images sent: png | jpeg (default: the benchmark's, e.g. JPEG for video frames)", imageFormat)
    .option("--jpeg-quality <q>", "JPEG quality 1-100 when images go as JPEG (default 85)", jpegQuality)
    .option("--json-output", "ask for JSON output mode on every item (default: only on tasks whose output contract is a JSON object)")
    .option("--no-json-output", "never ask for JSON output mode")
    .option("--max-cost <usd>", "stop before a run whose projected cost exceeds this many US dollars (exit status 4; needs price: for the model in the config)", positiveUsd)
    .option("--retry-errors", "ask again for items whose stored reply is an error")
    .option("--store <file>", "response store (default: <out>/responses.sqlite)")
    .action(async (benchmarkId: string, opts) => {
      const benchmark = getBenchmark(benchmarkId);
      // --name, else the config's `name:` (executeRun reads it the same way); it also names the default folder.
      const name: string | undefined = opts.name ?? (opts.config ? readConfigFile(opts.config).name : undefined);
      const out = opts.out ?? defaultOut(benchmarkId, opts.model, name);
      const controller = new AbortController();
      const onSignal = () => controller.abort(new Error("interrupted"));
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        const { scores, results } = await executeRun({
          benchmark: benchmarkId,
          benchmarkOptions: benchmarkOptions(opts),
          data: opts.data,
          tasks: opts.tasks,
          limit: opts.limit,
          out,
          bootstrapResamples: opts.bootstrap,
          bootstrapSeed: opts.bootstrapSeed,
          quiet: opts.quiet,
          ...(name ? { name } : {}),
          model: opts.model,
          concurrency: opts.concurrency,
          promptSource: opts.prompt ?? benchmark.promptSources[0]!,
          control: opts.control ?? benchmark.promptControls[0]!,
          templateFile: opts.template,
          seed: opts.seed,
          configFile: opts.config,
          flags: {
            base_url: opts.baseUrl,
            temperature: opts.temperature,
            top_p: opts.topP,
            max_tokens: opts.maxTokens,
            reasoning_effort: opts.reasoningEffort,
            thinking_budget: opts.thinkingBudget,
            timeout_ms: opts.timeoutMs,
            max_attempts: opts.maxAttempts,
            max_retry_wait: opts.maxRetryWait,
            max_reply_bytes: opts.maxReplyBytes,
            rpm: opts.rpm,
            max_images: opts.maxImages,
            max_pixels: opts.maxPixels,
            image_format: opts.imageFormat,
            jpeg_quality: opts.jpegQuality,
            ...(opts.jsonOutput !== undefined ? { json_output: Boolean(opts.jsonOutput) } : {}),
            max_cost: opts.maxCost,
          },
          retryErrors: Boolean(opts.retryErrors),
          storeFile: opts.store,
          signal: controller.signal,
        });
        console.log(benchmark.terminal(scores));
        if (scores.counts.errors > 0) {
          // A prompt that cannot be built, or a request that cannot fit the provider's limits, fails again if asked again.
          const retryable = results.filter((r) => r.status === "error" && !["prompt", "limit"].includes(r.response?.error?.kind ?? "")).length;
          const hint = retryable > 0 ? `; run again with --retry-errors to ask ${retryable === scores.counts.errors ? "them" : `the ${retryable} that may succeed`} again` : " (their prompts or requests cannot be made: see items.jsonl)";
          console.log(`${scores.counts.errors} requests ended in errors and are not scored${hint}.`);
        }
        const truncated = results.filter((r) => r.response?.truncated).length;
        if (truncated > 0) {
          console.log(`${truncated} ${truncated === 1 ? "reply was" : "replies were"} longer than the reply cap (--max-reply-bytes) and cut to it; items.jsonl marks them with response.truncated.`);
        }
        const usage = usageLine(scores);
        if (usage) console.log(usage);
        console.log(`wrote ${out}/scores.json, items.jsonl, report.md, predictions.jsonl`);
        reportCompleteness(scores, Boolean(opts.allowIncomplete));
      } catch (error) {
        if (!(error instanceof CostLimitReached)) throw error;
        console.error(error.message);
        process.exitCode = 4;
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}
