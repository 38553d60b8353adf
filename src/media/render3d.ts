/**
 * PathEval 3D picture: the perspective view the release draws with OpenGL
 * (path-generation/generate_image.py, generate_3D_image), redrawn with the software rasterizer.
 *
 * Camera (the release's own parameters): gluPerspective(45° vertical, width/height, near 1,
 * far 10000) and gluLookAt(eye (0, -70, 55), target (0, 0, -10), up (0, 1, 0)). The eye is 30 units
 * behind the south edge (y = -40, the start's side) and 55 up, centred in x, looking north and
 * down at about 43°; the floor shows as a symmetric trapezoid, the start near the lower left,
 * the goal near the top right. The whole square is in view at 16:9: the near edge is 18.5° below
 * the view axis and the far edge 16.3° above it (half-angle 22.5°); the near corners sit at 0.67
 * and the far ones at 0.34 of the horizontal half-width. Other aspect ratios keep the same eye;
 * pass `camera` to change it.
 *
 * Scene: white background; grey floor square [-40, 40]^2 (0.7 grey, unshaded, as the release);
 * obstacles extruded from z = 0 to `obstacleHeight` (2) with ear-clipped tops and one quad per
 * edge, plus the release's boundary wall (0.5 thick inside ±40), all in one brown-grey close to the
 * release's terrain texture, flat Lambert-shaded so tops and sides read apart; the path as a red
 * band 3.5 px wide at 720 px height (the release's glLineWidth(3.5)) lying in the plane z = 0.05;
 * start (red) and goal (blue) discs of radius 1.5 at z = 0.06 (just above the path, so they cover
 * its ends as in the release, where they are drawn after it at the same height).
 */
import {
  createCamera,
  createFramebuffer,
  drawPolyline3D,
  drawTriangles,
  toPng,
  type Camera,
  type CameraSpec,
  type Framebuffer,
  type Rgb,
  type Vec3,
} from "./raster3d.js";
import { checkScene, PATHEVAL_GOAL, PATHEVAL_START, WORLD_MAX, WORLD_MIN, type PathEvalScene, type Polygon2 } from "./scene2d.js";
import { earClip } from "./triangulate.js";

export interface Render3DOptions extends PathEvalScene {
  width?: number;
  height?: number;
  /** Overrides of the release camera (PATHEVAL_3D_CAMERA). The aspect always follows width/height. */
  camera?: Partial<Omit<CameraSpec, "aspect">>;
  /** Obstacle height in world units (default 2). */
  obstacleHeight?: number;
}

export const PATHEVAL_3D_CAMERA: Readonly<Omit<CameraSpec, "aspect">> = Object.freeze({
  eye: [0, -70, 55] as Vec3,
  target: [0, 0, -10] as Vec3,
  up: [0, 1, 0] as Vec3,
  fovYDeg: 45,
  near: 1,
  far: 10000,
});

export const STYLE_3D = Object.freeze({
  background: [255, 255, 255] as Rgb,
  floor: [178, 178, 178] as Rgb,
  obstacle: [91, 80, 64] as Rgb,
  path: [255, 0, 0] as Rgb,
  start: [255, 0, 0] as Rgb,
  goal: [0, 0, 255] as Rgb,
  pathElevation: 0.05,
  markerElevation: 0.06,
  markerRadius: 1.5,
  markerSegments: 100,
  /** Path width in px at a 720 px high picture; scaled with the height. */
  pathWidthAt720: 3.5,
  boundaryThickness: 0.5,
});

/** The camera renderMap3D uses for a width x height picture. */
export function patheval3DCamera(width = 1280, height = 720, overrides: Partial<Omit<CameraSpec, "aspect">> = {}): Camera {
  return createCamera({ ...PATHEVAL_3D_CAMERA, ...overrides, aspect: width / height });
}

/** Growable flat geometry buffers. */
class Mesh {
  vertices: number[] = [];
  indices: number[] = [];
  vertex(x: number, y: number, z: number): number {
    this.vertices.push(x, y, z);
    return this.vertices.length / 3 - 1;
  }
  tri(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }
  quad(a: number, b: number, c: number, d: number): void {
    this.indices.push(a, b, c, a, c, d);
  }
}

