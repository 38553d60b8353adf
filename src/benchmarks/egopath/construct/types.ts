/** Records shared by the construction stages of a generated EgoPathBench release. */
import type { RenderBuffers } from "../../../world/render/index.js";
import type { AgentGrids, OccupancyGrid } from "../../../world/space/index.js";
import type { SceneObject, Vec3 } from "../../../world/types.js";

/**
 * Per-pixel buffers of one rendered view (the world renderer's output), with the view's albedo
 * (RGB8 of the renderer's "unlit" shading) when it was rendered too: colour words come from it.
 */
export type ViewBuffers = RenderBuffers & { albedo?: Uint8Array };

/** The plan grids of both agents (build_navigation_gt.py): point (radius 0) and embodied (0.30 m). */
export type { AgentGrids } from "../../../world/space/index.js";

export type Agent = keyof AgentGrids;


export type CandidateSource = "floor_grid" | "bottom_center_start" | "route_keypoint" | "object_surface" | "structural_surface";

/** One displayable candidate location of a view. */
export interface Candidate {
  /** Index of the candidate in its view, stable across sheets (the release's waypoint_id). */
  key: number;
  source: CandidateSource;
  world: Vec3;
  /** Continuous image coordinates of the marker. */
  image: [number, number];
  /** Depth along the camera axis, metres. */
  depth: number;
  pointWalkable: boolean;
  embodiedFeasible: boolean;
  onObjectPixel: boolean;
  onStructuralPixel: boolean;
  occluded: boolean;
  /** The object a surface negative lies on. */
  object?: Pick<SceneObject, "id" | "category">;
  /** Distance from the cell centre to the nearest occupied cell of each grid, metres. */
  pointClearanceM: number;
  embodiedClearanceM: number;
}


/** A target object as the view shows it. */
export interface ViewTarget {
  object: SceneObject;
  /** Planar distance from the camera to the object's centre, metres. */
  distanceM: number;
  visiblePixels: number;
  visibleFraction: number;
  /** Pixel box of the projected footprint corners, clipped to the image. */
  box: [number, number, number, number];
  /** Image x of the object's visible pixels' centre. */
  screenX: number;
  large: boolean;
  score: number;
}
