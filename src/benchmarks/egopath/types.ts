import type { TaskCode } from "./tasks.js";

/** One waypoint marker drawn on the image. */
export interface Waypoint {
  displayId: number;
  imageXY?: [number, number];
  /** Where its number's baseline starts (`label_xy`, spatialprobe's sets); absent: up-right of the marker, as the release draws it. */
  labelXY?: [number, number];
  worldXYZ?: [number, number, number];
  /** The scene waypoint it marks (`waypoint_id`), when the file gives an integer. */
  waypointId?: bigint;
  /** Occupancy-grid cell (`grid_xy`, read with Python int()), when given. */
  gridXY?: [bigint, bigint];
}

/** Legal directed steps for one agent: source display id -> (destination -> length in metres). */
export type Adjacency = Map<bigint, Map<bigint, number>>;

interface ItemBase {
  /** question_id as a string (for files and reports). */
  id: string;
  /** question_id exactly as the release stores it (string or number), for matching predictions. */
  rawId: string | number;
  task: TaskCode;
  sceneId: string;
  /** Bootstrap cluster: the scene. */
  cluster: string;
  viewId: string;
  /** Absolute path of the overlay image. */
  imagePath: string;
  /** Path as written in the row (relative to the dataset root). */
  imageRef: string;
  systemPrompt: string;
  userPrompt: string;
  waypoints: Waypoint[];
  /** The merged ground_truth object, as loaded (vqa row filled from the gt file). */
  groundTruth: Record<string, unknown>;
  /** File and line the row came from. */
  source: { file: string; line: number };
}

/** a1/b1: choose the traversable subset of the displayed ids. */
export interface SetItem extends ItemBase {
  kind: "set";
  candidates: bigint[];
  positives: bigint[];
}

/** a2/b2/c: an ordered route of display ids from the start to an acceptable goal. */
export interface RouteItem extends ItemBase {
  kind: "route";
  /** Every displayed id (from the visible-waypoints file). */
  displayed: bigint[];
  startId: bigint;
  acceptableGoals: bigint[];
  optimalLengthM: number;
  /**
   * Legal steps. With a direct-pairs sidecar (the benchmark's eval-fix rows) keyed by display id;
   * with the legacy scene waypoint graph keyed by graph waypoint id (see `displayToGraph`).
   */
  adjacency: Adjacency;
  /** Which legality contract the row is scored under (evaluate_next.py: sidecar, else legacy graph). */
  graph: "direct_pairs" | "waypoint_graph";
  /** waypoint_graph rows: display id -> graph waypoint id (the evaluator's display-to-graph map). */
  displayToGraph?: Map<bigint, bigint>;
  /** The reference route (ground_truth.reference_path_display_ids or answer). */
  referenceRoute: bigint[];
}

export type EgoPathItem = SetItem | RouteItem;
