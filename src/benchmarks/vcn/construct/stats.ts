/**
 * Statistics of a generated set (paper App. B.7, Fig. 10; issue part 4): frames per tour and per
 * prior video, rooms per prior video, floor area covered (m2 of the distinct rooms the camera
 * enters), instruction types and lengths (words), geodesic distance to the goal, shortest-path
 * steps; and per question the exact complete and category chance levels (chance.ts), with
 * their means per task.
 */
import { chanceLevels } from "../chance.js";
import { TASK_CODES, type RawItem, type TaskCode } from "../schema.js";
import type { GoalTarget } from "../types.js";

export interface Spread {
  mean: number;
  min: number;
  max: number;
}

const r4 = (v: number): number => Math.round(v * 1e4) / 1e4 + 0;

export function spread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  return { mean: r4(values.reduce((a, b) => a + b, 0) / values.length), min: r4(Math.min(...values)), max: r4(Math.max(...values)) };
}

/** What the statistics need of one episode. */
export interface EpisodeFacts {
  item: RawItem;
  /** Category of the target room (R2O) or object (Instance). */
  targetCategory: string;
  roomsVisited: number;
  areaM2: number;
  geodesicM: number;
  steps: number;
}

export interface VcnStats {
  tours: number;
  frames_per_tour: Spread | null;
  episodes: number;
  types: Record<TaskCode, number>;
  subclasses: Record<string, number>;
  prior_video: { frames: Spread | null; rooms: Spread | null; area_m2: Spread | null };
  instruction_words: Spread | null;
  geodesic_m: Spread | null;
  steps: Spread | null;
  chance: {
    complete: { mean: number | null; by_task: Record<string, number | null> };
    category: { mean: number | null; by_task: Record<string, number | null> };
  };
  per_question: Array<{ id: string; task: TaskCode; complete: number; category: number }>;
  /** The paper's test split, where its text gives a figure (§3.4; Fig. 10 gives the rest as plots only). */
  paper: typeof PAPER_TEST_SPLIT;
  /** The set's means beside those figures, each within PAPER_TOLERANCE of the paper's or not. */
  paper_comparison: { tolerance: number; figures: PaperFigure[] };
}

/** One mean of the set beside the paper's. */
export interface PaperFigure {
  figure: string;
  paper: number;
  here: number | null;
  /** here / paper, 4 decimals. */
  ratio: number | null;
  within: boolean | null;
}

/** §3.4: 1,250 episodes, 250 per type, from 21 tour videos; prior videos of 157.9 frames and 122.1 shortest-path steps on average. */
export const PAPER_TEST_SPLIT = Object.freeze({ episodes: 1250, per_type: 250, tours: 21, prior_video_frames_mean: 157.9, steps_mean: 122.1 });

/**
 * How far a set's mean may sit from the paper's, relative to it, and still be called within (issue
 * 28 item 6). Two sets of 250 and 500 episodes from different seeds differed by 1-3% in both means
 * (prior video frames 138.8 and 140.2, steps 81.2 and 83.5); 15% leaves room for that and for floor
 * plans unlike Matterport3D's, and still calls a mean off by a sixth or more outside.
 */
export const PAPER_TOLERANCE = 0.15;

/** The set's means beside the paper's figures (prior video frames, shortest-path steps), within PAPER_TOLERANCE or not. */
export function paperFigures(frames: Spread | null, steps: Spread | null): PaperFigure[] {
  const figure = (name: string, paper: number, here: number | null): PaperFigure => {
    const ratio = here === null ? null : r4(here / paper);
    // Compared in ten-thousandths, the ratio's own precision (0.85 - 1 is not -0.15 in binary).
    return { figure: name, paper, here, ratio, within: ratio === null ? null : Math.round(Math.abs(ratio - 1) * 1e4) <= Math.round(PAPER_TOLERANCE * 1e4) };
  };
  return [
    figure("prior video frames", PAPER_TEST_SPLIT.prior_video_frames_mean, frames?.mean ?? null),
    figure("shortest-path steps", PAPER_TEST_SPLIT.steps_mean, steps?.mean ?? null),
  ];
}

/** The goal of an item as chance.ts reads it. */
export function goalOf(item: RawItem, category: string): GoalTarget {
  return item.target.object !== undefined ? { kind: "object", object: item.target.object, category } : { kind: "room", room: item.target.room!, category };
}

const mean = (v: readonly number[]): number | null => (v.length ? r4(v.reduce((a, b) => a + b, 0) / v.length) : null);

