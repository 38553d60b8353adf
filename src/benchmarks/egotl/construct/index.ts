/**
 * EgoTL-Bench sets made on spatialprobe's world engine: seeded furnished houses, scripted
 * household activities performed as egocentric 10 fps camera trajectories (episode.ts, motion.ts),
 * rendered and encoded as episode videos, per-clip videos and memory-bank walkthroughs, and the
 * six tasks asked of them (questions.ts) in spatialprobe's EgoTL item format (schema.ts).
 */
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { UsageError } from "../../../core/problems.js";
import { createRng, deriveSeed, type Rng } from "../../../stats/rng.js";
import { encodeMp4 } from "../../../media/video-encode.js";
import { attributionText, readLibraries, type CatalogEntry } from "../../../world/assets/catalog.js";
import { ModelLibrary } from "../../../world/assets/models.js";
import { generateHouse, roomTypesByCategory, sceneToJson } from "../../../world/house/index.js";
import { sceneMeshes, TextureCache } from "../../../world/meshes.js";
import { inflate, occupancyForScene, occupancyMeta, occupancyToPng } from "../../../world/space/index.js";
import type { Scene, Vec3, WorldMesh } from "../../../world/types.js";
import { EGOTL_TASKS, LETTERS, type EgoTLRow, type EgoTLTask } from "../schema.js";
import { chainOfThought, chooseEpisodeTasks, houseActivities, objectPhrases, type SubGoal } from "./activities.js";
import { buildEpisode, buildWalkthrough, type Clip, type Episode, type Grids } from "./episode.js";
import type { Pose } from "./motion.js";
import { EGOTL_PARAMS as P, WALK_CLEARANCE_M } from "./params.js";
import {
  actionOptions, askableSteps, clipDirection, clipDistance, nextActionDistractors, planVariants,
  sceneActionDecoy, sceneActionFacts, sceneActionOptions, sceneActionTruth, turnDecisions,
} from "./questions.js";
import { houseView, renderFrame, visiblePixels, type HouseView } from "./render.js";
import { binIndex, datasetStats, metreBinLabels, statsSummary } from "./stats.js";
import { checkSeedAndSize, sizeSetting, wholeSetting } from "../../generate-settings.js";
import { prepareGeneratedOutDir, writeFileSet } from "../../../core/outputs.js";

export type MediaForm = "spans" | "clips";

/**
 * Activities per episode: three of ours make an episode of about two minutes, the paper's 2-4
 * (§3), with a plan of about twelve steps.
 */
export const DEFAULT_ACTIVITIES = 3;

export interface GenerateEgoTLOptions {
  outDir: string;
  seed: number;
  /** Test houses (rendered). */
  houses: number;
  /** Training houses (answers only, for the frequency baseline; media not rendered). */
  trainHouses?: number;
  /** Episodes per house. */
  episodesPerHouse?: number;
  /** Activities done one after another in an episode (DEFAULT_ACTIVITIES). */
  activitiesPerEpisode?: number;
  /** Test questions kept per task at most. */
  perTask?: number;
  /** What the items point at: spans inside the episode videos (default) or the clip files. */
  media?: MediaForm;
  /** Five samples per pixel (slower); default off at 10 fps. */
  antialias?: boolean;
  /** Output frame size (default P.width x P.height; even sides). Visibility checks always use the default size. */
  frameSize?: { width: number; height: number };
  assetsDir?: string;
  command?: string;
  log?: (line: string) => void;
}

export interface GenerateEgoTLResult {
  questions: { test: Record<EgoTLTask, number>; train: Record<EgoTLTask, number> };
  episodes: { test: number; train: number; rendered: number };
  frames: number;
  stats: Record<string, unknown>;
}

type SetOptions = Pick<GenerateEgoTLOptions, "trainHouses" | "episodesPerHouse" | "activitiesPerEpisode" | "perTask" | "media" | "antialias" | "frameSize">;

/** `--set` options of `generate egotl`: train=N episodes=N activities=N per-task=N media=spans|clips antialias=true|false size=WxH. */
export function generateOptions(extra: Record<string, string>): SetOptions {
  const out: SetOptions = {};
  const whole = (key: string, lo: number, hi: number): number => wholeSetting(key, extra[key], lo, hi);
  for (const key of Object.keys(extra)) {
    if (key === "train") out.trainHouses = whole(key, 0, 100);
    else if (key === "episodes") out.episodesPerHouse = whole(key, 1, 20);
    else if (key === "activities") out.activitiesPerEpisode = whole(key, 1, 5);
    else if (key === "per-task") out.perTask = whole(key, 1, 10000);
    else if (key === "media") {
      if (extra[key] !== "spans" && extra[key] !== "clips") throw new UsageError(`--set media must be spans or clips, got "${extra[key]}"`);
      out.media = extra[key] as MediaForm;
    } else if (key === "antialias") {
      if (extra[key] !== "true" && extra[key] !== "false") throw new UsageError(`--set antialias must be true or false, got "${extra[key]}"`);
      out.antialias = extra[key] === "true";
    } else if (key === "size") {
      const size = sizeSetting(extra[key]!, 32, 1920);
      if (size.width % 2 || size.height % 2) throw new UsageError(`--set size must have even sides (H.264 video), got "${extra[key]}"`);
      out.frameSize = size;
    } else throw new UsageError(`egotl generate has no --set option "${key}" (train, episodes, activities, per-task, media, antialias, size)`);
  }
  return out;
}

