/**
 * The numbers of VCN-Bench tour making (paper §3.3 "Tour Video Generation", App. B.2-B.3).
 *
 * The paper fixes the visibility rule (App. B.3: 3 m, 0.1 m, 60%, 50 x 50 px at 384 x 384) and the
 * frame size; it names what is randomised per tour (camera height, field of view, pitch, lighting)
 * but gives no ranges, and its route comes from Matterport3D's navigation graphs. Every range and
 * the route and motion numbers below are OURS, chosen for a person walking through a house.
 */
export const TOUR_PARAMS = Object.freeze({
  // --- Route (ours: the paper orders MP3D navigation-graph nodes by a genetic algorithm) ---
  /** Plan grid cell, metres (the world engine's occupancy resolution, as EgoPath uses). */
  gridCellM: 0.05,
  /** Obstacles: geometry from 0.10 m (EgoPath's band start) up to 1.8 m above the floor (above the highest camera, below door tops). */
  obstacleMinZM: 0.1,
  obstacleMaxZM: 1.8,
  /** The walker's radius: the route is planned on the free space inflated by it. */
  personRadiusM: 0.25,
  /** Every sampled camera position is free on the grid inflated by this smaller radius (above the VCN robot's 0.17 m, so tour positions are navigable for it). */
  sampleClearanceM: 0.2,
  /** One route node per this much room floor, at least one per room (plus one in every inner door). */
  m2PerNode: 10,
  /** k-means rounds that spread a room's nodes over its free cells. */
  nodeSpreadRounds: 8,

  // --- Motion (ours) ---
  fps: 10,
  /** Walking speed, m/s: speedMps / fps = 0.08 m between consecutive frames. */
  speedMps: 0.8,
  /** Spline control points at most this far apart along the planned polyline, metres. */
  controlSpacingM: 0.5,
  /** A planned corner sharper than this (heading change, degrees) ends a spline piece: the walker stops there and turns on the spot. */
  stopCornerDeg: 100,
  /** The heading aims at the point this far ahead on the path, metres. */
  lookAheadM: 0.8,
  /** Share of the remaining heading error closed per frame while walking (the shortest-arc slerp step). */
  headingGain: 0.35,
  /** Largest heading change between two frames, degrees (90 degrees per second at 10 fps). */
  maxTurnDegPerFrame: 9,
  /** A heading error above this (degrees) stops the walker to turn on the spot until facing the target. */
  turnOnSpotDeg: 45,
  /** Positions are written (and rendered) to 0.1 mm, angles to 1e-6 rad. */
  positionDecimals: 4,
  angleDecimals: 6,

  // --- Camera and lighting per tour (ours; §3.3 names them, gives no ranges) ---
  imageSide: 384,
  heightM: [1.2, 1.6] as const,
  pitchDeg: [-15, 0] as const,
  vfovDeg: [75, 95] as const,
  /** Scale of the ceiling lights and of the ambient term. */
  lightScale: [0.7, 1.3] as const,
  ambientScale: [0.8, 1.2] as const,
  /** Colour tint of the ceiling lights and the ambient, from warm (t = 0) to cool (t = 1): linear RGB multipliers, interpolated by a uniform t. */
  warmTint: [1.08, 1.0, 0.88] as const,
  coolTint: [0.9, 0.98, 1.1] as const,
  jpegQuality: 88,

  // --- Per-frame annotation (App. B.2, B.3; the pixel share of a seen room is ours) ---
  /** App. B.3: minimum horizontal distance from the camera to the object's surface, metres. */
  objectMaxDistanceM: 3,
  /** App. B.3: a front-surface pixel is visible when object and scene depth differ by less than this, metres. */
  depthToleranceM: 0.1,
  /** App. B.3: more than this share of the in-frame front-surface pixels must pass. */
  minUnoccludedShare: 0.6,
  /** App. B.3: at least 50 x 50 visible pixels at 384 x 384 (a count of 2500 pixels, scaled by area for other sizes). */
  minVisiblePixels: 2500,
  minVisiblePixelsSide: 384,
  /** A room is seen from outside when its floor covers at least this share of the frame. */
  visibleRoomMinShare: 0.01,
});

export type TourParams = typeof TOUR_PARAMS;

/** v rounded to `decimals` places (no negative zero): how tour numbers are written and used. */
export function roundTo(v: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(v * f) / f + 0;
}

/** B.3's pixel threshold for a frame of this size: 2500 at 384 x 384, scaled by pixel count (rounded up). */
export function minVisiblePixelsFor(width: number, height: number): number {
  const P = TOUR_PARAMS;
  return Math.ceil((P.minVisiblePixels * width * height) / (P.minVisiblePixelsSide * P.minVisiblePixelsSide));
}
