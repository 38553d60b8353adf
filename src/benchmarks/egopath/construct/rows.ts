/**
 * The release files of a built view: question rows (vqa and gt), visible-waypoint records and
 * direct-pair sidecars, in the EgoPathBench layout (build_vqa_questions_next.py,
 * build_benchmark_evalfix_package.py field names).
 */
import { worldToCell, type OccupancyGrid } from "../../../world/space/index.js";
import type { TaskCode } from "../tasks.js";
import { EGOPATH_PARAMS as P, round4 } from "./params.js";
import { embodiedPathPrompt, embodiedTraversabilityPrompt, intentPathPrompt, pointPathPrompt, pointTraversabilityPrompt, SYSTEM_PROMPTS } from "./prompts.js";
import { routeChallenge, viewChallenge } from "./selection.js";
import type { Sheet } from "./sheets.js";
import type { Candidate } from "./types.js";
import type { BuiltView, DirectPairs, RouteQuestion } from "./view.js";

export type Split = "train" | "val" | "benchmark";

/** Folder of a split's question files: the benchmark in benchmark_evalfix/, train and val in release/ (as the public release). */
export function splitRoot(split: Split): string {
  return split === "benchmark" ? "benchmark_evalfix/benchmark" : `release/${split}`;
}

export const imagePath = (scene: string, view: number, task: TaskCode): string => `assets/${scene}/view_${view}/rgb_overlay_${task}.png`;
export const waypointsPath = (scene: string, view: number, task: TaskCode): string => `assets/${scene}/view_${view}/visible_waypoints_${task}.json`;
export const sidecarPath = (split: Split, task: "a2" | "b2" | "c", scene: string, view: number): string => `${splitRoot(split)}/sidecars/${task}/${scene}/view_${view}.direct_pairs.json`;

export interface QuestionRow {
  question_id: string;
  source: "spatialprobe-world";
  task: TaskCode;
  scene_id: string;
  view_id: number;
  routing_id?: string;
  image_path: string;
  visible_waypoints_path: string;
  system_prompt: string;
  user_prompt: string;
  ground_truth: Record<string, unknown>;
}

/** The visible_waypoints_<task>.json record of a sheet. */
export function waypointsJson(sheet: Sheet, view: number, task: TaskCode, imageSide: number, grid: OccupancyGrid): string {
  const entries = sheet.candidates.map((c, k) => waypointEntry(c, k + 1, sheet.labels[k]!, imageSide, grid));
  const head = JSON.stringify({ view_id: view, image_path: `rgb_overlay_${task}.png` }).slice(1, -1);
  return `{${head},\n  "visible_waypoints": [\n${entries.map((e) => "    " + JSON.stringify(e)).join(",\n")}\n  ]\n}\n`;
}

function waypointEntry(c: Candidate, displayId: number, label: { x: number; y: number }, side: number, grid: OccupancyGrid): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    display_id: displayId,
    waypoint_id: c.key,
    world_xyz: c.world.map(round4),
    grid_xy: worldToCell(grid, [c.world[0], c.world[1]]),
    image_xy: [round4(c.image[0]), round4(c.image[1])],
    // Not in the release (its numbers always sit up-right of the marker): where ours is drawn.
    label_xy: [round4(label.x), round4(label.y)],
    screen_xy_norm: [round4((2 * c.image[0]) / side - 1), round4(1 - (2 * c.image[1]) / side)],
    depth: round4(c.depth),
    pointmass_walkable: c.pointWalkable,
    embodied_feasible: c.embodiedFeasible,
    is_occluded: false,
    raycast_visible: true,
    candidate_source: c.source,
    on_object_pixel: c.onObjectPixel,
    on_structural_pixel: c.onStructuralPixel,
    depth_foreground_occluded: c.occluded,
    point_clearance_m: round4(c.pointClearanceM),
    embodied_clearance_margin_m: round4(c.embodiedClearanceM),
  };
  if (c.object) {
    entry["object_id"] = c.object.id;
    entry["object_category"] = c.object.category;
  }
  return entry;
}

/** view.json: the camera and every object the view shows, as the identity cues saw them. */
export function viewJson(built: BuiltView, view: number): string {
  const c = built.camera;
  const deg = (r: number) => round4((r * 180) / Math.PI);
  return JSON.stringify({
    view_id: view,
    camera: { position: c.position.map(round4), yaw_deg: deg(c.yaw), pitch_deg: deg(c.pitch), vfov_deg: c.vfovDeg, width: c.width, height: c.height },
    shown_objects: built.shown.map((t) => ({
      id: t.object.id, category: t.object.category, color: t.object.color.name, visible_pixels: t.visiblePixels,
      visible_fraction: round4(t.visibleFraction), screen_x: round4(t.screenX), distance_m: round4(t.distanceM),
    })),
  }, null, 1) + "\n";
}

