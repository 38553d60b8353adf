/**
 * The construction parameters of EgoPathBench, as the official release was built
 * (EgoPathBench/EgoPathBench, construction/configs/internscene_local.yaml, and the defaults of the
 * construction scripts where the config is silent). Pixel sizes are the official ones at
 * 1024 x 1024 and scale with the image side when a smaller image is asked for.
 */
export const OFFICIAL_IMAGE_SIDE = 1024;

export const EGOPATH_PARAMS = Object.freeze({
  /** render.camera_height, render.fov (vertical; square image), pitch 20 degrees down (render_scenes.py pose). */
  cameraHeightM: 1.25,
  vfovDeg: 120,
  pitchDeg: -20,
  imageSide: OFFICIAL_IMAGE_SIDE,
  /** render.views_per_scene (a soft cap), candidate cameras per scene (view_select_candidates). */
  viewsPerScene: 12,
  cameraCandidates: 200,
  /** Candidate cameras stand within 2 m of the room edge on a 0.10 m grid. */
  cameraEdgeNearM: 2.0,
  cameraGridM: 0.1,
  /** Twelve headings, 30 degrees apart; objects count for a heading within +-HFOV/2, 0.5-12 m away. */
  yawCandidates: 12,
  viewMinVisibleObjects: 3,
  viewCountMinDistanceM: 0.5,
  viewCountMaxDistanceM: 12,
  /** A horizontal ray at camera height must travel 0.8 m before it hits anything. */
  forwardRayClearanceM: 0.8,
  /** targets.dedup_position_m / dedup_yaw_deg. */
  dedupPositionM: 1.0,
  dedupYawDeg: 20,
  /** targets.forward_clear_radius_m / forward_clear_height_m: no object centre within 1 m ahead. */
  forwardClearRadiusM: 1.0,
  forwardClearHeightM: 1.4,
  /** Obstacles are geometry between 0.10 m and 1.4 m above the floor (build_navigation_gt.py). */
  obstacleMinZ: 0.1,
  obstacleMaxZ: 1.4,
  /** Categories that never block (carpets, rugs, mats, towels, blankets). */
  nonBlocking: ["rug", "towel"] as readonly string[],
  /** navigation.grid_resolution, agent_radius, passable_margin (0.0 in the release config). */
  gridCellM: 0.05,
  agentRadiusM: 0.3,
  passableMarginM: 0.0,
  robotDiameterM: 0.6,
  /** targets.min_target_distance, min_target_area_px, min_target_short_side_px. */
  minTargetDistanceM: 2.0,
  minTargetAreaPx: 900,
  minTargetShortSidePx: 18,
  /** Visible-surface thresholds: 0.70 for large objects (large category or a side >= 1 m), else 0.15. */
  largeSizeM: 1.0,
  largeVisibleFraction: 0.7,
  minVisibleFraction: 0.15,
  largeCategories: ["bed", "sofa", "table", "cabinet", "shelf", "wardrobe", "fridge", "bathtub", "shower"] as readonly string[],
  /** targets.prefilter_targets_per_view, max_targets_per_view. */
  targetsForRouting: 30,
  maxRoutesPerView: 10,
  /** Floor candidates every 0.4 m of the grid (candidate_spacing_m default), at most 220. */
  candidateSpacingM: 0.4,
  maxCandidates: 220,
  /** Ray visibility tolerance of a candidate; a 5 x 5 window of nearer depth occludes it. */
  visibilityToleranceM: 0.08,
  occlusionWindowPx: 5,
  /**
   * task_outputs.min_pixel_dist, max_visible; the route sheet uses 1.35 x the spacing. (The
   * release's a1/b1 sheet of about 80 markers with object-surface negatives is replaced by matched
   * floor points, matched-floor.ts: issue 27.)
   */
  minPixelDistPx: 16,
  routeMinPixelDistPx: 22,
  maxVisible: 280,
  /** Goal ring: the closest feasible approach to the target's footprint plus 0.10 m. */
  goalRingToleranceM: 0.1,
  /** Dense goal candidates every 0.10 m; at most 18 goals are searched (dense_path_max_goals). */
  denseGoalSpacingM: 0.1,
  maxGoalsSearched: 18,
  /** Sparse keypoints: a turn of at least 20 degrees or 0.6 m since the last one (gt_turn_angle_deg, gt_min_segment_m). */
  keypointTurnDeg: 20,
  keypointMinSegmentM: 0.6,
  /** A keypoint merges with a displayed waypoint within 0.12 m or 6 px; otherwise it is inserted. */
  keypointMergeM: 0.12,
  keypointMergePx: 6,
  /** Blocking mask padding around non-target objects in the image. */
  blockingMaskPadPx: 2,
  /** Identity cues: screen side needs 24 px, depth or distance 0.3 m (build_truth_repair_metadata). */
  sideCueMarginPx: 24,
  depthCueMarginM: 0.3,
  /** Route lengths tie within 1 mm (instruction_distance_tie_eps_m). */
  tieEpsM: 0.001,
  /** Overlay: marker radius 10 px, outline 2 px, DejaVu Sans Bold 18 px labels (build_task_outputs.py). */
  markerRadiusPx: 10,
  markerOutlinePx: 2,
  labelFontPx: 18,
  /** Scene-level split ratios (build_next_dataset_splits.py). */
  splitRatios: { train: 0.8, val: 0.1, benchmark: 0.1 },
});

export type EgoPathParams = typeof EGOPATH_PARAMS;

/** A pixel size of the official 1024 px image, at this image side. */
export function scalePx(px: number, imageSide: number): number {
  return (px * imageSide) / OFFICIAL_IMAGE_SIDE;
}

/** Release precision: world coordinates and lengths are written to 0.1 mm and used as written. */
export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4 + 0;
