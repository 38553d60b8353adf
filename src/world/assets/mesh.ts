/**
 * Places a catalogue model the way Sweet Home 3D does, in metres.
 *
 * Sweet Home 3D (SweetHome3D/SweetHome3D, src/com/eteks/sweethome3d/j3d/ModelManager.java,
 * `getNormalizedTransform(node, modelRotation, width, modelCenteredAtOrigin)` and
 * `getPieceOfFurnitureNormalizedModelTransformation(piece, ...)`):
 *   1. translate the model so its bounding box is centred on the origin;
 *   2. when the catalogue gives `modelRotation#N` (9 numbers, row-major 3x3 matrix, read by
 *      io/DefaultFurnitureCatalog.java `getModelRotation`: {{v0 v1 v2} {v3 v4 v5} {v6 v7 v8}},
 *      applied as p' = M p), rotate it and re-centre the rotated vertices' bounding box;
 *   3. scale each axis so that box becomes 1 x 1 x 1 (extents below MINIMUM_SIZE = 0.0001 count
 *      as 0.0001);
 *   4. scale by (piece width, piece height, piece depth): width along x, height along y (Y is
 *      up in the OBJ files), depth along z;
 *   5. translate to (x, elevation + height / 2, y-on-plan): the plan's y is the 3D z axis, so
 *      the model's bottom rests on its elevation.
 * This function does steps 1-4 and puts the bottom at y = 0 with the box centred on x / z.
 * The catalogue's width / depth / height are centimetres; callers pass metres.
 */
import type { ObjPart } from "./obj.js";

export interface SizeM {
  width: number;
  depth: number;
  height: number;
}

export interface Bounds3 {
  min: [number, number, number];
  max: [number, number, number];
}

export interface MeshPart {
  material: string | null;
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array | null;
  indices: Uint32Array;
}

export interface NormalizedMesh {
  parts: MeshPart[];
  /** Bounds of the transformed vertices (x in [-w/2, w/2], y in [0, h], z in [-d/2, d/2]). */
  bounds: Bounds3;
  /**
   * The affine map applied to the model's own coordinates, row-major 3x4:
   * [m00 m01 m02 tx, m10 m11 m12 ty, m20 m21 m22 tz].
   */
  transform: number[];
  /** True when the map mirrors (determinant < 0); triangle winding was then reversed to keep faces front-facing. */
  mirrored: boolean;
}

/** Sweet Home 3D's ModelManager.MINIMUM_SIZE (model units). */
const MINIMUM_SIZE = 0.0001;

type PartLike = Pick<ObjPart, "material" | "positions" | "normals" | "uvs" | "indices">;

/**
 * Applies `modelRotation` (row-major 3x3, optional), then scales the model's bounding box to
 * `size.width` (x) x `size.height` (y) x `size.depth` (z) metres, centred on x / z, bottom at y = 0.
 * Normals are transformed by the inverse transpose and renormalised.
 */
