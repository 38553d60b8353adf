import type { Command } from "commander";
import { executeRun } from "../core/session.js";
import { getBenchmark } from "../registry.js";
import { integer, number, positiveInteger } from "./main.js";
import { addScoringFlags, benchmarkOptions, defaultOut } from "./shared.js";

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
        const { scores } = await executeRun({
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
        console.log(`wrote ${out}/scores.json, items.jsonl, report.md, predictions.jsonl`);
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}
