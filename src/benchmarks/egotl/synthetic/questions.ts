/**
 * Questions of all six tasks from a synthetic walkthrough, true by construction:
 * - direction / distance / action recognition about one segment's clip;
 * - next action: a segment's clip + the route as a chain of thought -> the following segment;
 * - scene-aware action: a view shortly before a decision point (the corridor turns, stairs start)
 *   + the abstract task -> the only action the corridor allows;
 * - planning: the whole walkthrough (memory bank) + the abstract task -> the true route among
 *   three altered ones (a turn or staircase reversed, a corridor turned into stairs, two steps
 *   swapped, a step dropped).
 */
import type { Rng } from "../../../stats/rng.js";
import type { DirectionLabel, EgoTLTask } from "../schema.js";
import { FPS, FRAMES_PER_SEGMENT, GOAL_COLOUR, segmentFrames, ZONE_COLOURS, type Motion, type Segment, type Walkthrough } from "./world.js";

export interface Row {
  id: string;
  task: EgoTLTask;
  video_id: string;
  media?: { frames?: string[]; dir?: string; fps: number };
  current_frame?: string;
  abstract_task?: string;
  chain_of_thought?: string;
  options?: string[];
  answer: string | number;
  meta: Record<string, unknown>;
}

/** How far before a turn or staircase the scene-aware view is taken (metres, along the route). */
const SCENE_VIEW_DISTANCE = 2;

const MOTIONS: Motion[] = ["forward", "left", "right", "up", "down"];

export const DIRECTION_OF: Record<Motion, DirectionLabel> = {
  forward: "Move forward",
  left: "Turn left",
  right: "Turn right",
  up: "Going up",
  down: "Going down",
};

const colour = (zone: number) => ZONE_COLOURS[zone]!.name;

/** An action phrase for a motion in a colour zone. */
export function actionText(motion: Motion, zone: number): string {
  const c = colour(zone);
  switch (motion) {
    case "forward":
      return `walk straight ahead along the ${c} corridor`;
    case "left":
      return `turn left into the ${c} corridor`;
    case "right":
      return `turn right into the ${c} corridor`;
    case "up":
      return `climb the stairs between the ${c} walls`;
    case "down":
      return `go down the stairs between the ${c} walls`;
  }
}

const metresText = (m: number) => `${Number(m.toFixed(1))} m`;

function stepText(seg: Segment): string {
  return seg.motion === "left" || seg.motion === "right" ? actionText(seg.motion, seg.zone) : `${actionText(seg.motion, seg.zone)} for about ${metresText(seg.metres)}`;
}

/** A route as a chain of thought: numbered steps, then the goal. */
export function routeText(segments: Segment[]): string {
  const steps = segments.map((s, i) => `${i + 1}. ${stepText(s)[0]!.toUpperCase()}${stepText(s).slice(1)}.`);
  return `${steps.join(" ")} Then the ${GOAL_COLOUR.name} wall is straight ahead.`;
}

export const ABSTRACT_TASK = `Walk to the ${GOAL_COLOUR.name} wall at the end of the route.`;

/** Four options: the truth at a random position and three distractors (same colour, other motions). */
function optionsFor(truth: Motion, zone: number, rng: Rng): { options: string[]; answer: number } {
  const others = rng.shuffle(MOTIONS.filter((m) => m !== truth)).slice(0, 3);
  const answer = rng.below(4);
  const motions = [...others];
  motions.splice(answer, 0, truth);
  return { options: motions.map((m) => actionText(m, zone)), answer };
}

const LETTER = ["A", "B", "C", "D"] as const;