export const README_MARK = "# EgoTL-Bench-format set generated by spatialprobe";

/** One candidate question before selection: which episode and frames it needs. */
interface Candidate {
  task: EgoTLTask;
  episode: string;
  /** Balancing key (direction label, scene-action class, or the episode). */
  group: string;
  /** Where the classes are balanced within strata (direction: the span's length in 0.2 s bins). */
  stratum?: string;
  row: (media: MediaForm, position: number) => EgoTLRow;
  clip?: Clip;
  frame?: number;
  memory?: boolean;
}

interface HouseEpisode {
  id: string;
  house: string;
  scene: Scene;
  grids: Grids;
  episode: Episode;
  walkthrough: Pose[] | null;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const clipVideo = (ep: string, clip: Clip) => `episodes/${ep}/clips/clip_${pad(clip.index)}_${clip.kind}.mp4`;
const episodeVideo = (ep: string) => `episodes/${ep}/episode.mp4`;
const memoryVideo = (ep: string) => `episodes/${ep}/memory.mp4`;
const currentFrame = (ep: string, frame: number) => `episodes/${ep}/current_${pad(frame, 4)}.jpg`;

function clipMedia(ep: string, clip: Clip, media: MediaForm): EgoTLRow["media"] & object {
  return media === "clips" ? { video: clipVideo(ep, clip) } : { video: episodeVideo(ep), span: { first_frame: clip.first, last_frame: clip.last } };
}

/** Puts the answer at `position` among the options: the distractors keep their order around it. */
function placeAnswer<T>(answer: T, distractors: readonly T[], position: number): T[] {
  const out = [...distractors];
  out.splice(position, 0, answer);
  return out;
}

/** Candidate questions of one episode (all tasks), before the per-task selection. */
function episodeCandidates(he: HouseEpisode, names: ReadonlyMap<number, string>, roomsFor: ReadonlyMap<string, ReadonlySet<string>>, rng: Rng, visibility: (he: HouseEpisode, frame: number, ids: number[]) => Map<number, number>): Candidate[] {
  const { id, scene, episode } = he;
  const out: Candidate[] = [];
  const base = (task: EgoTLTask, suffix: string) => ({ id: `${id}-${task}-${suffix}`, video_id: id });
  const cot = chainOfThought(episode.activity.abstract, episode.activity.subgoals, scene, names, episode.startRoom);
  for (const clip of episode.clips) {
    const label = clipDirection(episode, clip);
    if (label) {
      out.push({ task: "direction", episode: id, group: label, stratum: `frames ${Math.floor((clip.last - clip.first + 1) / 2) * 2}`, clip, row: (media) => ({ ...base("direction", `c${pad(clip.index)}`), task: "direction", media: clipMedia(id, clip, media), answer: label, meta: { clip: clip.index, kind: clip.kind, narration: clip.narration, frames: [clip.first, clip.last] } }) });
    }
    // §4 "Walking Distance Estimation": distances are labelled on walk-straight clips only (a
    // turn on the spot, answer 0, let a constant 0 score MRA 41.7; issue 29).
    if (clip.kind === "walk" && label === "Move forward") {
      const metres = clipDistance(episode, clip);
      out.push({ task: "distance", episode: id, group: distanceBin(metres), clip, row: (media) => ({ ...base("distance", `c${pad(clip.index)}`), task: "distance", media: clipMedia(id, clip, media), answer: metres, meta: { clip: clip.index, kind: clip.kind, narration: clip.narration, frames: [clip.first, clip.last] } }) });
    }
    if (clip.kind === "pick" || clip.kind === "put" || clip.kind === "switch") {
      const goal = episode.activity.subgoals[clip.subgoal] as Extract<SubGoal, { kind: "pick" | "put" | "switch" }>;
      const made = actionOptions(clip.kind, goal.object, scene, names, rng);
      if (made) {
        const { answer, distractors } = made;
        out.push({ task: "action_recognition", episode: id, group: clip.kind, clip, row: (media, position) => ({ ...base("action_recognition", `c${pad(clip.index)}`), task: "action_recognition", media: clipMedia(id, clip, media), options: placeAnswer(answer, distractors, position), answer: LETTERS[position]!, meta: { clip: clip.index, kind: clip.kind, narration: clip.narration, frames: [clip.first, clip.last], object: clip.object } }) });
      }
    }
  }
  // Next action: the clip ending step t - 1; the answer is step t (askableSteps, nextActionDistractors).
  const askable = askableSteps(episode.steps);
  for (const t of askable) {
    const clips = episode.clips.filter((c) => c.subgoal === t - 1);
    const clip = clips[clips.length - 1];
    const others = nextActionDistractors(askable, t, rng);
    if (!clip || !others) continue;
    const answer = episode.steps[t]!;
    const distractors = others.map((k) => episode.steps[k]!);
    const j = t - 1;
    out.push({ task: "next_action", episode: id, group: id, clip, row: (media, position) => ({ ...base("next_action", `s${pad(j)}`), task: "next_action", media: clipMedia(id, clip, media), chain_of_thought: cot, options: placeAnswer(answer, distractors, position), answer, meta: { clip: clip.index, kind: clip.kind, step: j, option_steps: placeAnswer(t, others, position), frames: [clip.first, clip.last] } }) });
  }
  // Scene-aware action at the decision points: one item per class and goal.
  const seenKinds = new Set<string>();
  const floorObjects = scene.objects.filter((o) => !o.inWall && o.supportId === null && names.has(o.id)).map((o) => o.id);
  for (const d of [...episode.decisions, ...turnDecisions(episode, scene)]) {
    const pose = episode.frames[d.frame]!;
    const goal = scene.objects.find((o) => o.id === d.goal)!;
    const facts = sceneActionFacts(scene, he.grids, pose, goal, d.approach);
    if (Math.hypot(d.approach[0] - pose.x, d.approach[1] - pose.y) < P.minSceneActionDistanceM) continue;
    const pixels = visibility(he, d.frame, [...new Set([goal.id, ...floorObjects, ...(facts.blocker ? [facts.blocker.id] : [])])]);
    const truth = sceneActionTruth(facts, (oid) => (pixels.get(oid) ?? 0) >= P.minObstaclePixels);
    if ((pixels.get(goal.id) ?? 0) < P.minTargetPixels) continue;
    if (!truth || seenKinds.has(`${truth} ${goal.id}`)) continue;
    const decoy = facts.blocked ? null : sceneActionDecoy(scene, goal, pixels, P.minObstaclePixels, names);
    const options = sceneActionOptions(facts, names.get(goal.id)!, decoy, names);
    if (!options) continue;
    seenKinds.add(`${truth} ${goal.id}`);
    const answerAt = options.findIndex((o) => o.kind === truth);
    const answer = options[answerAt]!.text;
    // The other classes in a random order (in a fixed one, the answer is the option out of order).
    const distractors = rng.shuffle(options.filter((_, k) => k !== answerAt));
    out.push({
      task: "scene_action", episode: id, group: truth, frame: d.frame,
      row: (_media, position) => ({
        ...base("scene_action", `f${pad(d.frame, 4)}`), task: "scene_action", current_frame: currentFrame(id, d.frame), abstract_task: episode.activity.abstract,
        options: placeAnswer(answer, distractors.map((o) => o.text), position), answer,
        meta: { frame: d.frame, pose, goal: goal.id, approach: d.approach, kinds: placeAnswer(truth, distractors.map((o) => o.kind), position), obstacle: options[0]!.obstacle, bearing_deg: Math.round(facts.bearingDeg * 10) / 10, blocked: facts.blocked, goal_pixels: pixels.get(goal.id) ?? 0 },
      }),
    });
  }
  // Planning: one item for the episode's whole task and one per activity in it (its task sentence
  // and plan, from where the walker stands when it begins), all on the episode's memory bank.
  const goals = episode.activity.subgoals;
  const parts = [{ activity: episode.activity, first: 0 }, ...(episode.activity.parts ?? [])];
  parts.forEach((part, k) => {
    const walkedTo = goals.slice(0, part.first).filter((g): g is Extract<SubGoal, { kind: "goto" }> => g.kind === "goto");
    const startRoom = walkedTo.length > 0 ? walkedTo[walkedTo.length - 1]!.target.room : episode.startRoom;
    const variants = he.walkthrough ? planVariants(part.activity, startRoom, scene, names, roomsFor, rng) : null;
    if (!variants) return;
    const truth = variants[0]!.text;
    const distractors = variants.slice(1);
    // Balanced on how many options are longer than the true plan (ANSWER_CLASSES), where lengths differ.
    const longer = distractors.filter((v) => v.text.length > truth.length).length;
    const sameLength = distractors.every((v) => v.text.length === truth.length);
    out.push({
      task: "planning", episode: id, group: sameLength ? "same length" : `longer ${longer}`, memory: true,
      row: (_media, position) => {
        const options = placeAnswer(truth, distractors.map((v) => v.text), position);
        const kinds = placeAnswer<string>("true", distractors.map((v) => v.kind), position);
        return { ...base("planning", `p${pad(k)}`), task: "planning", media: { video: memoryVideo(id) }, abstract_task: part.activity.abstract, options, answer: LETTERS[position]!, meta: { kinds, part: k } };
      },
    });
  });
  return out;
}

/**
 * Distances are balanced over half-octave bins (edges a factor sqrt 2 apart, from the shortest
 * labelled walk, P.straightMinMoveM), so a set spreads evenly in log distance: MRA gives a
 * constant credit only within 50% of the truth, about 1.6 of the 4.9 octaves between 0.2 and 6 m.
 * Octave bins from 0.5 m let a constant score MRA 0.26 (the walks of our houses end near 6 m) and
 * octave bins from 0.2 m 0.23 (each bin's walks bunch up); half-octaves from 0.2 m give 0.18-0.19.
 * Every bin that has walks keeps the same count (equalPerStratum over those bins): the share cap
 * of the other tasks would let the rare long walks fall below a tenth.
 */
const DISTANCE_EDGES_M = [0.2, 0.28, 0.4, 0.56, 0.8, 1.13, 1.6, 2.26, 3.2, 4.5] as const;
const DISTANCE_BINS = metreBinLabels(DISTANCE_EDGES_M);
/** The balancing bin of a walk's distance (below the first edge: the first bin; such walks have no label). */
export const distanceBin = (metres: number): string => DISTANCE_BINS[binIndex(DISTANCE_EDGES_M, metres)]!;

/**
 * Balancing groups that are answer classes, per task: a constant answer (direction's label,
 * scene-aware's class, the verb of a pick-up/put-down item, planning's length rank, distance's
 * bin) must stay near its chance, so no class may hold more than CLASS_SHARE_MARGIN above
 * 1/classes of the items of these classes. Switch-on items are not a class: their four options
 * share the verb.
 */
const ANSWER_CLASSES: Partial<Record<EgoTLTask, readonly string[]>> = {
  direction: ["Turn left", "Turn right", "Move forward", "Going up", "Going down"],
  scene_action: ["straight", "left", "right", "around"],
  action_recognition: ["pick", "put"],
  // Not an answer but a text feature that decided it: the options longer than the true plan.
  planning: ["longer 0", "longer 1", "longer 2", "longer 3"],
  distance: DISTANCE_BINS,
};
const CLASS_SHARE_MARGIN = 0.03;

/**
 * The most items a group may keep so that no group holds more than `share` of what is kept (each
 * group keeping min(its count, the cap)); when no cap allows it (too few groups), the smallest
 * group's count, which keeps the groups equal.
 */
export function groupCap(counts: readonly number[], share: number): number {
  const positive = counts.filter((n) => n > 0);
  if (positive.length === 0) return 0;
  for (let c = Math.max(...positive); c >= 1; c--) {
    const total = positive.reduce((a, n) => a + Math.min(n, c), 0);
    if (c <= share * total) return c;
  }
  return Math.min(...positive);
}

/**
 * Within each stratum, the same number of every answer class (the smallest class's count, so a
 * stratum lacking a class keeps nothing), drawn at random: a direction clip's length (its frames
 * and timestamps are in the prompt) then tells nothing of its label. Turns are short and walks
 * long, so only lengths that every motion can take are kept.
 */
export function equalPerStratum<C extends { group: string; stratum?: string }>(cands: readonly C[], classes: readonly string[], rng: Rng): C[] {
  const byStratum = new Map<string, C[]>();
  for (const c of cands) {
    const key = c.stratum ?? "";
    const list = byStratum.get(key);
    if (list) list.push(c);
    else byStratum.set(key, [c]);
  }
  const out: C[] = [];
  for (const key of [...byStratum.keys()].sort()) {
    const perClass = classes.map((k) => byStratum.get(key)!.filter((c) => c.group === k));
    const n = Math.min(...perClass.map((list) => list.length));
    for (const list of perClass) out.push(...rng.shuffle(list).slice(0, n));
  }
  return out;
}

/**
 * Keeps at most `cap` candidates of a task: round robin over the balancing groups (in a seeded
 * order), each group's candidates in a seeded order; a task with answer classes keeps each class
 * within groupCap.
 */
function selectBalanced(cands: readonly Candidate[], cap: number, rng: Rng, classes: readonly string[] = []): Candidate[] {
  const groups = new Map<string, Candidate[]>();
  for (const c of cands) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const order = rng.shuffle([...groups.keys()].sort());
  const perClass = classes.length > 0 ? groupCap(classes.map((g) => groups.get(g)?.length ?? 0), 1 / classes.length + CLASS_SHARE_MARGIN) : Infinity;
  const pools = order.map((g) => rng.shuffle(groups.get(g)!).slice(0, classes.includes(g) ? perClass : Infinity));
  const out: Candidate[] = [];
  while (out.length < cap && pools.some((p) => p.length > 0)) {
    for (const p of pools) if (p.length > 0 && out.length < cap) out.push(p.shift()!);
  }
  return out;
}

function readme(opts: GenerateEgoTLOptions, result: GenerateEgoTLResult, media: MediaForm): string {
  const counts = (s: "test" | "train") => EGOTL_TASKS.map((t) => `${t} ${result.questions[s][t]}`).join(", ");
  return [
    README_MARK,
    "",
    "Furnished houses built from the Sweet Home 3D furniture libraries (see ATTRIBUTION), rendered by",
    `spatialprobe's software renderer. Each episode is up to ${opts.activitiesPerEpisode ?? DEFAULT_ACTIVITIES} scripted household activities done one after another (an abstract task, the`,
    "chain of thought announced at the start, then one clip per step: walk straight, turn left or right, sit",
    "down, stand up, pick up, put down, switch on) performed by a camera at eye height (1.5-1.7 m; 1.1-1.2 m",
    "seated) walking 1.0-1.4 m/s with ramps at starts and stops, head bob at 1.8-2 steps per second, turns",
    `peaking at ${P.turnRateDegS[0]}-${P.turnRateDegS[1]} deg/s, sitting and standing in ${P.sitS[0]}-${P.sitS[1]} s, handling in ${P.manipulationS[0]}-${P.manipulationS[1]} s,`,
    `pauses and glances; half the walks to an object to handle stop short, and the last ${P.stepInM[0]}-${P.stepInM[1]} m is stepped after turning to it.`,
    `${opts.frameSize?.width ?? P.width} x ${opts.frameSize?.height ?? P.height} px, ${P.hfovDeg} deg horizontal field of view, ${P.fps} fps`,
    `(memory-bank walkthroughs ${P.memoryFps} fps). It follows the EgoTL-Bench paper's task definitions; it is not EgoTL data.`,
    "",
    "Answers, from the stored camera trajectory (`episodes/<e>/poses.json`):",
    "- direction: net yaw >= 45 deg is a turn (CCW = left), an eye-height change >= 0.25 m is Going up / Going down,",
    `  a clip turning < ${P.straightMaxYawDeg} deg, level within ${P.flatMaxHeightM} m, moving >= ${P.straightMinMoveM} m is Move forward; other clips are not asked;`,
    "- distance: eq. 3 of the paper, the sum of 3D displacements of the 10 fps camera centres over the clip,",
    "  rounded to 0.01 m; head bob is part of the camera path and counts (about +1%); asked on Move forward clips only;",
    "- action recognition: the script's step; the options are {pick up, put down} x {the object, another object",
    "  of the house}, or switch on x four switchable objects of the house;",
    "- next action: the script's next step; the three other options are other steps of the same plan, drawn at random;",
    "- scene-aware action: the target's bearing in the current view and the straight line to where the",
    "  walker stands, checked on the person's free space (occupancy inflated by 0.25 m, `houses/<h>/person_grid.png`);",
    "  every item offers walk straight, turn left, turn right and walk around an object in view;",
    "- planning: the true chain of thought against three that put one or two of its walks in another room of the house;",
    "- answer classes balanced per task (direction labels, scene-aware classes, pick-up / put-down, planning's length rank,",
    `  distance: the same count in every half-octave bin from ${DISTANCE_EDGES_M[0]} m that has walks).`,
    "",
    `- seed: ${opts.seed}; test houses: ${opts.houses}; train houses: ${opts.trainHouses ?? 0}; episodes: ${result.episodes.test} test (${result.episodes.rendered} rendered), ${result.episodes.train} train`,
    `- test.jsonl: ${counts("test")}`,
    `- train.jsonl (answers only; its media are not rendered, do not validate it): ${counts("train")}`,
    `- items point at ${media === "spans" ? "frame spans inside `episodes/<e>/episode.mp4` (media.span)" : "the clip files `episodes/<e>/clips/*.mp4`"}; both forms are written`,
    "",
    "Regenerate (byte-identical output for the same seed, options, furniture libraries and ffmpeg build):",
    "",
    "```",
    opts.command ?? `generateEgoTLRelease(${JSON.stringify({ seed: opts.seed, houses: opts.houses })})`,
    "```",
    "",
    "Layout: `test.jsonl`, `train.jsonl`, `stats.json`, `houses/<h>/{scene.json,person_grid.png}`,",
    "`episodes/<e>/{episode.mp4,memory.mp4,poses.json,clips/clip_<k>_<kind>.mp4,current_<frame>.jpg}`.",
    "Paths in rows are relative to this folder.",
    "",
  ].join("\n");
}

/** What the world engine's caches hold across houses (each house is made from (seed, h) alone). */
export interface EgoTLShared {
  catalogue: ReturnType<typeof readLibraries>;
  /** Room types whose recipes hold each category (planning's wrong rooms), from the catalogue. */
  roomsFor: ReadonlyMap<string, ReadonlySet<string>>;
  library: ModelLibrary;
  textures: TextureCache;
  close(): void;
}

export function egoTLShared(assetsDir?: string): EgoTLShared {
  const library = new ModelLibrary();
  const catalogue = readLibraries(assetsDir);
  return { catalogue, roomsFor: roomTypesByCategory(catalogue), library, textures: new TextureCache(), close: () => library.close() };
}

/** Phase 1 of one house: scene, grids, episodes and their question candidates. */
export interface EgoTLHouse {
  index: number;
  name: string;
  isTest: boolean;
  view: HouseView;
  episodes: HouseEpisode[];
  candidates: Candidate[];
  /** scene.json and the grids (test houses only). */
  files: Map<string, string | Buffer>;
  /** Catalogue entries of the objects (test houses only; for ATTRIBUTION). */
  used: CatalogEntry[];
  line: string;
}

type HouseOptions = Pick<GenerateEgoTLOptions, "seed" | "houses" | "episodesPerHouse" | "activitiesPerEpisode" | "antialias">;

/**
 * House h (test houses first, then train houses) from (seed, h) alone: its random streams are
 * deriveSeed(seed, h + 1) (activities, episodes, distractors) and deriveSeed(seed, 1000 + h) (the
 * house), so any house can be rebuilt on its own.
 */
export async function buildEgoTLHouse(opts: HouseOptions, h: number, shared: EgoTLShared): Promise<EgoTLHouse> {
  const { catalogue, library, textures, roomsFor } = shared;
  const perHouse = opts.episodesPerHouse ?? 3;
  const isTest = h < opts.houses;
  const house = `${isTest ? "house" : "train_house"}_${pad(isTest ? h + 1 : h - opts.houses + 1, 3)}`;
  const rng = createRng(deriveSeed(opts.seed, h + 1));
  const scene = { ...(await generateHouse({ catalogue, library, seed: deriveSeed(opts.seed, 1000 + h) })), id: house };
  const meshes = await sceneMeshes(scene, library, catalogue, { textures });
  const skip = (m: WorldMesh) => m.category === "floor" || m.category === "ceiling" || P.nonBlocking.includes(m.category);
  const raw = occupancyForScene(scene, meshes, { cellSize: P.gridCellM, zMin: P.obstacleMinZ, zMax: P.obstacleMaxZ, skip });
  const grids: Grids = { raw, person: inflate(raw, P.personRadiusM) };
  const names = objectPhrases(scene);
  const activities = houseActivities(scene, names);
  const view = houseView(scene, meshes, opts.antialias ?? false);
  const files = new Map<string, string | Buffer>();
  const used: CatalogEntry[] = [];
  if (isTest) {
    const entriesById = new Map(catalogue.entries.map((e) => [e.id, e]));
    for (const o of scene.objects) used.push(entriesById.get(o.catalogId)!);
    files.set(`houses/${house}/scene.json`, JSON.stringify({ ...sceneToJson(scene), names: Object.fromEntries([...names].sort(([a], [b]) => a - b)), occupancy: { file: "occupancy.png", obstacle_z: [P.obstacleMinZ, P.obstacleMaxZ], skipped: P.nonBlocking, ...occupancyMeta(grids.raw) }, person_grid: { file: "person_grid.png", radius_m: P.personRadiusM, ...occupancyMeta(grids.person) }, walk_clearance_m: WALK_CLEARANCE_M }, null, 1) + "\n");
    files.set(`houses/${house}/person_grid.png`, await occupancyToPng(grids.person));
    files.set(`houses/${house}/occupancy.png`, await occupancyToPng(grids.raw));
  }
  const chosen = chooseEpisodeTasks(activities, perHouse * 2, opts.activitiesPerEpisode ?? DEFAULT_ACTIVITIES, rng);
  const episodes: HouseEpisode[] = [];
  const candidates: Candidate[] = [];
  const visibility = (x: HouseEpisode, frame: number, ids: number[]) => visiblePixels(view, x.episode.frames[frame]!, ids, x.episode.moved[frame]!, x.episode.switchedOn[frame]!);
  for (const activity of chosen) {
    if (episodes.length >= perHouse) break;
    const episode = buildEpisode({ scene, grids, activity, names, rng });
    if (!episode) continue;
    const id = `${house}_ep${pad(episodes.length + 1)}`;
    const walkthrough = buildWalkthrough(scene, grids, episode, rng);
    const he: HouseEpisode = { id, house, scene, grids, episode, walkthrough };
    episodes.push(he);
    candidates.push(...episodeCandidates(he, names, roomsFor, rng, visibility));
  }
  const line = `${house}${isTest ? "" : " (train)"}: ${scene.rooms.length} rooms, ${scene.objects.length} objects, ${activities.length} activities, ${episodes.length} episodes`;
  return { index: h, name: house, isTest, view, episodes, candidates, files, used, line };
}

/** What a rendering job makes of one test episode (JSON: it travels in a queued run's spec). */
export interface EpisodeNeed {
  id: string;
  /** The house index h (buildEgoTLHouse). */
  house: number;
  /** Clip indices with a clip file, frames with a current-frame JPEG, ascending. */
  clips: number[];
  frames: number[];
  memory: boolean;
}

/** Everything but the renders: the selected rows, the episodes to render and the house files. */
export interface EgoTLPlanned {
  needs: EpisodeNeed[];
  testRows: EgoTLRow[];
  trainRows: EgoTLRow[];
  stats: Record<string, unknown>;
  episodes: { test: number; train: number };
  files: Map<string, string | Buffer>;
  used: CatalogEntry[];
  /** The test houses built (kept only when asked: the local generate renders from them). */
  houses: EgoTLHouse[];
}

/**
 * Phase 1 for every house in order, then the selection: per task, balanced; letters and answer
 * positions balanced by a seeded cycle (one stream, deriveSeed(seed, 0x7e57), over all houses).
 */
export async function planEgoTLRelease(opts: GenerateEgoTLOptions, shared: EgoTLShared, keepHouses: boolean): Promise<EgoTLPlanned> {
  checkSeedAndSize(opts.seed, "houses", opts.houses);
  const log = opts.log ?? (() => {});
  const media = opts.media ?? "spans";
  const perTask = opts.perTask ?? Infinity;
  const test: Candidate[] = [];
  const train: Candidate[] = [];
  const episodeById = new Map<string, HouseEpisode>();
  const houseOf = new Map<string, number>();
  const files = new Map<string, string | Buffer>();
  const used: CatalogEntry[] = [];
  const houses: EgoTLHouse[] = [];
  let episodesTest = 0, episodesTrain = 0;
  const total = opts.houses + (opts.trainHouses ?? 0);
  for (let h = 0; h < total; h++) {
    const built = await buildEgoTLHouse(opts, h, shared);
    (built.isTest ? test : train).push(...built.candidates);
    if (built.isTest) episodesTest += built.episodes.length;
    else episodesTrain += built.episodes.length;
    for (const he of built.episodes) {
      episodeById.set(he.id, he);
      houseOf.set(he.id, h);
    }
    for (const [rel, content] of built.files) files.set(rel, content);
    used.push(...built.used);
    if (keepHouses && built.isTest) houses.push(built);
    log(built.line);
  }
  const selRng = createRng(deriveSeed(opts.seed, 0x7e57));
  const rowsOf = (cands: Candidate[], cap: number) => {
    const rows: EgoTLRow[] = [];
    const kept: Candidate[] = [];
    for (const task of EGOTL_TASKS) {
      const ofTask = cands.filter((c) => c.task === task);
      const classes = ANSWER_CLASSES[task];
      // Distance: equal counts over the bins that have walks (DISTANCE_EDGES_M); direction: equal
      // counts of every label per clip length; the other tasks: the share cap of selectBalanced.
      const stratified = !classes ? ofTask
        : task === "distance" ? equalPerStratum(ofTask, classes.filter((k) => ofTask.some((c) => c.group === k)), selRng)
        : ofTask.some((c) => c.stratum !== undefined) ? equalPerStratum(ofTask, classes, selRng) : ofTask;
      const chosen = selectBalanced(stratified, cap, selRng, classes);
      const cycle = selRng.shuffle([0, 1, 2, 3]);
      chosen.sort((a, b) => (a.row(media, 0).id < b.row(media, 0).id ? -1 : 1));
      chosen.forEach((c, k) => rows.push(c.row(media, cycle[k % 4]!)));
      kept.push(...chosen);
    }
    return { rows, kept };
  };
  const testSel = rowsOf(test, perTask);
  const trainSel = rowsOf(train, Infinity);
  if (testSel.rows.length === 0) throw new UsageError(`the ${opts.houses} house(s) gave no questions; nothing was written. Try more houses (--count).`);
  // What the test items use, per episode (in the order the items name them: the stats' order).
  const needed = new Map<string, { clips: Set<number>; frames: Set<number>; memory: boolean }>();
  for (const c of testSel.kept) {
    const n = needed.get(c.episode) ?? { clips: new Set<number>(), frames: new Set<number>(), memory: false };
    if (c.clip) n.clips.add(c.clip.index);
    if (c.frame !== undefined) n.frames.add(c.frame);
    if (c.memory) n.memory = true;
    needed.set(c.episode, n);
  }
  const needs = [...needed].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, n]): EpisodeNeed => ({
    id, house: houseOf.get(id)!, clips: [...n.clips].sort((a, b) => a - b), frames: [...n.frames].sort((a, b) => a - b), memory: n.memory && episodeById.get(id)!.walkthrough !== null,
  }));
  const stats = datasetStats(testSel.rows, trainSel.rows, [...needed.keys()].map((id) => episodeById.get(id)!.episode));
  return { needs, testRows: testSel.rows, trainRows: trainSel.rows, stats, episodes: { test: episodesTest, train: episodesTrain }, files, used, houses };
}

