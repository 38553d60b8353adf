/**
 * VCN-Bench generated on spatialprobe's world engine (paper §3.3, App. B): floors of 32-38 rooms,
 * tour videos through them (tour.ts), prior videos cut from the tours by sliding windows, the five
 * instruction types by App. B.4's rules, starts and goals on the robot's grid, written as the
 * release's episode file plus the goal-identification items and shortest-path logs, so the
 * existing loaders read the set unchanged.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import sharp from "sharp";
import { appendAll, UsageError } from "../../../core/problems.js";
import { createRng, deriveSeed } from "../../../stats/rng.js";
import { attributionText, readLibraries, type Catalogue, type CatalogEntry } from "../../../world/assets/catalog.js";
import { ModelLibrary } from "../../../world/assets/models.js";
import { sceneToJson } from "../../../world/house/index.js";
import { MAX_ROOMS } from "../../../world/house/program.js";
import { sceneMeshes, TextureCache } from "../../../world/meshes.js";
import { prepareShadows, renderView, type ShadowMaps } from "../../../world/render/index.js";
import type { Scene, WorldMesh } from "../../../world/types.js";
import { TASK_CODES, type TaskCode } from "../schema.js";
import { buildEpisode, TourSpace, type Episode } from "./episode.js";
import type { EpisodePlan } from "./plan.js";
import { houseFacts } from "./facts.js";
import { robotGrid, vcnHouse } from "./houses.js";
import { VCN_PARAMS as P } from "./params.js";
import { CueTally, cueOutcome, rulesAnswering, tallyKeys, tourPixels, type CueOutcome } from "./balance.js";
import { episodeRecord, goalTarget, itemRecord, regionMapper, trajectoryRecord, type MediaPaths } from "./release.js";
import { choiceOrder, mergeTagged, tourPlans, variantOrder, type TaggedPlans } from "./select.js";
import { setStatistics, statisticsText, type EpisodeFacts } from "./stats.js";
import { buildTour, indexTourScene, tourCamera, tourGrids, tourRenderOptions } from "./tour.js";
import type { Tour } from "./tour-types.js";
import { checkSeedAndSize, decimalSetting, wholeSetting } from "../../generate-settings.js";
import { prepareGeneratedOutDir, writeFileSet } from "../../../core/outputs.js";

export interface VcnGenerateSettings {
  /** Houses to build (default: one per 10 episodes wanted, at least 1). */
  houses?: number;
  /** Room count range of a house. */
  rooms?: [number, number];
  /** Room area scale of a house (world/house roomAreaScale). */
  area?: number;
  /** The tour walker's speed, m/s, and turn rate on the spot, degrees/s (tour-motion.ts WalkerPace). */
  speed?: number;
  turn?: number;
  /** Tours per house. */
  tours?: number;
  imageSide?: number;
  fps?: number;
  /** Frames per tour at most. */
  tourFrames?: number;
  /** Prior video length range, frames. */
  minWindow?: number;
  maxWindow?: number;
  /** What the tours keep: video and frames (default), or one of them (items use what is kept; video when both). */
  media?: "both" | "video" | "frames";
  /** Episodes per task (default: the count spread evenly over the five). */
  perTask?: Partial<Record<TaskCode, number>>;
}

export interface GenerateVcnOptions {
  outDir: string;
  seed: number;
  /** Episodes wanted. */
  count: number;
  /** `--set` options (generateOptions). */
  extra?: Record<string, string>;
  assetsDir?: string;
  command?: string;
  log?: (line: string) => void;
}

