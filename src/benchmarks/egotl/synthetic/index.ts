/**
 * Synthetic EgoTL-Bench-format data for offline demos and tests.
 *
 * Regenerate the bundled example from the repository root:
 *   node --import tsx src/benchmarks/egotl/synthetic/index.ts --out examples/egotl-mini --seed 7
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { generateEgoTLSet } from "./generate.js";

export { generateEgoTLSet, README_MARK, type GenerateOptions, type GenerateSummary } from "./generate.js";
export { generateWalkthrough, segmentFrames, type Walkthrough, type Segment, type Motion, type Pose } from "./world.js";
export { renderPixels, renderPng, DEFAULT_RENDER, type RenderOptions } from "./render.js";
export { walkthroughQuestions, actionText, routeText } from "./questions.js";

export const EXAMPLE_DEFAULTS = { outDir: "examples/egotl-mini", seed: 7, walkthroughs: 6, perTask: 5 } as const;

/** Command-line entry: `--out DIR --seed N --walkthroughs N --per-task N` (defaults build examples/egotl-mini). */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: "string", default: EXAMPLE_DEFAULTS.outDir },
      seed: { type: "string", default: String(EXAMPLE_DEFAULTS.seed) },
      walkthroughs: { type: "string", default: String(EXAMPLE_DEFAULTS.walkthroughs) },
      "per-task": { type: "string", default: String(EXAMPLE_DEFAULTS.perTask) },
    },
  });
  const opts = { seed: Number(values.seed), walkthroughs: Number(values.walkthroughs), perTask: Number(values["per-task"]) };
  const outArg = values.out.split(path.sep).join("/");
  const command = `node --import tsx src/benchmarks/egotl/synthetic/index.ts --out ${outArg} --seed ${opts.seed} --walkthroughs ${opts.walkthroughs} --per-task ${opts.perTask}`;
  const summary = await generateEgoTLSet({ outDir: values.out, ...opts, command, log: (line) => process.stderr.write(`${line}\n`) });
  process.stderr.write(`wrote ${values.out}: ${summary.text}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
