/**
 * The construction parameters of our EgoTL-Bench sets (the paper's §3-4 and App. H where it gives
 * numbers; plausible human motion where it does not). Ranges are drawn per episode from its seed.
 */
export const EGOTL_PARAMS = Object.freeze({
  /** Frames per second of every episode video: the paper samples camera centres at 10 fps (§4, eq. 2-3). */
  fps: 10,
  /** Memory-bank walkthroughs are rendered at a lower rate (planning shows 16 uniform frames). */
  memoryFps: 2,
  /** Image size and horizontal field of view of a head-worn camera (Aria-like, ~95 degrees). */
  width: 320,
  height: 240,
  hfovDeg: 95,
  /** Standing eye height and walking speed, drawn per episode. */
  eyeHeightM: [1.5, 1.7] as const,
  walkSpeedMps: [1.0, 1.4] as const,
  /** Speed ramps at starts and stops (raised-cosine), seconds. */
  rampS: 0.8,
  /** Step frequency (Hz) and head bob: vertical at the step rate, lateral sway at half of it (one stride). */
  stepHz: [1.8, 2.0] as const,
  bobVerticalM: 0.015,
  bobLateralM: 0.012,
  /** Glances while walking: a yaw bump and a pitch bump that return to zero within the clip. */
  glanceYawDeg: 8,
  glancePitchDeg: 4,
  /** Walking pitch (looking slightly down), degrees. */
  walkPitchDeg: -8,
  /** Turns: on the spot, raised-cosine yaw profile; the peak yaw rate drawn per turn (people turn
   * briskly or slowly; one rate made a turn's length tell its angle and its label), the
   * memory-bank walkthrough's full circles at walkthroughYawRateDegS. */
  turnRateDegS: [55, 110] as const,
  walkthroughYawRateDegS: 100,
  minTurnS: 0.6,
  /** A bend of the path below this is walked through (the heading blends); above it is a turn clip. */
  turnClipDeg: 20,
  /** Pauses between steps (the say-before-act narration), seconds. */
  pauseS: [0.3, 0.9] as const,
  /** Seated eye height above the seat top, and how far the body moves back onto the seat. */
  seatedEyeAboveSeatM: 0.68,
  sitBackM: 0.3,
  /** Sitting down or standing up takes this long, drawn per clip (a fixed length let the clip's
   * length alone tell Going up / Going down, issue 29). */
  sitS: [1.3, 2.8] as const,
  /** Person radius for free-space paths (occupancyForScene + inflate). */
  personRadiusM: 0.25,
  gridCellM: 0.05,
  /** Obstacles: geometry between these heights above the floor; rugs and towels never block. */
  obstacleMinZ: 0.1,
  obstacleMaxZ: 1.8,
  nonBlocking: ["rug", "towel"] as readonly string[],
  /** Standing spots for manipulation lie within this planar distance of the object's footprint. */
  reachM: 1.2,
  /** Stepping in: with this chance a walk toward an object to handle stops short of the standing
   * spot by a length drawn here (metres), and the last step, after turning to face the object, is
   * its own short walk clip (people stop, turn and step up to a counter). Without these short walks
   * distances spanned 0.5-6 m, and one constant reached MRA 0.26 (issue 29's bound is 0.20). */
  stepInChance: 0.5,
  stepInM: [0.2, 0.8] as const,
  /** A manipulation (look down, hold, move the object, look back) takes this long, drawn per clip. */
  manipulationS: [2.4, 4.0] as const,
  /** Direction labels from the trajectory (App. H; our thresholds with margins): a turn turns at
   * least 45 degrees; a walk turns less than 20 degrees, keeps its height within 0.1 m and moves at
   * least 0.2 m; going up or down changes the eye height by at least 0.25 m. */
  turnLabelDeg: 45,
  straightMaxYawDeg: 20,
  straightMinMoveM: 0.2,
  heightLabelM: 0.25,
  flatMaxHeightM: 0.1,
  /** Scene-aware action: bearing classes of the target (degrees) and the visible-pixel floor. */
  aheadDeg: 10,
  sideMinDeg: 22,
  aroundMaxDeg: 35,
  minTargetPixels: 120,
  minObstaclePixels: 150,
  minSceneActionDistanceM: 1.5,
  /** x264 quality of the videos. */
  crf: 26,
  /** Quality of the current-frame JPEGs. */
  jpegQuality: 88,
});

export type EgoTLParams = typeof EGOTL_PARAMS;

/** Clearance a straight walk keeps from the raw obstacles (walks are straightened to it; scene-aware "blocked" tests it). */
export const WALK_CLEARANCE_M = EGOTL_PARAMS.personRadiusM - 0.05;

export const DEG = Math.PI / 180;

/** Written precision of poses: 0.1 mm and 1e-5 rad; every stored answer is computed from the written values. */
export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4 + 0;
export const round5 = (x: number): number => Math.round(x * 1e5) / 1e5 + 0;

/** Vertical field of view (degrees) that gives the horizontal one at this aspect. */
export function vfovFor(hfovDeg: number, width: number, height: number): number {
  return (2 * Math.atan((Math.tan((hfovDeg * DEG) / 2) * height) / width)) / DEG;
}
