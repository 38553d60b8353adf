/**
 * Synthetic VCN-Bench-format data for offline demos and tests.
 *
 * Regenerate the bundled example from the repository root:
 *   node --import tsx src/benchmarks/vcn/synthetic/index.ts --out examples/vcn-mini --seed 11 --houses 3
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { generateVcnSet } from "./generate.js";

export { generateVcnSet, type VcnGenerateOptions, type VcnGenerateSummary } from "./generate.js";
export { generateHouse, shortestWalk, roomAt, type House } from "./house.js";
export { planTour, annotate, viewContent, type Pose } from "./tour.js";
export { renderView } from "./render.js";

export const EXAMPLE_DEFAULTS = { outDir: "examples/vcn-mini", seed: 11, houses: 3 } as const;

/** Command-line entry: `--out DIR --seed N --houses N` (defaults build examples/vcn-mini). */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: "string", default: EXAMPLE_DEFAULTS.outDir },
      seed: { type: "string", default: String(EXAMPLE_DEFAULTS.seed) },
      houses: { type: "string", default: String(EXAMPLE_DEFAULTS.houses) },
    },
  });
  const seed = Number(values.seed);
  const houses = Number(values.houses);
  const out = values.out.split(path.sep).join("/");
  const command = `node --import tsx src/benchmarks/vcn/synthetic/index.ts --out ${out} --seed ${seed} --houses ${houses}`;
  const summary = await generateVcnSet({ outDir: values.out, seed, houses, command, log: (line) => process.stderr.write(`${line}\n`) });
  process.stderr.write(`wrote ${values.out}: ${summary.items} questions, ${summary.frames} frames, ${summary.episodes} episodes\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