export function setStatistics(tourFrames: readonly number[], episodes: readonly EpisodeFacts[]): VcnStats {
  const perQuestion = episodes.map((e) => {
    const c = chanceLevels({ target: goalOf(e.item, e.targetCategory), annotations: e.item.annotations });
    return { id: String(e.item.id), task: e.item.task, complete: r4(c.complete), category: r4(c.category) };
  });
  const types = Object.fromEntries(TASK_CODES.map((t) => [t, episodes.filter((e) => e.item.task === t).length])) as Record<TaskCode, number>;
  const subclasses: Record<string, number> = {};
  for (const e of episodes) {
    const s = String(e.item.meta?.["subclass"] ?? e.item.task);
    subclasses[s] = (subclasses[s] ?? 0) + 1;
  }
  const frames = spread(episodes.map((e) => e.item.annotations.length));
  const steps = spread(episodes.map((e) => e.steps));
  const byTask = (key: "complete" | "category") => Object.fromEntries(TASK_CODES.map((t) => [t, mean(perQuestion.filter((q) => q.task === t).map((q) => q[key]))]));
  return {
    tours: tourFrames.length,
    frames_per_tour: spread(tourFrames),
    episodes: episodes.length,
    types,
    subclasses: Object.fromEntries(Object.entries(subclasses).sort(([a], [b]) => (a < b ? -1 : 1))),
    prior_video: {
      frames,
      rooms: spread(episodes.map((e) => e.roomsVisited)),
      area_m2: spread(episodes.map((e) => e.areaM2)),
    },
    instruction_words: spread(episodes.map((e) => e.item.instruction.split(/\s+/).filter(Boolean).length)),
    geodesic_m: spread(episodes.map((e) => e.geodesicM)),
    steps,
    chance: {
      complete: { mean: mean(perQuestion.map((q) => q.complete)), by_task: byTask("complete") },
      category: { mean: mean(perQuestion.map((q) => q.category)), by_task: byTask("category") },
    },
    per_question: perQuestion,
    paper: PAPER_TEST_SPLIT,
    paper_comparison: { tolerance: PAPER_TOLERANCE, figures: paperFigures(frames, steps) },
  };
}

const pct = (v: number | null) => (v === null ? "-" : `${(100 * v).toFixed(1)}%`);
const fmt = (s: Spread | null, unit = "") => (s ? `${s.mean.toFixed(1)}${unit} (${s.min}-${s.max})` : "-");

const figureText = (f: PaperFigure): string => `${f.figure} ${f.within === null ? "-" : f.within ? "yes" : "NO"}${f.ratio === null ? "" : ` (${f.ratio.toFixed(2)}x)`}`;

/** The summary lines the generator prints. */
export function statisticsText(s: VcnStats): string {
  const present = TASK_CODES.filter((t) => s.types[t] > 0);
  return [
    `${s.episodes} episodes: ${present.map((t) => `${t} ${s.types[t]}`).join(", ")} (${Object.entries(s.subclasses).map(([k, n]) => `${k} ${n}`).join(", ")})`,
    `tours ${s.tours}, frames per tour ${fmt(s.frames_per_tour)}; prior video frames ${fmt(s.prior_video.frames)}, rooms ${fmt(s.prior_video.rooms)}, area ${fmt(s.prior_video.area_m2, " m2")}`,
    `instruction words ${fmt(s.instruction_words)}; geodesic distance ${fmt(s.geodesic_m, " m")}; shortest-path steps ${fmt(s.steps)}`,
    `paper's test split (§3.4): ${s.paper.episodes} episodes (${s.paper.per_type} per type) from ${s.paper.tours} tours; prior video frames ${s.paper.prior_video_frames_mean} on average (here ${s.prior_video.frames?.mean.toFixed(1) ?? "-"}), shortest-path steps ${s.paper.steps_mean} (here ${s.steps?.mean.toFixed(1) ?? "-"})`,
    `within ${Math.round(s.paper_comparison.tolerance * 100)}% of the paper's: ${s.paper_comparison.figures.map(figureText).join(", ")}`,
    `chance (oracle 100%): complete ${pct(s.chance.complete.mean)} [${present.map((t) => `${t} ${pct(s.chance.complete.by_task[t] ?? null)}`).join(", ")}]; category ${pct(s.chance.category.mean)} [${present.map((t) => `${t} ${pct(s.chance.category.by_task[t] ?? null)}`).join(", ")}]`,
  ].join("\n");
}