/** One rendered episode: its files, the frames rendered, the log line. */
export interface RenderedEpisode {
  files: Map<string, Buffer | string>;
  frames: number;
  line: string;
}

/**
 * Renders frame after frame, letting other work run between frames: a queue worker's lease
 * heartbeat is a timer, and an episode's frames take tens of seconds in all.
 */
async function renderEach<T>(poses: readonly T[], render: (pose: T, k: number) => Uint8Array, keyOf: (pose: T, k: number) => string): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  const drawn = new Map<string, Uint8Array>();
  for (let k = 0; k < poses.length; k++) {
    const key = keyOf(poses[k]!, k);
    const same = drawn.get(key);
    if (same) {
      // The same input as an earlier frame: the same picture (the buffers are never written to after).
      out.push(same);
      continue;
    }
    const rgb = render(poses[k]!, k);
    drawn.set(key, rgb);
    out.push(rgb);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}

/** A number exactly (String round-trips a double; -0 kept apart from 0). */
const exact = (v: number) => (Object.is(v, -0) ? "-0" : String(v));

/**
 * Everything a frame's picture depends on besides the house: the pose, the moved objects (their
 * offsets, null while carried) and the switched-on objects. Equal keys, equal render input.
 */
function frameKey(p: Pose, moved: ReadonlyMap<number, Vec3 | null>, on: ReadonlySet<number>): string {
  const m = [...moved].map(([id, d]) => `${id}:${d === null ? "null" : d.map(exact).join(",")}`).join(";");
  return `${[p.x, p.y, p.z, p.yaw, p.pitch].map(exact).join(",")}|${m}|${[...on].join(",")}`;
}

