/**
 * Construction parameters of the generated EPIC-Bench set. The paper gives no camera or mask
 * numbers (its images are curated photographs, §3.3); these are ours, chosen so every mask can be
 * derived exactly from the world engine's buffers.
 */
export const EPIC_PARAMS = Object.freeze({
  /** Image size (4:3, like most of the paper's indoor sources). */
  width: 512,
  height: 384,
  vfovDeg: 58,
  /** Head-height and robot-height cameras (§3.3 "egocentric perspectives, and robot-view imagery"). */
  headHeightM: [1.45, 1.7] as readonly [number, number],
  robotHeightM: [0.8, 1.15] as readonly [number, number],
  pitchDeg: [-32, -14] as readonly [number, number],
  /** Camera poses kept per house at most, and the JPEG quality of the scene images. */
  viewsPerHouse: 6,
  jpegQuality: 90,
  /** People placed per house (for the Human task variants). */
  peoplePerHouse: 3,
  /** An instance counts as visible with at least this many pixels; fewer (but some) is a sliver that makes a set description ambiguous. */
  minVisiblePx: 250,
  /** Part masks (PartWhole, affordance regions) need at least this many pixels. */
  minPartPx: 80,
  /** Feasible path: the robot's radius on the 0.05 m plan grid, and the goal zone in front of an object. */
  robotRadiusM: 0.3,
  frontZoneDepthM: 0.8,
  frontZoneSideMarginM: 0.1,
  minTargetAreaPx: 300,
  /**
   * Feasible path: the start (Ego: the bottom centre; Exo: one goal area) lies at least this share
   * of the image diagonal from the goal area. The scorer keeps only points diag/30 apart and
   * credits a step of at most 2/3 of the start-goal distance (App. D), so below diag/20 no step
   * can be credited; at diag/10, steps of diag/30 to diag/15 are (longer ones as the distance
   * grows). Nearer goal areas gave samples the oracle could not score (issue 29).
   */
  minStartGoalDiagShare: 0.1,
  /**
   * Object state (§3.2.1 "target state differentiation": objects told apart by a functional
   * state): in each view every object of these categories is switched on with this chance, drawn
   * on its own random stream; on, a lamp glows and lights the room and a screen's display glows
   * blue (world/render/switched-on.ts).
   */
  stateCategories: ["lamp", "tv", "monitor"] as readonly string[],
  switchedOnChance: 0.5,
  /** An object's state shows when the parts switching changes (a screen, a lamp) cover at least this many pixels. */
  minStatePx: 150,
  /** Visual matching: view b moves 0.5-1.2 m from view a and turns 12-35 degrees. */
  matchShiftM: [0.5, 1.2] as readonly [number, number],
  matchTurnDeg: [12, 35] as readonly [number, number],
  minMatchPx: 600,
  /** Orientation bins (degrees between the object's front and the direction to the camera) and the dead bands between them. */
  facingCameraDeg: 35,
  sidewaysDeg: [55, 125] as readonly [number, number],
  facingAwayDeg: 145,
  /** A person's left or right: at least this far to the side of their body axis (metres), within this distance. */
  personSideMarginM: 0.3,
  personRelationRangeM: 4,
  /** Support tops: up-facing faces (normal z >= 0.9) whose centre lies this close below / above the drop-on-top height. */
  topNormalZ: 0.9,
  topBelowM: 0.08,
  topAboveM: 0.05,
  /** Placement feasibility: footprint raster cell and the margin kept around a placed object (metres). */
  placementCellM: 0.01,
  placementMarginM: 0.01,
});

export type EpicParams = typeof EPIC_PARAMS;
