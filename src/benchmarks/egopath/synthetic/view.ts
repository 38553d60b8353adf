/** Views: where the camera stands, which waypoints it shows, and the legal edges between them. */
import { distance2 } from "../../../geometry/point2.js";
import { pointRectDistance, segmentClearance } from "../../../geometry/rect.js";
import type { Rng } from "../../../stats/rng.js";
import { makeCamera, project, segmentHitsBox, toCamera, type Camera } from "./camera.js";
import { ROBOT_RADIUS_M, round4, type GridWaypoint, type Obstacle, type Scene } from "./scene.js";

export const IMAGE_WIDTH = 320;
export const IMAGE_HEIGHT = 240;
export const CAMERA_HEIGHT_M = 1.4;
export const HFOV_DEG = 70;
/** Only waypoints closer than this are joined directly, so routes take several hops. */
export const MAX_EDGE_M = 1.8;
const EDGE_MARGIN_PX = 12;
const MIN_MARKER_GAP_PX = 24;

export interface ViewWaypoint extends GridWaypoint {
  displayId: number;
  /** Pixel position of the marker, rounded to 0.1 px. */
  u: number;
  v: number;
  /** Legal node for the embodied agent (clearance >= robot radius). */
  embodied: boolean;
}

/** One directed edge list per source display id, in ascending id order; distance omitted on some entries. */
export type DirectPairs = Map<number, Array<{ displayId: number; distance?: number }>>;

export interface View {
  index: number;
  camera: Camera;
  /** Sorted by display id (1..K). */
  waypoints: ViewWaypoint[];
  /** Furniture whose centre projects inside the image. */
  visibleObstacles: Obstacle[];
  pointPairs: DirectPairs;
  embodiedPairs: DirectPairs;
}

/** Places a camera against a random wall, looking into the room; null when the spot is taken. */
function placeCamera(scene: Scene, rng: Rng, wall: number): Camera | null {
  const along = (len: number): number => rng.float(0.25 * len, 0.75 * len);
  const off = 0.3;
  const [x, y, yaw] =
    wall === 0 ? [along(scene.width), off, Math.PI / 2]
    : wall === 1 ? [along(scene.width), scene.depth - off, -Math.PI / 2]
    : wall === 2 ? [off, along(scene.depth), 0]
    : [scene.width - off, along(scene.depth), Math.PI];
  // Keep furniture at least a metre away so it does not fill the foreground.
  if (scene.obstacles.some((o) => pointRectDistance({ x, y }, o.rect) < 1.0)) return null;
  const turn = (rng.float(-20, 20) * Math.PI) / 180;
  const pitch = (rng.float(27, 33) * Math.PI) / 180;
  return makeCamera([round4(x), round4(y), CAMERA_HEIGHT_M], yaw + turn, pitch, IMAGE_WIDTH, IMAGE_HEIGHT, HFOV_DEG);
}

/** Grid waypoints the camera sees: in the image, not hidden behind furniture (one under furniture shows on it). */
function visibleCandidates(scene: Scene, cam: Camera): Array<{ wp: GridWaypoint; u: number; v: number }> {
  const out: Array<{ wp: GridWaypoint; u: number; v: number }> = [];
  for (const wp of scene.waypoints) {
    const px = project(cam, [wp.x, wp.y, 0]);
    if (!px) continue;
    const [u, v] = px;
    if (u < EDGE_MARGIN_PX || u > IMAGE_WIDTH - EDGE_MARGIN_PX || v < EDGE_MARGIN_PX || v > IMAGE_HEIGHT - EDGE_MARGIN_PX) continue;
    const hidden = scene.obstacles.some(
      (o) =>
        pointRectDistance(wp, o.rect) > 0 &&
        segmentHitsBox(cam.pos, [wp.x, wp.y, 0], [o.rect.minX, o.rect.minY, 0], [o.rect.maxX, o.rect.maxY, o.height]),
    );
    if (!hidden) out.push({ wp, u: Math.round(u * 10) / 10, v: Math.round(v * 10) / 10 });
  }
  return out;
}

/**
 * Picks 8-14 well-separated visible waypoints and numbers them by pixel distance from the
 * bottom centre of the image (id 1 is the one nearest the viewer). Null when too few are visible.
 */