/**
 * Phase 2 for one episode: every frame rendered and encoded as episode.mp4, the clips and current
 * frames the items use, the memory-bank walkthrough, poses.json. `tmpDir` holds the encoder's files
 * while it runs (removed after). With `episodeVideo: false` only the frames of the needed clips and
 * current frames are drawn and episode.mp4 is not written (a check of a sample of the pictures).
 */
export async function renderEgoTLEpisode(house: EgoTLHouse, need: EpisodeNeed, size: { width: number; height: number }, tmpDir: string, options: { episodeVideo?: boolean } = {}): Promise<RenderedEpisode> {
  const { id } = need;
  const he = house.episodes.find((e) => e.id === id);
  if (!he) throw new Error(`${house.name} has no episode ${id}`);
  const { view } = house;
  const ep = he.episode;
  const whole = options.episodeVideo ?? true;
  const files = new Map<string, Buffer | string>();
  const clipsNeeded = need.clips.map((index) => ep.clips.find((c) => c.index === index)!);
  const clipFrames = clipsNeeded.flatMap((c) => Array.from({ length: c.last - c.first + 1 }, (_, j) => c.first + j));
  const drawnFrames = whole ? ep.frames.map((_, k) => k) : [...new Set([...need.frames, ...clipFrames])].sort((a, b) => a - b);
  // A frame whose pose and object state are an earlier frame's (pauses, glances back) is that
  // frame's picture: renderView is a pure function of them, so it is not drawn again.
  const drawn = await renderEach(drawnFrames, (k) => renderFrame(view, ep.frames[k]!, ep.moved[k]!, ep.switchedOn[k]!, size).rgb, (k) => frameKey(ep.frames[k]!, ep.moved[k]!, ep.switchedOn[k]!));
  const frames: Uint8Array[] = [];
  drawnFrames.forEach((k, j) => (frames[k] = drawn[j]!));
  let framesRendered = drawn.length;
  await mkdir(tmpDir, { recursive: true });
  const encode = async (rel: string, list: Uint8Array[], fps: number) => {
    const file = path.join(tmpDir, path.basename(rel));
    await encodeMp4(list, file, { ...size, fps, crf: P.crf });
    files.set(rel, await readFile(file));
    await rm(file, { force: true });
  };
  if (whole) await encode(episodeVideo(id), frames, P.fps);
  for (const clip of clipsNeeded) await encode(clipVideo(id, clip), frames.slice(clip.first, clip.last + 1), P.fps);
  for (const f of need.frames) {
    files.set(currentFrame(id, f), await sharp(Buffer.from(frames[f]!), { raw: { ...size, channels: 3 } }).jpeg({ quality: P.jpegQuality }).toBuffer());
  }
  if (need.memory && he.walkthrough) {
    const step = Math.round(P.fps / P.memoryFps);
    const memPoses = he.walkthrough.filter((_, k) => k % step === 0);
    const memFrames = await renderEach(memPoses, (p) => renderFrame(view, p, new Map(), new Set(), size).rgb, (p) => frameKey(p, new Map(), new Set()));
    framesRendered += memFrames.length;
    await encode(memoryVideo(id), memFrames, P.memoryFps);
  }
  await rm(tmpDir, { recursive: true, force: true });
  files.set(`episodes/${id}/poses.json`, posesJson(he));
  return { files, frames: framesRendered, line: `${id}: ${ep.frames.length} frames, ${ep.clips.length} clips rendered and encoded` };
}

