/**
 * EPIC-Bench on the queue: one job per house. House h comes from (seed, h) and the options alone
 * (construct/index.ts generateEpicHouse: random streams deriveSeed(seed, 1000 + h) and
 * deriveSeed(seed, h + 1)); only the sample numbers (0001, ...) run on across houses, so a job's
 * files carry house-local names and the coordinator's assembly (assembleEpicRelease, the local
 * generator's own) numbers and names the samples in house order.
 */
import { checkSeedAndSize } from "../../benchmarks/generate-settings.js";
import type { GenerateEpicOptions } from "../../benchmarks/epic/construct/index.js";
import type { GenerateSpec } from "../spec.js";
import type { QueuedGenerator } from "./types.js";

const construct = () => import("../../benchmarks/epic/construct/index.js");

async function generatorOptions(spec: GenerateSpec, outDir: string): Promise<GenerateEpicOptions> {
  const { generateOptions } = await construct();
  checkSeedAndSize(spec.seed, "houses", spec.count);
  return { outDir, seed: spec.seed, houses: spec.count, ...(spec.assetsDir ? { assetsDir: spec.assetsDir } : {}), command: spec.command, ...generateOptions(spec.extra) };
}

export const epicGenerator: QueuedGenerator = {
  benchmark: "epic",
  unit: "houses",
  async plan(request, spec) {
    await generatorOptions(spec, request.outDir);
    const { epicHouseId } = await construct();
    return { jobIds: Array.from({ length: spec.count }, (_, h) => epicHouseId(h)) };
  },
  async open(spec) {
    const { epicSettings, epicShared, generateEpicHouse } = await construct();
    const settings = epicSettings(await generatorOptions(spec, ""));
    const shared = epicShared(spec.assetsDir);
    return {
      async run(index) {
        const { record, files } = await generateEpicHouse(spec.seed, index, settings, shared);
        return { record, files };
      },
      close: () => shared.library.close(),
    };
  },
  async assemble(request, spec, jobs) {
    const { assembleEpicRelease, epicSummary } = await construct();
    const { readLibraries } = await import("../../world/assets/catalog.js");
    const options = await generatorOptions(spec, request.outDir);
    const done = await jobs.all();
    for (const job of done) request.log((JSON.parse(job.record) as { line: string }).line);
    const result = await assembleEpicRelease({ ...options, log: request.log }, done.map((j) => j.record), (h) => jobs.files(done[h]!.index), readLibraries(spec.assetsDir));
    return epicSummary(spec.count, result, request.log);
  },
};