/** Add a prism over `outline` from z = 0 to z = h: top face and side walls (no bottom). */
function addPrism(mesh: Mesh, outline: Polygon2, h: number): void {
  const tris = earClip(outline);
  if (tris.length === 0) return;
  const top = outline.map((p) => mesh.vertex(p[0], p[1], h));
  for (let i = 0; i < tris.length; i += 3) mesh.tri(top[tris[i]!]!, top[tris[i + 1]!]!, top[tris[i + 2]!]!);
  const n = outline.length;
  for (let i = 0; i < n; i++) {
    const p = outline[i]!, q = outline[(i + 1) % n]!;
    if (p[0] === q[0] && p[1] === q[1]) continue;
    const a = mesh.vertex(p[0], p[1], 0), b = mesh.vertex(q[0], q[1], 0);
    const c = mesh.vertex(q[0], q[1], h), d = mesh.vertex(p[0], p[1], h);
    mesh.quad(a, b, c, d);
  }
}

function addDisc(mesh: Mesh, cx: number, cy: number, z: number, radius: number, segments: number): void {
  const centre = mesh.vertex(cx, cy, z);
  const first = mesh.vertices.length / 3;
  for (let i = 0; i < segments; i++) {
    const t = (2 * Math.PI * i) / segments;
    mesh.vertex(cx + radius * Math.cos(t), cy + radius * Math.sin(t), z);
  }
  for (let i = 0; i < segments; i++) mesh.tri(centre, first + i, first + ((i + 1) % segments));
}

/** Draw the PathEval scene into `fb` (exposed for tests and for callers that add overlays). */
export function drawPathEvalScene(fb: Framebuffer, camera: Camera, scene: PathEvalScene, obstacleHeight = 2): void {
  const start = scene.start ?? PATHEVAL_START;
  const goal = scene.goal ?? PATHEVAL_GOAL;
  const lo = WORLD_MIN, hi = WORLD_MAX;

  const floor = new Mesh();
  floor.quad(floor.vertex(lo, lo, 0), floor.vertex(hi, lo, 0), floor.vertex(hi, hi, 0), floor.vertex(lo, hi, 0));
  drawTriangles(fb, camera, floor.vertices, floor.indices, STYLE_3D.floor, { shading: "none" });

  const solids = new Mesh();
  for (const poly of scene.polygons) addPrism(solids, poly, obstacleHeight);
  const t = STYLE_3D.boundaryThickness;
  for (const wall of [
    [[lo, lo], [hi, lo], [hi, lo + t], [lo, lo + t]],
    [[lo, hi - t], [hi, hi - t], [hi, hi], [lo, hi]],
    [[lo, lo], [lo + t, lo], [lo + t, hi], [lo, hi]],
    [[hi - t, lo], [hi, lo], [hi, hi], [hi - t, hi]],
  ] as const) {
    addPrism(solids, wall, obstacleHeight);
  }
  drawTriangles(fb, camera, solids.vertices, solids.indices, STYLE_3D.obstacle, { shading: "lambert" });

  if (scene.path.length >= 2) {
    const z = STYLE_3D.pathElevation;
    const width = STYLE_3D.pathWidthAt720 * (fb.height / 720);
    drawPolyline3D(fb, camera, scene.path.map((p) => [p[0], p[1], z] as Vec3), STYLE_3D.path, width, { planeNormal: [0, 0, 1] });
  }

  const markers = new Mesh();
  addDisc(markers, start[0], start[1], STYLE_3D.markerElevation, STYLE_3D.markerRadius, STYLE_3D.markerSegments);
  addDisc(markers, goal[0], goal[1], STYLE_3D.markerElevation, STYLE_3D.markerRadius, STYLE_3D.markerSegments);
  const faceColours = new Uint8Array(markers.indices.length);
  for (let f = 0; f < markers.indices.length / 3; f++) {
    faceColours.set(f < STYLE_3D.markerSegments ? STYLE_3D.start : STYLE_3D.goal, f * 3);
  }
  drawTriangles(fb, camera, markers.vertices, markers.indices, faceColours, { shading: "none" });
}

export async function renderMap3D(options: Render3DOptions): Promise<Buffer> {
  checkScene(options);
  const width = options.width ?? 1280;
  const height = options.height ?? 720;
  const obstacleHeight = options.obstacleHeight ?? 2;
  if (!(obstacleHeight > 0)) throw new Error(`renderMap3D: obstacleHeight must be > 0, got ${obstacleHeight}`);
  const fb = createFramebuffer(width, height, STYLE_3D.background);
  const camera = patheval3DCamera(width, height, options.camera);
  drawPathEvalScene(fb, camera, options, obstacleHeight);
  return toPng(fb);
}
