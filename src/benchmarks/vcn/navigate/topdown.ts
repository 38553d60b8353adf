/**
 * The top-down picture of one navigation episode (episodes/<id>/topdown.png of a navigation run):
 * the house plan with the agent's path, for the viewer and for people reading a run.
 *
 * Plan: world plan coordinates (metres, x east, y north), north up. Episode positions are
 * Habitat's ([x, y, z], y up): plan = [x, -z] (construct/habitat.ts writes the inverse). The
 * plan's extent is the scene's bounds, widened to every point drawn; it is scaled by
 * `pixelsPerMetre` (default 48) unless the picture would then exceed `maxSide` (default 1024)
 * pixels, in which case the scale shrinks so its longest side fits. Around the plan lies a margin
 * of TOPDOWN_MARGIN_PX on every side and, below it, a legend band of TOPDOWN_LEGEND_PX:
 *
 *   width  = ceil(extent_x * scale) + 2 * margin
 *   height = ceil(extent_y * scale) + 2 * margin + legend
 *   pixel(plan x, plan y) = (margin + (x - min_x) * scale, margin + (max_y - y) * scale)
 *
 * Layers, bottom to top, in the colours of TOPDOWN_COLOURS: rooms filled by type (with the type
 * written at the centroid), floor-standing furniture footprints, walls (windows lighter, doors
 * left open as gaps), the target room outlined, goal boxes, the goal view points, a 1 m circle
 * around the view point nearest the final position (the success radius, VCN-Bench §5.1 / App.
 * C.1), the path (green for a success, red otherwise), collisions (crosses), the start (a
 * triangle along the start heading, or a disc without one) and the final position (a disc, green
 * or red). Without `success`, success is worked out by the paper's rule: STOP called and the
 * final position within 1 m (Euclidean) of a view point.
 */
import type { Scene, Vec2 } from "../../../world/types.js";
import type { Vec3 } from "../../../sim/types.js";
import { blankPicture, box, cross, dot, finish, hasFont, label, polyline, ring, type Picture } from "../../../media/draw.js";
import { polygonCentroid } from "../construct/facts.js";
import { regionMapper } from "../construct/release.js";
import { euclidean } from "../navigation.js";

/** Blank pixels around the plan. */
export const TOPDOWN_MARGIN_PX = 12;
/** Height of the legend band under the plan (a 1 m scale bar and the marks' meanings). */
export const TOPDOWN_LEGEND_PX = 22;
/** The success radius drawn around the nearest view point (VCN-Bench §5.1: 1 m). */
const SUCCESS_RADIUS_M = 1;

export const TOPDOWN_COLOURS = Object.freeze({
  paper: "#ffffff",
  wall: "#1f2937",
  window: "#93c5fd",
  furniture: "#d1d5db",
  roomText: "#374151",
  target: "#f97316",
  goal: "#c026d3",
  success: "#1a9850",
  failure: "#d73027",
  start: "#2563eb",
  collision: "#111827",
  rooms: Object.freeze({
    "living room": "#fef3c7",
    kitchen: "#dcfce7",
    "dining room": "#fce7f3",
    bedroom: "#dbeafe",
    bathroom: "#cffafe",
    office: "#ede9fe",
    hallway: "#f3f4f6",
  } as Record<string, string>),
  otherRoom: "#f5f5f4",
});

export interface TopDownGoal {
  /** Habitat positions of the goal's view points. */
  view_points: Vec3[];
  /** Habitat box [[min x, min y, min z], [max x, max y, max z]]. */
  bbox?: number[][];
}

export interface TopDownEpisode {
  start: Vec3;
  /** The start heading (degrees, counter-clockwise from above, 0 facing Habitat -z = north); a disc without it. */
  start_heading_deg?: number;
  goals: TopDownGoal[];
  /** The target room: a scene room id ("room_3") or the release's region id ("region3"). */
  target_room?: string | null;
}

export interface TopDownInput {
  scene: Scene;
  episode: TopDownEpisode;
  /** Habitat positions, the start first. */
  path: Vec3[];
  /** Indices into `path` of positions where the action collided. */
  collisions?: number[];
  stop: boolean;
  success?: boolean;
}

export interface TopDownOptions {
  pixelsPerMetre?: number;
  maxSide?: number;
}

/** Habitat [x, y, z] -> plan [x, -z]. */
export const planOf = (p: Vec3): Vec2 => [p[0], -p[2]];

function checkPoint(p: unknown, what: string): asserts p is Vec3 {
  if (!Array.isArray(p) || p.length !== 3 || !p.every((v) => typeof v === "number" && Number.isFinite(v))) {
    throw new RangeError(`topDownPicture: ${what} must be a finite [x, y, z] position, got ${JSON.stringify(p)?.slice(0, 80)}`);
  }
}