export const egoTLFrameSize = (opts: Pick<GenerateEgoTLOptions, "frameSize">) => opts.frameSize ?? { width: P.width, height: P.height };

/** The planned files, the rendered episodes (in plan order), the rows, stats, ATTRIBUTION and README, written under outDir. */
export async function assembleEgoTLRelease(opts: GenerateEgoTLOptions, planned: EgoTLPlanned, rendered: readonly RenderedEpisode[]): Promise<GenerateEgoTLResult> {
  const log = opts.log ?? (() => {});
  const media = opts.media ?? "spans";
  const files = new Map<string, string | Buffer>(planned.files);
  for (const r of rendered) for (const [rel, content] of r.files) files.set(rel, content);
  const count = (rows: EgoTLRow[]) => Object.fromEntries(EGOTL_TASKS.map((t) => [t, rows.filter((r) => r.task === t).length])) as Record<EgoTLTask, number>;
  const result: GenerateEgoTLResult = {
    questions: { test: count(planned.testRows), train: count(planned.trainRows) },
    episodes: { ...planned.episodes, rendered: planned.needs.length },
    frames: rendered.reduce((n, r) => n + r.frames, 0),
    stats: planned.stats,
  };
  files.set("test.jsonl", planned.testRows.map((r) => JSON.stringify(r) + "\n").join(""));
  files.set("train.jsonl", planned.trainRows.map((r) => JSON.stringify(r) + "\n").join(""));
  files.set("stats.json", JSON.stringify(planned.stats, null, 1) + "\n");
  files.set("ATTRIBUTION", attributionText(planned.used));
  files.set("README.md", readme(opts, result, media));
  log(statsSummary(planned.stats));
  await prepareGeneratedOutDir(opts.outDir, README_MARK);
  await writeFileSet(opts.outDir, files);
  return result;
}

