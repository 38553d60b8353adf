/**
 * VCN-Bench generated on spatialprobe's world engine (paper §3.3, App. B): houses of 7-10 rooms,
 * tour videos through them (tour.ts), prior videos cut from the tours by sliding windows, the five
 * instruction types by App. B.4's rules, starts and goals on the robot's grid, written as the
 * release's episode file plus the goal-identification items and shortest-path logs, so the
 * existing loaders read the set unchanged.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import sharp from "sharp";
import { UsageError } from "../../../core/problems.js";
import { createRng, deriveSeed } from "../../../stats/rng.js";
import { attributionText, readLibraries, type CatalogEntry } from "../../../world/assets/catalog.js";
import { ModelLibrary } from "../../../world/assets/models.js";
import { sceneToJson } from "../../../world/house/index.js";
import { sceneMeshes, TextureCache } from "../../../world/meshes.js";
import { prepareShadows, renderView, type ShadowMaps } from "../../../world/render/index.js";
import type { Scene, WorldMesh } from "../../../world/types.js";
import { TASK_CODES, type TaskCode } from "../schema.js";
import { buildEpisode, TourSpace, type Episode } from "./episode.js";
import { houseFacts } from "./facts.js";
import { robotGrid, vcnHouse } from "./houses.js";
import { VCN_PARAMS as P } from "./params.js";
import { episodeRecord, itemRecord, regionMapper, trajectoryRecord, type MediaPaths } from "./release.js";
import { choiceOrder, mergeTagged, tourPlans, variantOrder } from "./select.js";
import { setStatistics, statisticsText, type EpisodeFacts } from "./stats.js";
import { buildTour, indexTourScene, tourCamera, tourGrids, tourRenderOptions } from "./tour.js";
import type { Tour } from "./tour-types.js";
import { prepareGeneratedOutDir } from "../../../core/outputs.js";

export interface VcnGenerateSettings {
  /** Houses to build (default: one per 5 episodes wanted, at least 2). */
  houses?: number;
  /** Room count range of a house. */
  rooms?: [number, number];
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

/** `--set` options of `generate vcn`: houses, rooms=LO-HI, tours, size, fps, frames, window=MIN[-MAX], media, and per-task counts (order=, count=, distance=, orientation=, instance=). */
export function generateOptions(extra: Record<string, string>): VcnGenerateSettings {
  const out: VcnGenerateSettings = {};
  const whole = (key: string, text: string, lo: number, hi: number): number => {
    const v = Number(text);
    if (!Number.isInteger(v) || v < lo || v > hi) throw new UsageError(`--set ${key} must be a whole number from ${lo} to ${hi}, got "${text}"`);
    return v;
  };
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
    else if (key === "rooms") out.rooms = range(key, 2, 10);
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
    else throw new UsageError(`vcn generate has no --set option "${key}" (houses, rooms, tours, size, fps, frames, window, media, ${TASK_CODES.join(", ")})`);
  }
  return out;
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

