/**
 * EgoPathBench on the queue: one job per house. The generator makes house s from (seed, s) and the
 * options alone (construct/index.ts generateEgoPathHouse: random streams deriveSeed(seed, s + 1)
 * and deriveSeed(seed, 1000 + s), splits from the seed and the house count), so a worker builds,
 * renders and labels one house; the coordinator puts the houses together with the local
 * generator's own assembly (assembleEgoPathRelease).
 */
import { checkSeedAndSize } from "../../benchmarks/generate-settings.js";
import type { EgoPathHouse, GenerateEgoPathOptions } from "../../benchmarks/egopath/construct/index.js";
import type { GenerateSpec } from "../spec.js";
import type { QueuedGenerator } from "./types.js";

const construct = () => import("../../benchmarks/egopath/construct/index.js");

/** The JSON of a house without its files (those are stored as the job's files). */
type HouseRecord = Omit<EgoPathHouse, "files">;

async function generatorOptions(spec: GenerateSpec, outDir: string): Promise<GenerateEgoPathOptions> {
  const { generateOptions } = await construct();
  checkSeedAndSize(spec.seed, "scenes", spec.count);
  return { outDir, seed: spec.seed, scenes: spec.count, ...(spec.assetsDir ? { assetsDir: spec.assetsDir } : {}), command: spec.command, ...generateOptions(spec.extra) };
}

export const egoPathGenerator: QueuedGenerator = {
  benchmark: "egopath",
  unit: "houses",
  async plan(request, spec) {
    await generatorOptions(spec, request.outDir);
    const { egoPathSceneId } = await construct();
    return { jobIds: Array.from({ length: spec.count }, (_, s) => egoPathSceneId(s)) };
  },
  async open(spec) {
    const { egoPathShared, generateEgoPathHouse } = await construct();
    const options = await generatorOptions(spec, "");
    const shared = egoPathShared(spec.assetsDir);
    return {
      async run(index) {
        const { files, ...record } = await generateEgoPathHouse(options, index, shared);
        // Text files as their UTF-8 bytes: what writeFileSet writes for a string.
        const bytes = new Map([...files].map(([rel, content]) => [rel, typeof content === "string" ? Buffer.from(content, "utf8") : content]));
        return { record: JSON.stringify(record satisfies HouseRecord), files: bytes };
      },
      close: () => shared.library.close(),
    };
  },
  async assemble(request, spec, jobs) {
    const { assembleEgoPathRelease, generateSummary } = await construct();
    const { readLibraries } = await import("../../world/assets/catalog.js");
    const options = await generatorOptions(spec, request.outDir);
    const houses: EgoPathHouse[] = [];
    for (const job of await jobs.all()) houses.push({ ...(JSON.parse(job.record) as HouseRecord), files: new Map<string, string | Buffer>(await jobs.files(job.index)) });
    for (const house of houses) request.log(house.line);
    const result = await assembleEgoPathRelease({ ...options, log: request.log }, houses, readLibraries(spec.assetsDir));
    return generateSummary(spec.count, result);
  },
};