/** `--set` options of `generate vcn`: houses, rooms=LO-HI, area, tours, size, fps, speed, turn, frames, window=MIN[-MAX], media, and per-task counts (order=, count=, distance=, orientation=, instance=). */
export function generateOptions(extra: Record<string, string>): VcnGenerateSettings {
  const out: VcnGenerateSettings = {};
  const whole = wholeSetting;
  const range = (key: string, lo: number, hi: number): [number, number] => {
    const parts = extra[key]!.split("-");
    if (parts.length > 2) throw new UsageError(`--set ${key} takes N or LO-HI, got "${extra[key]}"`);
    const a = whole(key, parts[0]!, lo, hi);
    const b = whole(key, parts[1] ?? parts[0]!, a, hi);
    return [a, b];
  };
  for (const key of Object.keys(extra).sort()) {
    const value = extra[key]!;
    if (key === "houses") out.houses = whole(key, value, 1, 100);
    else if (key === "rooms") out.rooms = range(key, 2, MAX_ROOMS);
    else if (key === "area") out.area = decimalSetting(key, value, 0.5, 3);
    else if (key === "speed") out.speed = decimalSetting(key, value, 0.2, 3);
    else if (key === "turn") out.turn = decimalSetting(key, value, 30, 360);
    else if (key === "tours") out.tours = whole(key, value, 1, 5);
    else if (key === "size") out.imageSide = whole(key, value, 64, 1024);
    else if (key === "fps") out.fps = whole(key, value, 1, 30);
    else if (key === "frames") out.tourFrames = whole(key, value, 50, 100000);
    else if (key === "window") {
      const [a, b] = range(key, 10, 100000);
      out.minWindow = a;
      if (value.includes("-")) out.maxWindow = b;
    } else if (key === "media") {
      if (value !== "both" && value !== "video" && value !== "frames") throw new UsageError(`--set media must be both, video or frames, got "${value}"`);
      out.media = value;
    } else if ((TASK_CODES as readonly string[]).includes(key)) out.perTask = { ...out.perTask, [key]: whole(key, value, 0, 10000) };
    else throw new UsageError(`vcn generate has no --set option "${key}" (houses, rooms, area, tours, size, fps, speed, turn, frames, window, media, ${TASK_CODES.join(", ")})`);
  }
  return out;
}

/** How many episodes a task's cue-rule hits may run ahead of its summed category chance before a plan that a rule answers waits (balance.ts). */
const CUE_SLACK = 1;

/** A built episode that may be chosen for a house, with its prior-video-and-target key and its cue outcome. */
interface Candidate {
  key: string;
  e: Episode;
  outcome: CueOutcome;
}

/** First line of the README we write; a folder holding it may be overwritten. */
export const README_MARK = "# VCN-Bench-format set generated by spatialprobe";

/** Episodes per task: the explicit counts, the rest of `count` spread evenly (earlier tasks first). */
export function taskQuotas(count: number, perTask: Partial<Record<TaskCode, number>> = {}): Record<TaskCode, number> {
  const open = TASK_CODES.filter((t) => perTask[t] === undefined);
  const fixed = TASK_CODES.reduce((s, t) => s + (perTask[t] ?? 0), 0);
  const rest = Math.max(0, count - fixed);
  return Object.fromEntries(TASK_CODES.map((t) => {
    if (perTask[t] !== undefined) return [t, perTask[t]!];
    const k = open.indexOf(t);
    return [t, Math.floor(rest / open.length) + (k < rest % open.length ? 1 : 0)];
  })) as Record<TaskCode, number>;
}

const VIEW_OFFSETS = { front: 0, left: Math.PI / 2, back: Math.PI, right: -Math.PI / 2 } as const;

/** The four initial views at the start, with the tour's camera and lighting, as JPEG. */
async function initialViews(e: Episode, meshes: readonly WorldMesh[], shadows: ShadowMaps): Promise<Record<keyof typeof VIEW_OFFSETS, Buffer>> {
  const { scene, tour } = e.space;
  const render = tourRenderOptions(scene, tour.lighting, shadows);
  const pitch = tour.frames[e.startFrame]!.pitch;
  const out = {} as Record<keyof typeof VIEW_OFFSETS, Buffer>;
  for (const [name, offset] of Object.entries(VIEW_OFFSETS) as Array<[keyof typeof VIEW_OFFSETS, number]>) {
    const camera = tourCamera({ position: [e.start[0], e.start[1], tour.camera.heightM], yaw: e.heading + offset, pitch }, tour.camera);
    const buffers = renderView(meshes, camera, render);
    out[name] = await sharp(buffers.rgb, { raw: { width: camera.width, height: camera.height, channels: 3 } }).jpeg({ quality: P.viewJpegQuality }).toBuffer();
  }
  return out;
}

const jsonl = (rows: readonly object[]): string => rows.map((r) => JSON.stringify(r) + "\n").join("");