interface HouseResult {
  episodes: Episode[];
  tours: Tour[];
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

/** Generates the set under `outDir` and returns the summary text; same options, same bytes. */
export async function generateVcnRelease(o: GenerateVcnOptions): Promise<string> {
  if (!Number.isInteger(o.seed) || o.seed < 0) throw new RangeError(`seed must be a whole number (got ${o.seed})`);
  if (!Number.isInteger(o.count) || o.count < 1) throw new RangeError(`count must be a whole number of episodes (got ${o.count})`);
  const settings = generateOptions(o.extra ?? {});
  const log = o.log ?? (() => {});
  const houseCount = settings.houses ?? Math.max(2, Math.ceil(o.count / P.episodesPerHouse));
  const toursPerHouse = settings.tours ?? 1;
  const side = settings.imageSide ?? P.imageSide;
  const media = settings.media ?? "both";
  const itemMedia: MediaPaths["media"] = media === "frames" ? "frames" : "video";
  const remaining = taskQuotas(o.count, settings.perTask);
  const wanted = { ...remaining };
  await prepareGeneratedOutDir(o.outDir, README_MARK);
  const catalogue = readLibraries(o.assetsDir);
  const library = new ModelLibrary();
  const textures = new TextureCache();
  const entriesById = new Map(catalogue.entries.map((e) => [e.id, e]));
  const used = new Map<string, CatalogEntry>();
  const files = new Map<string, string | Buffer>();
  const tourFrames: number[] = [];
  const facts: EpisodeFacts[] = [];
  const episodes: object[] = [];
  const items: object[] = [];
  const trajectories: object[] = [];
  let serial = 0;
  try {
    for (let h = 0; h < houseCount; h++) {
      const sceneId = `house_${String(h + 1).padStart(3, "0")}`;
      const scene: Scene = await vcnHouse({ catalogue, library, seed: deriveSeed(o.seed, 1000 + h), id: sceneId, ...(settings.rooms ? { rooms: settings.rooms } : {}) });
      for (const obj of scene.objects) used.set(obj.catalogId, entriesById.get(obj.catalogId)!);
      const meshes = await sceneMeshes(scene, library, catalogue, { textures });
      const grid = robotGrid(scene, meshes);
      const grids = tourGrids(scene, meshes);
      const shadows = prepareShadows(meshes, scene.lights);
      const index = indexTourScene(scene, meshes);
      const house = houseFacts(scene);
      const region = regionMapper(scene);
      files.set(`houses/${sceneId}/scene.json`, JSON.stringify(sceneToJson(scene), null, 1) + "\n");
      const result: HouseResult = { episodes: [], tours: [] };
      const spaces: TourSpace[] = [];
      for (let t = 0; t < toursPerHouse; t++) {
        const tourDir = path.join(o.outDir, "tours", sceneId, `tour_${t}`);
        const tour = await buildTour({
          scene, meshes, grids, seed: deriveSeed(o.seed, 2000 + h), tourIndex: t, outDir: tourDir, shadows, index, log, imageSide: side,
          fps: settings.fps ?? P.tourFps, ...(settings.tourFrames ? { maxFrames: settings.tourFrames } : {}),
        });
        if (media === "video") await rm(path.join(tourDir, "frames"), { recursive: true, force: true });
        if (media === "frames") await rm(path.join(tourDir, "tour.mp4"), { force: true });
        files.set(`tours/${tour.id}/tour.json`, JSON.stringify(tour) + "\n");
        tourFrames.push(tour.frames.length);
        result.tours.push(tour);
        spaces.push(new TourSpace(scene, house, grid, tour));
      }
      const tagged = mergeTagged(spaces.map((s) => tourPlans(s, settings.minWindow ?? P.minWindowFrames, P.windowStepFrames, settings.maxWindow)));
      const rng = createRng(deriveSeed(o.seed, 4000 + h));
      const housesLeft = houseCount - h;
      const rejected: Record<string, number> = {};
      for (const task of TASK_CODES) {
        const quota = Math.ceil(remaining[task] / housesLeft);
        let built = 0;
        for (const t of choiceOrder(tagged, task, rng)) {
          if (built >= quota) break;
          for (const v of variantOrder(t, rng).slice(0, 3)) {
            const e = buildEpisode(v.space, v.facts, v.plan, rng);
            if (typeof e === "string") {
              rejected[e] = (rejected[e] ?? 0) + 1;
              continue;
            }
            result.episodes.push(e);
            built++;
            break;
          }
        }
        remaining[task] -= built;
      }
      for (const e of result.episodes) {
        const id = `vcn_${String(++serial).padStart(4, "0")}`;
        const views = await initialViews(e, meshes, shadows);
        const viewPaths = { front: `episodes/${id}/front.jpg`, left: `episodes/${id}/left.jpg`, back: `episodes/${id}/back.jpg`, right: `episodes/${id}/right.jpg` };
        for (const k of Object.keys(viewPaths) as Array<keyof typeof viewPaths>) files.set(viewPaths[k], views[k]);
        const item = itemRecord(e, id, { tourDir: `tours/${e.space.tour.id}`, media: itemMedia, views: viewPaths }, region);
        items.push(item);
        episodes.push(episodeRecord(e, id, region));
        trajectories.push(trajectoryRecord(e, id, region));
        const visited = [...new Set(item.annotations.map((a) => a.room).filter((r): r is string => r !== null))];
        const areaOf = new Map(scene.rooms.map((r) => [region(r.id), house.rooms.get(r.id)!.area]));
        facts.push({
          item,
          targetCategory: e.plan.targetObject !== undefined ? e.objectCategory : house.rooms.get(e.plan.targetRoom)!.category,
          roomsVisited: visited.length,
          areaM2: visited.reduce((s, r) => s + areaOf.get(r)!, 0),
          geodesicM: e.nearest.distance,
          steps: e.route.steps,
        });
      }
      const rejectedText = Object.entries(rejected).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(", ") || "none";
      log(`${sceneId}: ${scene.rooms.length} rooms (${scene.rooms.map((r) => r.type).join(", ")}), ${result.tours.map((t) => t.frames.length).join("+")} tour frames, ${tagged.length} tagged plans, ${result.episodes.length} episodes; rejected: ${rejectedText}`);
    }
  } finally {
    library.close();
  }
  if (items.length === 0) throw new UsageError(`no episode passed the construction rules in ${houseCount} house(s); nothing usable was written. Try more houses (--set houses=N) or longer tours.`);
  const stats = setStatistics(tourFrames, facts);
  const shortfall = TASK_CODES.filter((t) => remaining[t] > 0).map((t) => `${t} ${wanted[t] - remaining[t]} of ${wanted[t]}`).join(", ");
  const text = statisticsText(stats) + (shortfall ? `\nnot filled: ${shortfall}` : "");
  files.set("episodes.json.gz", gzipSync(Buffer.from(JSON.stringify({ episodes }) + "\n"), { level: 9 }));
  files.set("items.jsonl", jsonl(items));
  files.set("trajectories.jsonl", jsonl(trajectories));
  files.set("stats.json", JSON.stringify(stats, null, 1) + "\n");
  files.set("ATTRIBUTION", attributionText([...used.values()]));
  files.set("README.md", readme(o, settings, houseCount, statisticsText(stats), shortfall));
  for (const [rel, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const full = path.join(o.outDir, rel);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }
  return `VCN-Bench set in ${o.outDir} from ${houseCount} houses:\n${text}`;
}
