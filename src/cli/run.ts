import { InvalidArgumentError, type Command } from "commander";
import { executeRun } from "../core/session.js";
import { getBenchmark } from "../registry.js";
import { integer, number, positiveInteger } from "./main.js";
import { addScoringFlags, benchmarkOptions, defaultOut } from "./shared.js";

/** A number of seconds above zero (fractions allowed). */
function positiveSeconds(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError("must be a number of seconds above 0");
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
    .option("--timeout-ms <n>", "per-request timeout (default 120000)", positiveInteger)
    .option("--max-attempts <n>", "attempts per request including retries (default 6)", positiveInteger)
    .option("--max-retry-wait <seconds>", "longest server-asked wait (Retry-After) honoured, in full (default 120); a longer one ends the request as an error", positiveSeconds)
    .option("--max-reply-bytes <n>", "cap on a reply's text (default 4194304 = 4 MiB): longer replies are cut to it and marked truncated in items.jsonl; a body over 4x the cap + 1 MiB fails", positiveInteger)
    .option("--rpm <n>", "requests-per-minute limit for the provider", number)
    .option("--max-images <n>", "most images per request (video frames are thinned evenly to fit)", positiveInteger)
    .option("--no-json-output", "do not ask the provider for JSON output")
    .option("--retry-errors", "ask again for items whose stored reply is an error")
    .option("--store <file>", "response store (default: <out>/responses.sqlite)")
    .action(async (benchmarkId: string, opts) => {
      const benchmark = getBenchmark(benchmarkId);
      const out = opts.out ?? defaultOut(benchmarkId, opts.model);
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
            timeout_ms: opts.timeoutMs,
            max_attempts: opts.maxAttempts,
            max_retry_wait: opts.maxRetryWait,
            max_reply_bytes: opts.maxReplyBytes,
            rpm: opts.rpm,
            max_images: opts.maxImages,
            ...(opts.jsonOutput === false ? { json_output: false } : {}),
          },
          retryErrors: Boolean(opts.retryErrors),
          storeFile: opts.store,
          signal: controller.signal,
        });
        console.log(benchmark.terminal(scores));
        if (scores.counts.errors > 0) {
          console.log(`${scores.counts.errors} requests ended in errors and are not scored; run again with --retry-errors to ask them again.`);
        }
        const truncated = results.filter((r) => r.response?.truncated).length;
        if (truncated > 0) {
          console.log(`${truncated} ${truncated === 1 ? "reply was" : "replies were"} longer than the reply cap (--max-reply-bytes) and cut to it; items.jsonl marks them with response.truncated.`);
        }
        console.log(`wrote ${out}/scores.json, items.jsonl, report.md, predictions.jsonl`);
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}