/** Three altered routes, all different from the truth and from each other. */
function alteredRoutes(segments: Segment[], rng: Rng): Segment[][] {
  const flip: Record<Motion, Motion> = { left: "right", right: "left", up: "down", down: "up", forward: "forward" };
  const candidates: Segment[][] = [];
  segments.forEach((s, i) => {
    if (s.motion !== "forward") candidates.push(segments.map((t, j) => (j === i ? { ...t, motion: flip[t.motion] } : t)));
    if (s.motion === "forward") candidates.push(segments.map((t, j) => (j === i ? { ...t, motion: rng.chance(0.5) ? "up" : "down" } : t)));
    if (i + 1 < segments.length && s.motion !== segments[i + 1]!.motion) {
      const swapped = segments.slice();
      swapped[i] = segments[i + 1]!;
      swapped[i + 1] = s;
      candidates.push(swapped);
    }
    if (segments.length > 2) candidates.push(segments.filter((_, j) => j !== i));
  });
  const seen = new Set([routeText(segments)]);
  const out: Segment[][] = [];
  for (const c of rng.shuffle(candidates)) {
    const text = routeText(c);
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(c);
    if (out.length === 3) break;
  }
  if (out.length < 3) throw new Error("not enough altered routes");
  return out;
}

export const frameFile = (w: Walkthrough, index: number) => `frames/${w.id}/frame_${String(index).padStart(3, "0")}.png`;

/** Every question a walkthrough offers, per task (the generator picks a balanced few). */
export function walkthroughQuestions(w: Walkthrough, rng: Rng): Record<EgoTLTask, Row[]> {
  const out: Record<EgoTLTask, Row[]> = { planning: [], scene_action: [], next_action: [], action_recognition: [], direction: [], distance: [] };
  const clip = (s: number) => ({ frames: segmentFrames(s).map((i) => frameFile(w, i)), fps: FPS });
  w.segments.forEach((seg, s) => {
    const meta = { synthetic: true, segment: s, motion: seg.motion, metres: seg.metres };
    out.direction.push({ id: `${w.id}-direction-s${s}`, task: "direction", video_id: w.id, media: clip(s), answer: DIRECTION_OF[seg.motion], meta });
    out.distance.push({ id: `${w.id}-distance-s${s}`, task: "distance", video_id: w.id, media: clip(s), answer: Math.round(seg.metres * 100) / 100, meta });
    const recog = optionsFor(seg.motion, seg.zone, rng);
    out.action_recognition.push({ id: `${w.id}-action-s${s}`, task: "action_recognition", video_id: w.id, media: clip(s), options: recog.options, answer: LETTER[recog.answer]!, meta });
    const next = w.segments[s + 1];
    if (next) {
      const n = optionsFor(next.motion, next.zone, rng);
      out.next_action.push({
        id: `${w.id}-next-s${s}`, task: "next_action", video_id: w.id, media: clip(s),
        chain_of_thought: `I am walking to the ${GOAL_COLOUR.name} wall along this route: ${routeText(w.segments)} The clip shows the step I have just done.`,
        options: n.options, answer: n.options[n.answer]!, meta: { ...meta, next: next.motion },
      });
      // A view about 2 m before the decision point (the segment's start when shorter), looking along the corridor.
      if (seg.motion !== "left" && seg.motion !== "right" && next.motion !== "forward") {
        const frame = segmentFrames(s)[Math.max(0, Math.floor(FRAMES_PER_SEGMENT * (1 - SCENE_VIEW_DISTANCE / seg.metres)))]!;
        const a = optionsFor(next.motion, next.zone, rng);
        out.scene_action.push({
          id: `${w.id}-scene-s${s}`, task: "scene_action", video_id: w.id, current_frame: frameFile(w, frame), abstract_task: ABSTRACT_TASK,
          options: a.options, answer: a.options[a.answer]!, meta: { synthetic: true, segment: s + 1, motion: next.motion, frame },
        });
      }
    }
  });
  const altered = alteredRoutes(w.segments, rng);
  const answer = rng.below(4);
  const routes = [...altered];
  routes.splice(answer, 0, w.segments);
  out.planning.push({
    id: `${w.id}-planning`, task: "planning", video_id: w.id, media: { dir: `frames/${w.id}`, fps: FPS }, abstract_task: ABSTRACT_TASK,
    options: routes.map(routeText), answer: LETTER[answer]!, meta: { synthetic: true, route: w.segments.map((s) => s.motion) },
  });
  return out;
}