function readme(o: GenerateVcnOptions, settings: VcnGenerateSettings, houses: number, statsText: string, shortfall: string): string {
  return [
    README_MARK,
    "",
    "Furnished houses built from the Sweet Home 3D furniture libraries (see ATTRIBUTION), toured and",
    "rendered by spatialprobe's software renderer, with episodes made by VCN-Bench's rules (paper §3.3,",
    "App. B): sliding-window prior videos, the five instruction types with App. B.4's disambiguation rules,",
    "starts outside the target room at least 3 m (geodesic, robot radius 0.17 m) from the goal, view points",
    "every 0.1 m within 0.6 m of each goal's box. Instructions come from our templates (not rephrased by a",
    "language model). trajectories.jsonl holds the shortest path of every episode, not an agent's run.",
    "It is not VCN-Bench data.",
    "",
    `- seed: ${o.seed}; houses: ${houses}; tours per house: ${settings.tours ?? 1}; image: ${settings.imageSide ?? P.imageSide} x ${settings.imageSide ?? P.imageSide}`,
    ...(shortfall ? [`- not filled: ${shortfall}`] : []),
    "",
    "```",
    statsText,
    "```",
    "",
    "Regenerate (byte-identical output for the same seed, options, furniture libraries and ffmpeg build):",
    "",
    "```",
    o.command ?? `generateVcnRelease(${JSON.stringify({ seed: o.seed, count: o.count, extra: o.extra ?? {} })})`,
    "```",
    "",
    "Layout: `items.jsonl` (goal identification, one question per episode), `episodes.json.gz` (the",
    "release's episode file, Habitat coordinates [x, y up, z = -north]), `trajectories.jsonl` (shortest",
    "paths), `stats.json`, `houses/<scene>/scene.json`, `tours/<scene>/tour_<k>/` (`tour.json`: camera,",
    "lighting and per-frame annotations; `tour.mp4` and/or `frames/NNNN.jpg`), `episodes/<id>/{front,left,back,right}.jpg`",
    "(the initial views). Paths in items are relative to this folder.",
    "",
  ].join("\n");
}


/*
 * The generator in three pieces, so that `generate vcn --queue` (src/queue/generators/vcn.ts) and a
 * local generate share one code path: a house job builds house h and renders its tours from
 * (seed, h) and the options alone (the renders: the expensive part, order-free); the assembly takes
 * the houses in order and draws their episodes, because a house's quota per instruction type is
 * what the houses before it left unfilled and episode ids run on across houses.
 */

/** A generate command's options, checked, with what follows from them. */
export interface VcnRun {
  o: GenerateVcnOptions;
  settings: VcnGenerateSettings;
  houseCount: number;
}

export function vcnRun(o: GenerateVcnOptions): VcnRun {
  checkSeedAndSize(o.seed, "count (episodes)", o.count);
  const settings = generateOptions(o.extra ?? {});
  // One house per 10 episodes (at least one): a second house for --count 2 was rendered and given no episode (issue 28).
  return { o, settings, houseCount: settings.houses ?? Math.max(1, Math.ceil(o.count / P.episodesPerHouse)) };
}

export const vcnSceneId = (h: number): string => `house_${String(h + 1).padStart(3, "0")}`;

/** What the jobs of a run share: the furniture libraries, their models and textures (close() frees the models). */
export interface VcnShared {
  catalogue: Catalogue;
  library: ModelLibrary;
  textures: TextureCache;
}

export function vcnShared(assetsDir?: string): VcnShared {
  return { catalogue: readLibraries(assetsDir), library: new ModelLibrary(), textures: new TextureCache() };
}

/** A house's geometry: everything the episode draw and the initial views need besides the tours. */
export interface VcnHouseGeometry {
  scene: Scene;
  meshes: WorldMesh[];
  shadows: ShadowMaps;
}

/** House h from (seed, h) alone: deriveSeed(seed, 1000 + h); the same scene, meshes and shadow maps every time. */
export async function vcnHouseGeometry(run: VcnRun, h: number, shared: VcnShared): Promise<VcnHouseGeometry> {
  const { catalogue, library, textures } = shared;
  const rooms = run.settings.rooms;
  const scene: Scene = await vcnHouse({ catalogue, library, seed: deriveSeed(run.o.seed, 1000 + h), id: vcnSceneId(h), roomAreaScale: run.settings.area ?? P.roomAreaScale, ...(rooms ? { rooms } : {}) });
  const meshes = await sceneMeshes(scene, library, catalogue, { textures });
  return { scene, meshes, shadows: prepareShadows(meshes, scene.lights) };
}