function checkInput(input: TopDownInput): void {
  checkPoint(input.episode.start, "episode.start");
  input.path.forEach((p, i) => checkPoint(p, `path[${i}]`));
  input.episode.goals.forEach((g, i) => g.view_points.forEach((p, j) => checkPoint(p, `goals[${i}].view_points[${j}]`)));
  input.episode.goals.forEach((g, i) => g.bbox?.forEach((p, j) => checkPoint(p, `goals[${i}].bbox[${j}]`)));
}

/** The plan-to-pixel mapping and picture size (the rule in the file comment). */
interface Layout {
  width: number;
  height: number;
  scale: number;
  toPixel(p: Vec2): [number, number];
}

function layoutOf(scene: Scene, points: readonly Vec2[], options: TopDownOptions): Layout {
  const xs = [scene.bounds.min[0], scene.bounds.max[0], ...points.map((p) => p[0])];
  const ys = [scene.bounds.min[1], scene.bounds.max[1], ...points.map((p) => p[1])];
  // reduce, not Math.min(...xs): a log may hold 100,000 positions, too many arguments for one call.
  const [minX, maxX] = [xs.reduce((a, b) => Math.min(a, b)), xs.reduce((a, b) => Math.max(a, b))];
  const [minY, maxY] = [ys.reduce((a, b) => Math.min(a, b)), ys.reduce((a, b) => Math.max(a, b))];
  const extentX = Math.max(maxX - minX, 1e-3);
  const extentY = Math.max(maxY - minY, 1e-3);
  const maxSide = Math.max(64, Math.floor(options.maxSide ?? 1024));
  const wanted = options.pixelsPerMetre ?? 48;
  if (!(wanted > 0) || !Number.isFinite(wanted)) throw new RangeError(`topDownPicture: pixelsPerMetre must be a positive number, got ${wanted}`);
  const m = TOPDOWN_MARGIN_PX;
  const scale = Math.min(wanted, (maxSide - 2 * m) / extentX, (maxSide - 2 * m - TOPDOWN_LEGEND_PX) / extentY);
  // The 1e-9 keeps a side that fits exactly from rounding up past maxSide.
  const side = (extent: number) => Math.ceil(extent * scale - 1e-9);
  return {
    width: side(extentX) + 2 * m,
    height: side(extentY) + 2 * m + TOPDOWN_LEGEND_PX,
    scale,
    toPixel: (p) => [m + (p[0] - minX) * scale, m + (maxY - p[1]) * scale],
  };
}

function fillPolygon(ctx: Picture["ctx"], points: ReadonlyArray<readonly [number, number]>, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.closePath();
  ctx.fill();
}

/** The room whose id, or release region id, is `target`. */
function targetRoomOf(scene: Scene, target: string | null | undefined) {
  if (!target) return undefined;
  const region = regionMapper(scene);
  return scene.rooms.find((r) => r.id === target || region(r.id) === target);
}

function drawRooms(picture: Picture, scene: Scene, layout: Layout): void {
  for (const room of scene.rooms) {
    fillPolygon(picture.ctx, room.polygon.map(layout.toPixel), TOPDOWN_COLOURS.rooms[room.type] ?? TOPDOWN_COLOURS.otherRoom);
  }
  // Footprints of furniture standing on the floor and rising into the robot's obstacle band
  // (construct/houses.ts robotGrid: 0.10-1.4 m), i.e. what it bumps into; rugs stay floor.
  for (const o of scene.objects) {
    if (o.inWall || o.supportId !== null || o.bbox.max[2] < 0.1) continue;
    const [x0, y0] = layout.toPixel([o.bbox.min[0], o.bbox.max[1]]);
    const [x1, y1] = layout.toPixel([o.bbox.max[0], o.bbox.min[1]]);
    picture.ctx.fillStyle = TOPDOWN_COLOURS.furniture;
    picture.ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
  }
  for (const room of scene.rooms) {
    const [cx, cy] = layout.toPixel(polygonCentroid(room.polygon).centre);
    const fill = TOPDOWN_COLOURS.rooms[room.type] ?? TOPDOWN_COLOURS.otherRoom;
    if (hasFont()) {
      picture.ctx.font = `11px "DejaVu Sans"`;
      const w = picture.ctx.measureText(room.type).width;
      label(picture.ctx, room.type, cx - w / 2 - 3, cy - 8, { size: 11, color: TOPDOWN_COLOURS.roomText, background: fill });
    }
  }
}

