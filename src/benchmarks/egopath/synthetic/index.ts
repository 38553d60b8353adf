/**
 * Synthetic EgoPathBench-format data for offline demos and tests.
 *
 * Regenerate the bundled example from the repository root:
 *   node --import tsx src/benchmarks/egopath/synthetic/index.ts --out examples/egopath-mini --seed 7 --scenes 6 --views 2
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { generateSyntheticRelease } from "./generate.js";

export { generateSyntheticRelease, type SyntheticOptions, type SyntheticResult } from "./generate.js";
export { TASK_CODES, type TaskCode } from "./questions.js";

export const EXAMPLE_DEFAULTS = { outDir: "examples/egopath-mini", seed: 7, scenes: 6, viewsPerScene: 2 } as const;

/** Command-line entry: `--out DIR --seed N --scenes N --views N` (defaults build examples/egopath-mini). */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: "string", default: EXAMPLE_DEFAULTS.outDir },
      seed: { type: "string", default: String(EXAMPLE_DEFAULTS.seed) },
      scenes: { type: "string", default: String(EXAMPLE_DEFAULTS.scenes) },
      views: { type: "string", default: String(EXAMPLE_DEFAULTS.viewsPerScene) },
    },
  });
  const opts = { seed: Number(values.seed), scenes: Number(values.scenes), viewsPerScene: Number(values.views) };
  const outArg = values.out.split(path.sep).join("/");
  const command =
    "node --import tsx src/benchmarks/egopath/synthetic/index.ts " +
    `--out ${outArg} --seed ${opts.seed} --scenes ${opts.scenes} --views ${opts.viewsPerScene}`;
  const { questions } = await generateSyntheticRelease({ outDir: values.out, ...opts, command });
  process.stderr.write(
    `wrote ${values.out}: ${Object.entries(questions).map(([t, n]) => `${t} ${n}`).join(", ")}\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