/** A direct-pairs sidecar (`next_direct_pairs_v1`). */
export function sidecarJson(task: string, scene: string, view: number, pairs: DirectPairs): string {
  const ids = [...pairs.keys()].sort((a, b) => a - b);
  const head = JSON.stringify({ schema_version: "next_direct_pairs_v1", task, scene_id: scene, view_id: view, display_ids: ids }).slice(1, -1);
  const lines = ids.map((id) => `    ${JSON.stringify(String(id))}: ${JSON.stringify(pairs.get(id)!.map((e) => ({ display_id: e.displayId, distance_m: e.distance })))}`);
  return `{${head},\n  "direct_neighbors": {\n${lines.join(",\n")}\n  }\n}\n`;
}

/** Every question row of a built view. */
export function viewRows(built: BuiltView, scene: string, view: number, split: Split): Record<TaskCode, QuestionRow[]> {
  const base = (task: TaskCode, n: number) => ({
    question_id: `${scene}_v${view}_${task}_${String(n).padStart(2, "0")}`,
    source: "spatialprobe-world" as const,
    task,
    scene_id: scene,
    view_id: view,
  });
  const media = (task: TaskCode) => ({ image_path: imagePath(scene, view, task), visible_waypoints_path: waypointsPath(scene, view, task) });
  const rows: Record<TaskCode, QuestionRow[]> = { a1: [], b1: [], a2: [], b2: [], c: [] };

  const all = built.traversability.candidates.map((_, k) => k + 1);
  // A view whose floor offers too few matched points has no a1/b1 (view.ts).
  for (const task of built.traversability.candidates.length > 0 ? (["a1", "b1"] as const) : []) {
    const walkable = built.traversability.candidates.flatMap((c, k) => ((task === "a1" ? c.pointWalkable : c.embodiedFeasible) ? [k + 1] : []));
    rows[task].push({
      ...base(task, 0),
      ...media(task),
      system_prompt: SYSTEM_PROMPTS.perception,
      user_prompt: task === "a1" ? pointTraversabilityPrompt() : embodiedTraversabilityPrompt(P.robotDiameterM),
      ground_truth: { answer: walkable, all_ids: all, walkable_ids: walkable, robot_diameter_m: task === "a1" ? 0 : P.robotDiameterM, challenge: viewChallenge(built.viewFacts) },
    });
  }

  const routeRow = (task: "a2" | "b2" | "c", q: RouteQuestion, n: number): QuestionRow => {
    const t = q.unit.target;
    const embodied = task !== "a2";
    const userPrompt =
      task === "a2" ? pointPathPrompt(q.startId, q.unit.identity.phrase)
      : task === "b2" ? embodiedPathPrompt(q.startId, q.unit.identity.phrase, P.robotDiameterM)
      : intentPathPrompt(q.startId, q.unit.intent!.text, P.robotDiameterM);
    const gt: Record<string, unknown> = {
      answer: q.answer,
      start_id: q.startId,
      goal_id: q.answer[q.answer.length - 1],
      acceptable_goal_ids: q.acceptable,
      optimal_length_m: q.optimalLength,
      reference_path_display_ids: q.answer,
      path_ids: q.pathIds,
      canonical_sparse_length_m: q.canonicalLength,
      direct_pairs_ref: sidecarPath(split, task, scene, view),
      robot_diameter_m: embodied ? P.robotDiameterM : 0,
      route_semantics: embodied ? "embodied" : "pointmass",
      target_id: t.object.id,
      target_category: t.object.category,
      target_color_name: t.object.color.name,
      target_distance_m: round4(t.distanceM),
      target_phrase: q.unit.identity.phrase,
      cue_type: q.unit.identity.cueType,
      cue_value: q.unit.identity.cueValue,
      ambiguity_count_H_view: q.unit.identity.ambiguityCount,
      goal_ring_min_distance_m: q.ringMin,
      goal_ring_threshold_m: q.ringThreshold,
      target_visible_fraction: round4(t.visibleFraction),
      target_bbox_px: t.box.map(round4),
      challenge: routeChallenge(q.unit.facts),
    };
    if (task === "c") {
      const intent = q.unit.intent!;
      Object.assign(gt, {
        route_source_task: "b2",
        intent_family: intent.family,
        generated_question: intent.text,
        residual_cue_type: intent.residualCue,
        intent_ambiguity_count: intent.ambiguityCount,
      });
    }
    return {
      ...base(task, n),
      routing_id: `routing_v${view}_c${String(q.unit.index).padStart(3, "0")}`,
      ...media(task),
      system_prompt: task === "a2" ? SYSTEM_PROMPTS.planning : task === "b2" ? SYSTEM_PROMPTS.embodied : SYSTEM_PROMPTS.intent,
      user_prompt: userPrompt,
      ground_truth: gt,
    };
  };
  built.questions.a2.forEach((q, n) => rows.a2.push(routeRow("a2", q, n)));
  built.questions.b2.forEach((q, n) => rows.b2.push(routeRow("b2", q, n)));
  built.questions.c.forEach((q, n) => rows.c.push(routeRow("c", q, n)));
  return rows;
}

/** The flat gt_next row: ids, paths and ground-truth fields side by side. */
export function gtRow(row: QuestionRow): Record<string, unknown> {
  const { system_prompt: _s, user_prompt: _u, ground_truth, ...rest } = row;
  return { ...rest, ...ground_truth };
}