/** A house job's record (its files hold the rest: scene.json and every tour's tour.json and media). */
export interface VcnHouseRecord {
  scene: string;
  /** Tour ids in order; tours/<id>/tour.json is among the files. */
  tours: string[];
}

export interface VcnHouseOutput {
  record: VcnHouseRecord;
  /** Paths relative to the set's folder. */
  files: Map<string, Buffer>;
}

/** Files under `dir`, relative, in sorted order. */
async function filesUnder(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const sub = path.posix.join(rel, entry.name);
    if (entry.isDirectory()) appendAll(out, await filesUnder(dir, sub));
    else out.push(sub);
  }
  return out;
}

/**
 * The house job: builds house h and renders its tours (tour streams deriveSeed(seed, 2000 + h)),
 * in a scratch folder of its own; returns the files the set keeps of them (media=video drops the
 * frames, media=frames the video) and the geometry (a local generate hands it to the assembly).
 */
export async function vcnHouseJob(run: VcnRun, h: number, shared: VcnShared, log: (line: string) => void = () => {}): Promise<VcnHouseOutput & { geometry: VcnHouseGeometry }> {
  const { o, settings } = run;
  const media = settings.media ?? "both";
  const geometry = await vcnHouseGeometry(run, h, shared);
  const { scene, meshes, shadows } = geometry;
  const grids = tourGrids(scene, meshes);
  const index = indexTourScene(scene, meshes);
  const files = new Map<string, Buffer>([[`houses/${scene.id}/scene.json`, Buffer.from(JSON.stringify(sceneToJson(scene), null, 1) + "\n", "utf8")]]);
  const tours: string[] = [];
  const scratch = await mkdtemp(path.join(tmpdir(), "spatialprobe-vcn-"));
  try {
    for (let t = 0; t < (settings.tours ?? 1); t++) {
      const tourDir = path.join(scratch, `tour_${t}`);
      const tour = await buildTour({
        scene, meshes, grids, seed: deriveSeed(o.seed, 2000 + h), tourIndex: t, outDir: tourDir, shadows, index, log, imageSide: settings.imageSide ?? P.imageSide,
        fps: settings.fps ?? P.tourFps, pace: { speedMps: settings.speed ?? P.tourSpeedMps, spotTurnDegPerS: settings.turn ?? P.tourSpotTurnDegPerS },
        ...(settings.tourFrames ? { maxFrames: settings.tourFrames } : {}),
      });
      for (const rel of await filesUnder(tourDir)) {
        if ((media === "video" && rel.startsWith("frames/")) || (media === "frames" && rel === "tour.mp4")) continue;
        files.set(`tours/${tour.id}/${rel}`, await readFile(path.join(tourDir, rel)));
      }
      files.set(`tours/${tour.id}/tour.json`, Buffer.from(JSON.stringify(tour) + "\n", "utf8"));
      tours.push(tour.id);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { record: { scene: scene.id, tours }, files, geometry };
}

/**
 * The assembly: houses in order (begin, addHouse for h = 0, 1, ..., finish). A house's files are
 * written as it comes; its episodes are drawn with quotas ceil(remaining / houses left) per task
 * and numbered on from the houses before. The tours are read back from their tour.json, so a
 * local generate and a queued one draw from the same values.
 */
export class VcnAssembly {
  private readonly remaining: Record<TaskCode, number>;
  private readonly wanted: Record<TaskCode, number>;
  private readonly entriesById: Map<string, CatalogEntry>;
  private readonly used = new Map<string, CatalogEntry>();
  private readonly files = new Map<string, string | Buffer>();
  private readonly tourFrames: number[] = [];
  private readonly facts: EpisodeFacts[] = [];
  /** The cue rules' hits against the category chance of the episodes chosen so far, per task and place relation (balance.ts tallyKeys). */
  private readonly cues = new CueTally();
  private readonly episodes: object[] = [];
  private readonly items: object[] = [];
  private readonly trajectories: object[] = [];
  private serial = 0;
  private next = 0;

  private constructor(private readonly run: VcnRun, private readonly shared: VcnShared, private readonly log: (line: string) => void) {
    this.remaining = taskQuotas(run.o.count, run.settings.perTask);
    this.wanted = { ...this.remaining };
    this.entriesById = new Map(shared.catalogue.entries.map((e) => [e.id, e]));
  }

  /** Makes the output folder ready (a new or empty one, or a set this generator wrote). */
  static async begin(run: VcnRun, shared: VcnShared, log: (line: string) => void = () => {}): Promise<VcnAssembly> {
    await prepareGeneratedOutDir(run.o.outDir, README_MARK);
    return new VcnAssembly(run, shared, log);
  }

  /** House h's job output; its geometry is rebuilt from (seed, h) when not given. */
  async addHouse(h: number, output: VcnHouseOutput, given?: VcnHouseGeometry): Promise<void> {
    if (h !== this.next) throw new Error(`houses are assembled in order: house ${this.next} next, got ${h}`);
    this.next++;
    const { o, settings } = this.run;
    const itemMedia: MediaPaths["media"] = settings.media === "frames" ? "frames" : "video";
    const remaining = this.remaining;
    await writeFileSet(o.outDir, output.files);
    const tours = output.record.tours.map((id) => JSON.parse(output.files.get(`tours/${id}/tour.json`)!.toString("utf8")) as Tour);
    const { scene, meshes, shadows } = given ?? (await vcnHouseGeometry(this.run, h, this.shared));
    const sceneId = scene.id;
    for (const obj of scene.objects) this.used.set(obj.catalogId, this.entriesById.get(obj.catalogId)!);
    const grid = robotGrid(scene, meshes);
    const house = houseFacts(scene);
    const region = regionMapper(scene);
    const spaces: TourSpace[] = [];
    for (const tour of tours) {
      this.tourFrames.push(tour.frames.length);
      spaces.push(new TourSpace(scene, house, grid, tour));
    }
    const drawn: Episode[] = [];
    const tagged = mergeTagged(spaces.map((s) => tourPlans(s, settings.minWindow ?? P.minWindowFrames, P.windowStepFrames, settings.maxWindow)));
    const rng = createRng(deriveSeed(o.seed, 4000 + h));
    const housesLeft = this.run.houseCount - h;
    const rejected: Record<string, number> = {};
    const reject = (reason: string) => (rejected[reason] = (rejected[reason] ?? 0) + 1);
    // No two episodes share a prior video and a target (issue 28): a second question on the same window and goal adds little.
    const used = new Set<string>();
    const windowTarget = (v: { space: TourSpace; plan: EpisodePlan }) => `${v.space.tour.id}|${v.plan.window.first}|${v.plan.window.last}|${v.plan.targetObject ?? v.plan.targetRoom}`;
    const probePaths: MediaPaths = { tourDir: "", media: itemMedia, views: { front: "", left: "", back: "", right: "" } };
    const pixels = new Map(spaces.map((sp) => [sp.tour.id, tourPixels(sp.tour)]));
    const outcomeOf = (e: Episode) => cueOutcome(itemRecord(e, "probe", probePaths, region), goalTarget(e, region), pixels.get(e.space.tour.id)!);
    // Of a tag's first three unused windows, the first whose episode keeps the cue rules within the slack, else the one fewest rules answer.
    const bestVariant = (t: TaggedPlans): Candidate | null => {
      let best: Candidate | null = null;
      for (const v of variantOrder(t, rng).filter((x) => !used.has(windowTarget(x))).slice(0, 3)) {
        const e = buildEpisode(v.space, v.facts, v.plan, rng);
        if (typeof e === "string") {
          reject(e);
          continue;
        }
        const c = { key: windowTarget(v), e, outcome: outcomeOf(e) };
        if (!this.cues.worsens(tallyKeys(e.plan), c.outcome, CUE_SLACK)) return c;
        if (!best || rulesAnswering(c.outcome) < rulesAnswering(best.outcome)) best = c;
      }
      return best;
    };
    for (const task of TASK_CODES) {
      const quota = Math.ceil(remaining[task] / housesLeft);
      let built = 0;
      const take = (c: Candidate) => {
        drawn.push(c.e);
        used.add(c.key);
        this.cues.add(tallyKeys(c.e.plan), c.outcome);
        built++;
      };
      // Episodes that would take a cue rule beyond the slack wait until the plans that do not have been tried.
      const deferred: Candidate[] = [];
      for (const t of choiceOrder(tagged, task, rng)) {
        if (built >= quota) break;
        const c = bestVariant(t);
        if (!c) continue;
        if (this.cues.worsens(tallyKeys(c.e.plan), c.outcome, CUE_SLACK)) deferred.push(c);
        else take(c);
      }
      for (const c of deferred.sort((a, b) => rulesAnswering(a.outcome) - rulesAnswering(b.outcome))) {
        if (used.has(c.key)) continue;
        if (built < quota) take(c);
        else reject("a cue rule would run ahead");
      }
      remaining[task] -= built;
    }
    for (const e of drawn) {
      const id = `vcn_${String(++this.serial).padStart(4, "0")}`;
      const views = await initialViews(e, meshes, shadows);
      const viewPaths = { front: `episodes/${id}/front.jpg`, left: `episodes/${id}/left.jpg`, back: `episodes/${id}/back.jpg`, right: `episodes/${id}/right.jpg` };
      for (const k of Object.keys(viewPaths) as Array<keyof typeof viewPaths>) this.files.set(viewPaths[k], views[k]);
      const item = itemRecord(e, id, { tourDir: `tours/${e.space.tour.id}`, media: itemMedia, views: viewPaths }, region);
      this.items.push(item);
      this.episodes.push(episodeRecord(e, id, region));
      this.trajectories.push(trajectoryRecord(e, id, region));
      const visited = [...new Set(item.annotations.map((a) => a.room).filter((r): r is string => r !== null))];
      const areaOf = new Map(scene.rooms.map((r) => [region(r.id), house.rooms.get(r.id)!.area]));
      this.facts.push({
        item,
        targetCategory: e.plan.targetObject !== undefined ? e.objectCategory : house.rooms.get(e.plan.targetRoom)!.category,
        roomsVisited: visited.length,
        areaM2: visited.reduce((s, r) => s + areaOf.get(r)!, 0),
        geodesicM: e.route.length,
        steps: e.route.steps,
      });
    }
    const rejectedText = Object.entries(rejected).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(", ") || "none";
    this.log(`${sceneId}: ${scene.rooms.length} rooms (${scene.rooms.map((r) => r.type).join(", ")}), ${tours.map((t) => t.frames.length).join("+")} tour frames, ${tagged.length} tagged plans, ${drawn.length} episodes; rejected: ${rejectedText}`);
  }

  /** Writes the episode files, statistics, ATTRIBUTION and README; returns the summary text. */
  async finish(): Promise<string> {
    const { o, settings, houseCount } = this.run;
    if (this.next !== houseCount) throw new Error(`${this.next} of ${houseCount} houses assembled`);
    const { remaining, wanted, files } = this;
    if (this.items.length === 0) throw new UsageError(`no episode passed the construction rules in ${houseCount} house(s); nothing usable was written. Try more houses (--set houses=N) or longer tours.`);
    const stats = setStatistics(this.tourFrames, this.facts);
    const shortfall = TASK_CODES.filter((t) => remaining[t] > 0).map((t) => `${t} ${wanted[t] - remaining[t]} of ${wanted[t]}`).join(", ");
    const text = statisticsText(stats) + (shortfall ? `\nnot filled: ${shortfall}` : "");
    files.set("episodes.json.gz", gzipSync(Buffer.from(JSON.stringify({ episodes: this.episodes }) + "\n"), { level: 9 }));
    files.set("items.jsonl", jsonl(this.items));
    files.set("trajectories.jsonl", jsonl(this.trajectories));
    files.set("stats.json", JSON.stringify(stats, null, 1) + "\n");
    files.set("ATTRIBUTION", attributionText([...this.used.values()]));
    files.set("README.md", readme(o, settings, houseCount, statisticsText(stats), shortfall));
    await writeFileSet(o.outDir, files);
    return `VCN-Bench set in ${o.outDir} from ${houseCount} houses:\n${text}`;
  }
}

/** Generates the set under `outDir` and returns the summary text; same options, same bytes. */
export async function generateVcnRelease(o: GenerateVcnOptions): Promise<string> {
  const run = vcnRun(o);
  const log = o.log ?? (() => {});
  // The queued generator's pieces, run here in order: each house job, then its part of the assembly.
  const shared = vcnShared(o.assetsDir);
  try {
    const assembly = await VcnAssembly.begin(run, shared, log);
    for (let h = 0; h < run.houseCount; h++) {
      const { geometry, ...output } = await vcnHouseJob(run, h, shared, log);
      await assembly.addHouse(h, output, geometry);
    }
    return await assembly.finish();
  } finally {
    shared.library.close();
  }
}
