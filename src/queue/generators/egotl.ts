/**
 * EgoTL-Bench on the queue: one job per rendered episode. The coordinator runs phase 1 (every
 * house's scene, grids, episodes and question candidates; house h from (seed, h) alone, see
 * buildEgoTLHouse) and the global balanced selection, and puts in the spec what each selected
 * test episode needs rendered (clips, current frames, memory walkthrough). A worker rebuilds the
 * episode's house with the same phase 1 code (kept while its jobs come from the same house),
 * renders and encodes the episode (renderEgoTLEpisode); the coordinator assembles the set with the
 * local generator's own assembly (assembleEgoTLRelease).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { checkSeedAndSize } from "../../benchmarks/generate-settings.js";
import type { EgoTLHouse, EgoTLPlanned, EgoTLShared, EpisodeNeed, GenerateEgoTLOptions, RenderedEpisode } from "../../benchmarks/egotl/construct/index.js";
import type { GenerateSpec } from "../spec.js";
import type { QueuedGenerator } from "./types.js";

const construct = () => import("../../benchmarks/egotl/construct/index.js");

/** The spec's plan: the episodes to render, in the order the local generator renders them. */
interface EgoTLQueuePlan {
  episodes: EpisodeNeed[];
}

/** A job's record (its files are stored beside it). */
type EpisodeRecord = Omit<RenderedEpisode, "files"> & { id: string };

async function generatorOptions(spec: GenerateSpec, outDir: string): Promise<GenerateEgoTLOptions> {
  const { generateOptions } = await construct();
  checkSeedAndSize(spec.seed, "houses", spec.count);
  return { outDir, seed: spec.seed, houses: spec.count, ...(spec.assetsDir ? { assetsDir: spec.assetsDir } : {}), command: spec.command, ...generateOptions(spec.extra) };
}

/**
 * Phase 1 on the coordinator is kept from plan to assembly (both run in the coordinator's process,
 * plan first), without the houses' meshes; keyed by what it is made from.
 */
const planned = new Map<string, EgoTLPlanned>();
const planKey = (spec: GenerateSpec) => JSON.stringify([spec.seed, spec.count, spec.extra, spec.assetsDir ?? null]);

async function planFor(spec: GenerateSpec, options: GenerateEgoTLOptions): Promise<EgoTLPlanned> {
  const key = planKey(spec);
  const known = planned.get(key);
  if (known) return known;
  const { egoTLShared, planEgoTLRelease } = await construct();
  const shared = egoTLShared(spec.assetsDir);
  try {
    const made = await planEgoTLRelease(options, shared, false);
    planned.clear();
    planned.set(key, made);
    return made;
  } finally {
    shared.close();
  }
}

export const egoTLGenerator: QueuedGenerator = {
  benchmark: "egotl",
  unit: "episodes",
  async plan(request, spec) {
    const options = await generatorOptions(spec, request.outDir);
    planned.delete(planKey(spec));
    const { needs } = await planFor(spec, { ...options, log: request.log });
    return { jobIds: needs.map((n) => n.id), plan: { episodes: needs } satisfies EgoTLQueuePlan };
  },
  async open(spec) {
    const { egoTLShared, buildEgoTLHouse, renderEgoTLEpisode, egoTLFrameSize } = await construct();
    const options = await generatorOptions(spec, "");
    const needs = (spec.plan as EgoTLQueuePlan).episodes;
    const shared: EgoTLShared = egoTLShared(spec.assetsDir);
    // The last house built: a run's jobs go house by house.
    let house: EgoTLHouse | null = null;
    return {
      async run(index, jobId) {
        const need = needs[index];
        if (!need || need.id !== jobId) throw new Error(`egotl job ${index} is ${need?.id ?? "missing"} in the plan, ${jobId} in the queue`);
        if (house?.index !== need.house) {
          house = null;
          house = await buildEgoTLHouse(options, need.house, shared);
        }
        const tmp = await mkdtemp(path.join(os.tmpdir(), "spatialprobe-egotl-"));
        try {
          const { files, ...rest } = await renderEgoTLEpisode(house, need, egoTLFrameSize(options), path.join(tmp, need.id));
          // Text files as their UTF-8 bytes: what writeFileSet writes for a string.
          const bytes = new Map([...files].map(([rel, content]) => [rel, typeof content === "string" ? Buffer.from(content, "utf8") : content]));
          return { record: JSON.stringify({ id: need.id, ...rest } satisfies EpisodeRecord), files: bytes };
        } finally {
          await rm(tmp, { recursive: true, force: true });
        }
      },
      close() {
        house = null;
        shared.close();
      },
    };
  },
  async assemble(request, spec, jobs) {
    const { assembleEgoTLRelease, generateSummary } = await construct();
    const options = await generatorOptions(spec, request.outDir);
    const plan = await planFor(spec, { ...options, log: request.log });
    const ids = plan.needs.map((n) => n.id);
    if (JSON.stringify(ids) !== JSON.stringify((spec.plan as EgoTLQueuePlan).episodes.map((n) => n.id))) throw new Error("egotl: the episodes planned here are not those of the run");
    const rendered: RenderedEpisode[] = [];
    for (const job of await jobs.all()) {
      const record = JSON.parse(job.record) as EpisodeRecord;
      if (record.id !== ids[job.index]) throw new Error(`egotl: stored job ${job.index} is ${record.id}, the plan says ${ids[job.index]}`);
      request.log(record.line);
      rendered.push({ frames: record.frames, line: record.line, files: await jobs.files(job.index) });
    }
    if (rendered.length !== ids.length) throw new Error(`egotl: ${rendered.length} of ${ids.length} episodes stored`);
    const result = await assembleEgoTLRelease({ ...options, log: request.log }, plan, rendered);
    planned.delete(planKey(spec));
    return generateSummary(spec.count, result);
  },
};