/** The solid stretches of a wall (along it, metres from `a`) and the windows; doors are gaps. */
export function wallPieces(length: number, openings: ReadonlyArray<{ kind: "door" | "window"; offset: number; width: number }>): { solid: Array<[number, number]>; windows: Array<[number, number]> } {
  const cut = openings
    .map((o) => ({ kind: o.kind, from: Math.max(0, o.offset - o.width / 2), to: Math.min(length, o.offset + o.width / 2) }))
    .filter((o) => o.to > o.from)
    .sort((a, b) => a.from - b.from);
  const solid: Array<[number, number]> = [];
  let at = 0;
  for (const o of cut) {
    if (o.from > at) solid.push([at, o.from]);
    at = Math.max(at, o.to);
  }
  if (at < length) solid.push([at, length]);
  return { solid, windows: cut.filter((o) => o.kind === "window").map((o) => [o.from, o.to]) };
}

function drawWalls(picture: Picture, scene: Scene, layout: Layout): void {
  for (const wall of scene.walls) {
    const dx = wall.b[0] - wall.a[0];
    const dy = wall.b[1] - wall.a[1];
    const length = Math.hypot(dx, dy);
    if (length === 0) continue;
    const u: Vec2 = [dx / length, dy / length];
    const half = wall.thickness / 2;
    const n: Vec2 = [-u[1] * half, u[0] * half];
    const quad = (from: number, to: number) => {
      const p = (s: number, side: number): Vec2 => [wall.a[0] + u[0] * s + n[0] * side, wall.a[1] + u[1] * s + n[1] * side];
      return [p(from, 1), p(to, 1), p(to, -1), p(from, -1)].map(layout.toPixel);
    };
    const pieces = wallPieces(length, wall.openings);
    for (const [from, to] of pieces.solid) fillPolygon(picture.ctx, quad(from, to), TOPDOWN_COLOURS.wall);
    for (const [from, to] of pieces.windows) fillPolygon(picture.ctx, quad(from, to), TOPDOWN_COLOURS.window);
  }
}

/** The view point nearest `position` (Euclidean, all three coordinates, as the success rule measures). */
function nearestViewPoint(position: Vec3, goals: readonly TopDownGoal[]): { point: Vec3; distance: number } | undefined {
  let best: { point: Vec3; distance: number } | undefined;
  for (const goal of goals) {
    for (const v of goal.view_points) {
      const d = euclidean(position, v);
      if (!best || d < best.distance) best = { point: v, distance: d };
    }
  }
  return best;
}

function drawGoals(picture: Picture, episode: TopDownEpisode, layout: Layout, final: Vec3): void {
  const ctx = picture.ctx;
  for (const goal of episode.goals) {
    if (goal.bbox && goal.bbox.length === 2) {
      const [x0, y0] = layout.toPixel(planOf(goal.bbox[0] as Vec3));
      const [x1, y1] = layout.toPixel(planOf(goal.bbox[1] as Vec3));
      box(ctx, x0, y0, x1, y1, { color: TOPDOWN_COLOURS.goal, width: 2 });
    }
  }
  for (const goal of episode.goals) {
    for (const v of goal.view_points) {
      const [x, y] = layout.toPixel(planOf(v));
      dot(ctx, x, y, 1.5, TOPDOWN_COLOURS.goal);
    }
  }
  const nearest = nearestViewPoint(final, episode.goals);
  if (nearest) {
    const [x, y] = layout.toPixel(planOf(nearest.point));
    ring(ctx, x, y, SUCCESS_RADIUS_M * layout.scale, { color: TOPDOWN_COLOURS.goal, width: 2, dashed: true });
    dot(ctx, x, y, 3, TOPDOWN_COLOURS.goal);
  }
}

/** The start: a triangle pointing along the heading (Habitat heading h faces (-sin h, -cos h) in x-z, so up-screen at 0), or a disc. */
function drawStart(picture: Picture, episode: TopDownEpisode, layout: Layout): void {
  const [x, y] = layout.toPixel(planOf(episode.start));
  const size = Math.max(8, 0.3 * layout.scale);
  if (episode.start_heading_deg === undefined || !Number.isFinite(episode.start_heading_deg)) {
    dot(picture.ctx, x, y, size * 0.6, TOPDOWN_COLOURS.start);
    return;
  }
  const h = (episode.start_heading_deg * Math.PI) / 180;
  // Plan direction (-sin h, cos h); on screen y points down: (-sin h, -cos h).
  const f: [number, number] = [-Math.sin(h), -Math.cos(h)];
  const s: [number, number] = [-f[1], f[0]];
  const tip: [number, number] = [x + f[0] * size, y + f[1] * size];
  const back = (side: number): [number, number] => [x - f[0] * size * 0.6 + s[0] * side * size * 0.7, y - f[1] * size * 0.6 + s[1] * side * size * 0.7];
  fillPolygon(picture.ctx, [tip, back(1), back(-1)], TOPDOWN_COLOURS.start);
  picture.ctx.strokeStyle = TOPDOWN_COLOURS.paper;
  picture.ctx.lineWidth = 1;
  picture.ctx.setLineDash([]);
  picture.ctx.stroke();
}