function chooseWaypoints(scene: Scene, cam: Camera, rng: Rng): ViewWaypoint[] | null {
  const kept: Array<{ wp: GridWaypoint; u: number; v: number }> = [];
  for (const c of rng.shuffle(visibleCandidates(scene, cam))) {
    if (kept.every((k) => Math.hypot(k.u - c.u, k.v - c.v) >= MIN_MARKER_GAP_PX)) kept.push(c);
  }
  if (kept.length < 8) return null;
  const chosen = kept.slice(0, rng.int(8, Math.min(14, kept.length)));
  const fromBottom = (c: { u: number; v: number }): number => Math.hypot(c.u - IMAGE_WIDTH / 2, c.v - IMAGE_HEIGHT);
  chosen.sort((a, b) => fromBottom(a) - fromBottom(b) || a.wp.waypointId - b.wp.waypointId);
  return chosen.map((c, i) => ({
    ...c.wp,
    displayId: i + 1,
    u: c.u,
    v: c.v,
    embodied: c.wp.clearance >= ROBOT_RADIUS_M,
  }));
}

/**
 * Legal directed edges for both agents. A pair closer than MAX_EDGE_M is legal for the point agent
 * when both ends are on free floor and the segment touches no furniture, and for the embodied agent
 * when both ends and the whole segment keep ROBOT_RADIUS_M from furniture (and the ends from walls;
 * the room is convex, so the segment then keeps it too). One pair in ten keeps a single direction,
 * the same one for both agents; a few entries leave out distance_m.
 */
function buildPairs(scene: Scene, wps: readonly ViewWaypoint[], rng: Rng): { point: DirectPairs; embodied: DirectPairs } {
  const rects = scene.obstacles.map((o) => o.rect);
  const point: DirectPairs = new Map(wps.filter((w) => w.freeFloor).map((w) => [w.displayId, []]));
  const embodied: DirectPairs = new Map(wps.filter((w) => w.embodied).map((w) => [w.displayId, []]));
  const add = (pairs: DirectPairs, a: ViewWaypoint, b: ViewWaypoint, d: number): void => {
    pairs.get(a.displayId)!.push(rng.chance(0.06) ? { displayId: b.displayId } : { displayId: b.displayId, distance: d });
  };
  for (const a of wps) {
    for (const b of wps) {
      if (b.displayId <= a.displayId) continue;
      const len = distance2(a, b);
      if (len >= MAX_EDGE_M) continue;
      const oneWay = rng.chance(0.1) ? (rng.chance(0.5) ? "ab" : "ba") : "both";
      const clear = segmentClearance(a, b, rects);
      const d = round4(len);
      const legal: Array<[DirectPairs, boolean]> = [
        [point, a.freeFloor && b.freeFloor && clear > 0],
        [embodied, a.embodied && b.embodied && clear >= ROBOT_RADIUS_M],
      ];
      for (const [pairs, ok] of legal) {
        if (!ok) continue;
        if (oneWay !== "ba") add(pairs, a, b, d);
        if (oneWay !== "ab") add(pairs, b, a, d);
      }
    }
  }
  for (const pairs of [point, embodied]) for (const list of pairs.values()) list.sort((x, y) => x.displayId - y.displayId);
  return { point, embodied };
}

function visibleObstacles(scene: Scene, cam: Camera): Obstacle[] {
  return scene.obstacles.filter((o) => {
    const centre = [(o.rect.minX + o.rect.maxX) / 2, (o.rect.minY + o.rect.maxY) / 2, o.height / 2] as const;
    const px = project(cam, centre);
    return toCamera(cam, centre)[2] > 0.5 && px !== null && px[0] >= 0 && px[0] <= IMAGE_WIDTH && px[1] >= 0 && px[1] <= IMAGE_HEIGHT;
  });
}

/** Tries one camera placement; null when it shows too few waypoints. */
export function tryView(scene: Scene, index: number, wall: number, rng: Rng): View | null {
  const camera = placeCamera(scene, rng, wall);
  if (!camera) return null;
  const waypoints = chooseWaypoints(scene, camera, rng);
  if (!waypoints) return null;
  const { point, embodied } = buildPairs(scene, waypoints, rng);
  return { index, camera, waypoints, visibleObstacles: visibleObstacles(scene, camera), pointPairs: point, embodiedPairs: embodied };
}