/** The line `spatialprobe generate egotl` prints (src/benchmarks/egotl/index.ts). */
export function generateSummary(count: number, result: GenerateEgoTLResult): string {
  const counts = (s: "test" | "train") => Object.entries(result.questions[s]).map(([t, n]) => `${t} ${n}`).join(", ");
  return `EgoTL-Bench-format set from ${count} houses, ${result.episodes.rendered} rendered episodes (${result.frames} frames): test ${counts("test")}; train ${counts("train")}`;
}

/**
 * Generates the set and writes it under `outDir`; same options, same bytes. The same pieces a
 * queued run uses (src/queue/generators/egotl.ts): the plan, one rendering job per episode in
 * plan order, the assembly.
 */
export async function generateEgoTLRelease(opts: GenerateEgoTLOptions): Promise<GenerateEgoTLResult> {
  checkSeedAndSize(opts.seed, "houses", opts.houses);
  const log = opts.log ?? (() => {});
  const shared = egoTLShared(opts.assetsDir);
  try {
    const planned = await planEgoTLRelease(opts, shared, true);
    const byHouse = new Map(planned.houses.map((h) => [h.index, h]));
    const rendered: RenderedEpisode[] = [];
    const tmpRoot = opts.outDir + ".partial-videos";
    for (const need of planned.needs) {
      const r = await renderEgoTLEpisode(byHouse.get(need.house)!, need, egoTLFrameSize(opts), path.join(tmpRoot, need.id));
      log(r.line);
      rendered.push(r);
    }
    await rm(tmpRoot, { recursive: true, force: true });
    return await assembleEgoTLRelease(opts, planned, rendered);
  } finally {
    shared.close();
  }
}

/** The stored trajectory: poses per frame and the clips (kind, frames, narration, step). */
function posesJson(he: HouseEpisode): string {
  const ep = he.episode;
  return JSON.stringify({
    episode: he.id, house: he.house, fps: P.fps, abstract_task: ep.activity.abstract, steps: ep.steps,
    walker: { eye_m: Math.round(ep.walker.eye * 1e4) / 1e4, speed_mps: Math.round(ep.walker.speed * 1e4) / 1e4, step_hz: Math.round(ep.walker.stepHz * 1e4) / 1e4 },
    clips: ep.clips.map((c) => ({ index: c.index, kind: c.kind, step: c.subgoal, first_frame: c.first, last_frame: c.last, narration: c.narration, ...(c.object !== undefined ? { object: c.object } : {}) })),
    frames: ep.frames.map((p) => [p.x, p.y, p.z, p.yaw, p.pitch]),
  }) + "\n";
}