/** A legend under the plan: a 1 m scale bar, then as many of the marks' meanings as fit. */
function drawLegend(picture: Picture, layout: Layout, pathColour: string): void {
  const ctx = picture.ctx;
  const y = picture.height - TOPDOWN_LEGEND_PX / 2 - 1;
  let x = TOPDOWN_MARGIN_PX;
  polyline(ctx, [[x, y], [x + layout.scale, y]], { color: TOPDOWN_COLOURS.wall, width: 2 });
  polyline(ctx, [[x, y - 4], [x, y + 4]], { color: TOPDOWN_COLOURS.wall, width: 2 });
  polyline(ctx, [[x + layout.scale, y - 4], [x + layout.scale, y + 4]], { color: TOPDOWN_COLOURS.wall, width: 2 });
  x += layout.scale + 4;
  if (!hasFont()) return;
  const entries: Array<[string, (x: number) => void]> = [
    ["1 m", () => undefined],
    ["start", (at) => fillPolygon(ctx, [[at + 5, y - 6], [at + 10, y + 5], [at, y + 5]], TOPDOWN_COLOURS.start)],
    ["path", (at) => polyline(ctx, [[at, y], [at + 10, y]], { color: pathColour, width: 3 })],
    ["goal, view points, 1 m of the nearest", (at) => ring(ctx, at + 5, y, 5, { color: TOPDOWN_COLOURS.goal, width: 2, dashed: true })],
    ["collision", (at) => cross(ctx, at + 5, y, 4, { color: TOPDOWN_COLOURS.collision, width: 2 })],
    ["target room", (at) => box(ctx, at, y - 5, at + 10, y + 5, { color: TOPDOWN_COLOURS.target, width: 2 })],
  ];
  ctx.font = `11px "DejaVu Sans"`;
  for (const [text, mark] of entries) {
    const markWidth = text === "1 m" ? 0 : 14;
    const width = markWidth + ctx.measureText(text).width + 12;
    if (x + width > picture.width - TOPDOWN_MARGIN_PX) break;
    mark(x);
    label(ctx, text, x + markWidth, y - 8, { size: 11, background: TOPDOWN_COLOURS.paper });
    x += width;
  }
}

/** Success by the paper's rule (§5.1): STOP and within 1 m (Euclidean) of a view point. */
function succeeded(input: TopDownInput, final: Vec3): boolean {
  if (input.success !== undefined) return input.success;
  const nearest = nearestViewPoint(final, input.episode.goals);
  return input.stop && nearest !== undefined && nearest.distance < SUCCESS_RADIUS_M;
}

/** The episode's plan as PNG bytes (see the file comment for the layout and the marks). */
export async function topDownPicture(input: TopDownInput, options: TopDownOptions = {}): Promise<Buffer> {
  checkInput(input);
  const { scene, episode } = input;
  const path = input.path.length > 0 ? input.path : [episode.start];
  const final = path[path.length - 1]!;
  const drawn: Vec2[] = [planOf(episode.start), ...path.map(planOf), ...episode.goals.flatMap((g) => [...g.view_points, ...((g.bbox ?? []) as Vec3[])].map(planOf))];
  const layout = layoutOf(scene, drawn, options);
  const picture = blankPicture(layout.width, layout.height);
  const success = succeeded(input, final);
  const pathColour = success ? TOPDOWN_COLOURS.success : TOPDOWN_COLOURS.failure;

  drawRooms(picture, scene, layout);
  drawWalls(picture, scene, layout);
  const target = targetRoomOf(scene, episode.target_room);
  if (target) polyline(picture.ctx, [...target.polygon, target.polygon[0]!].map(layout.toPixel), { color: TOPDOWN_COLOURS.target, width: 3 });
  drawGoals(picture, episode, layout, final);
  polyline(picture.ctx, path.map((p) => layout.toPixel(planOf(p))), { color: pathColour, width: 3 });
  for (const index of input.collisions ?? []) {
    const p = path[index];
    if (!p) continue;
    const [x, y] = layout.toPixel(planOf(p));
    cross(picture.ctx, x, y, 4, { color: TOPDOWN_COLOURS.collision, width: 2 });
  }
  drawStart(picture, episode, layout);
  const [fx, fy] = layout.toPixel(planOf(final));
  dot(picture.ctx, fx, fy, 7, TOPDOWN_COLOURS.paper);
  dot(picture.ctx, fx, fy, 5.5, pathColour);
  drawLegend(picture, layout, pathColour);
  return (await finish(picture, [])).png;
}