export function normalizeToCatalogSize(
  model: { parts: readonly PartLike[] },
  size: SizeM,
  modelRotation?: ArrayLike<number>,
): NormalizedMesh {
  for (const k of ["width", "depth", "height"] as const) {
    if (!(Number.isFinite(size[k]) && size[k] > 0)) throw new Error(`catalogue ${k} must be a positive number, got ${size[k]}`);
  }
  let r = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  if (modelRotation !== undefined) {
    if (modelRotation.length !== 9) throw new Error(`modelRotation needs 9 values, got ${modelRotation.length}`);
    r = Array.from(modelRotation, Number);
    if (!r.every(Number.isFinite)) throw new Error("modelRotation has a non-finite value");
  }
  const parts = model.parts;

  // Bounds of the rotated vertices (rotation about the origin; the centring translations of
  // steps 1-2 do not change extents, only where the box sits).
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const p of parts) {
    const pos = p.positions;
    for (let i = 0; i < pos.length; i += 3) {
      const x = pos[i]!, y = pos[i + 1]!, z = pos[i + 2]!;
      for (let a = 0; a < 3; a++) {
        const v = r[a * 3]! * x + r[a * 3 + 1]! * y + r[a * 3 + 2]! * z;
        if (v < lo[a]!) lo[a] = v;
        if (v > hi[a]!) hi[a] = v;
      }
    }
  }
  if (!(lo[0]! <= hi[0]!)) throw new Error("model has no vertices");

  const target = [size.width, size.height, size.depth];
  const s = [0, 1, 2].map((a) => target[a]! / Math.max(MINIMUM_SIZE, hi[a]! - lo[a]!));
  // Final map: p' = S R p + t, with t centring x / z and putting the bottom at y = 0.
  const m = [0, 1, 2].map((a) => [r[a * 3]! * s[a]!, r[a * 3 + 1]! * s[a]!, r[a * 3 + 2]! * s[a]!]);
  const t = [
    -s[0]! * (lo[0]! + hi[0]!) / 2,
    -s[1]! * lo[1]!,
    -s[2]! * (lo[2]! + hi[2]!) / 2,
  ];
  const [m0, m1, m2] = m as [number[], number[], number[]];
  const det =
    m0[0]! * (m1[1]! * m2[2]! - m1[2]! * m2[1]!) -
    m0[1]! * (m1[0]! * m2[2]! - m1[2]! * m2[0]!) +
    m0[2]! * (m1[0]! * m2[1]! - m1[1]! * m2[0]!);
  if (det === 0 || !Number.isFinite(det)) throw new Error("modelRotation is singular");
  // Inverse transpose (cofactor matrix / det) for normals; only the direction matters.
  const n = [
    [m1[1]! * m2[2]! - m1[2]! * m2[1]!, m1[2]! * m2[0]! - m1[0]! * m2[2]!, m1[0]! * m2[1]! - m1[1]! * m2[0]!],
    [m0[2]! * m2[1]! - m0[1]! * m2[2]!, m0[0]! * m2[2]! - m0[2]! * m2[0]!, m0[1]! * m2[0]! - m0[0]! * m2[1]!],
    [m0[1]! * m1[2]! - m0[2]! * m1[1]!, m0[2]! * m1[0]! - m0[0]! * m1[2]!, m0[0]! * m1[1]! - m0[1]! * m1[0]!],
  ].map((row) => row.map((v) => v / det));
  const mirrored = det < 0;

  const bmin: [number, number, number] = [Infinity, Infinity, Infinity];
  const bmax: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const outParts: MeshPart[] = parts.map((p) => {
    const pos = p.positions;
    const out = new Float32Array(pos.length);
    for (let i = 0; i < pos.length; i += 3) {
      const x = pos[i]!, y = pos[i + 1]!, z = pos[i + 2]!;
      for (let a = 0; a < 3; a++) {
        const row = m[a]!;
        const v = row[0]! * x + row[1]! * y + row[2]! * z + t[a]!;
        out[i + a] = v;
        const f = out[i + a]!;
        if (f < bmin[a]!) bmin[a] = f;
        if (f > bmax[a]!) bmax[a] = f;
      }
    }
    const nin = p.normals;
    const nout = new Float32Array(nin.length);
    for (let i = 0; i < nin.length; i += 3) {
      const x = nin[i]!, y = nin[i + 1]!, z = nin[i + 2]!;
      const nx = n[0]![0]! * x + n[0]![1]! * y + n[0]![2]! * z;
      const ny = n[1]![0]! * x + n[1]![1]! * y + n[1]![2]! * z;
      const nz = n[2]![0]! * x + n[2]![1]! * y + n[2]![2]! * z;
      const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (len > 0) { nout[i] = nx / len; nout[i + 1] = ny / len; nout[i + 2] = nz / len; }
      else { nout[i + 1] = 1; }
    }
    let indices = p.indices;
    if (mirrored) {
      indices = p.indices.slice();
      for (let i = 0; i + 2 < indices.length; i += 3) {
        const tmp = indices[i + 1]!;
        indices[i + 1] = indices[i + 2]!;
        indices[i + 2] = tmp;
      }
    }
    return { material: p.material, positions: out, normals: nout, uvs: p.uvs, indices };
  });

  return {
    parts: outParts,
    bounds: { min: bmin, max: bmax },
    transform: [m0[0]!, m0[1]!, m0[2]!, t[0]!, m1[0]!, m1[1]!, m1[2]!, t[1]!, m2[0]!, m2[1]!, m2[2]!, t[2]!].map((v) => v + 0), // no -0
    mirrored,
  };
}
