/**
 * Screen-space ambient occlusion from the pixel-centre depth buffer, computed at half resolution.
 *
 * The AO grid has one cell per 2 x 2 pixels; cell (i, j) stands for pixel (2i, 2j) (its depth and
 * face normal). For a cell at camera-space point P with normal n, AO_TAPS neighbour cells are read
 * inside a disc of AO_RADIUS_M metres at P's depth (at most AO_MAX_RADIUS_SHARE of the image
 * height). Each neighbour Q occludes by max(0, cos(n, Q - P) - AO_COS_BIAS) times the falloff
 * 1 - (|Q - P| / AO_RADIUS_M)^2 (zero beyond the radius); the cell's visibility is
 * 1 - AO_STRENGTH * mean occlusion, clamped to [0, 1].
 * Sampling is deterministic: the tap pattern turns by one of 16 angles chosen by the cell's place
 * in a 4 x 4 tile, then a separable 4-cell box filter that only mixes cells at a similar depth
 * (within AO_BLUR_DEPTH of it, relative) averages the 16 turns back out. Each pixel takes the
 * value of the cell among the 2 x 2 nearest whose depth is closest to its own.
 */

export const AO_RADIUS_M = 0.35;
const AO_TAPS = 8;
const AO_COS_BIAS = 0.1;
const AO_STRENGTH = 1.1;
const AO_MAX_RADIUS_SHARE = 0.12;
const AO_BLUR_DEPTH = 0.05;

// 16 turns x AO_TAPS taps: offsets in the unit disc (x right, y down).
const TAPS = (() => {
  const t = new Float64Array(16 * AO_TAPS * 2);
  const GOLDEN = Math.PI * (3 - Math.sqrt(5));
  // Bayer order of the 16 tile positions: neighbouring cells get distant turns.
  const order = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
  for (let r = 0; r < 16; r++) {
    const turn = (order[r]! / 16) * 2 * Math.PI;
    for (let k = 0; k < AO_TAPS; k++) {
      const rho = Math.sqrt((k + (order[r]! + 0.5) / 16) / AO_TAPS);
      const a = turn + k * GOLDEN;
      t[(r * AO_TAPS + k) * 2] = rho * Math.cos(a);
      t[(r * AO_TAPS + k) * 2 + 1] = rho * Math.sin(a);
    }
  }
  return t;
})();

/**
 * depth: metres per pixel (0 = nothing); normals: camera-space unit normals (3 per pixel, facing
 * the camera). Returns the visibility 0..1 per pixel (1 where nothing is drawn).
 */
export function ambientOcclusion(depth: Float32Array, normals: Float32Array, width: number, height: number, focal: number): Float32Array {
  const cw = (width + 1) >> 1, ch = (height + 1) >> 1;
  const cells = cw * ch;
  const cz = new Float32Array(cells), cpx = new Float32Array(cells), cpy = new Float32Array(cells);
  const half = width / 2, halfH = height / 2, invF = 1 / focal;
  for (let j = 0; j < ch; j++) {
    for (let i = 0; i < cw; i++) {
      const p = 2 * j * width + 2 * i;
      const z = depth[p]!;
      const c = j * cw + i;
      cz[c] = z;
      cpx[c] = (2 * i + 0.5 - half) * z * invF;
      cpy[c] = (halfH - (2 * j + 0.5)) * z * invF;
    }
  }
  const R = AO_RADIUS_M, R2 = R * R, invR2 = 1 / R2;
  // Radii in cells (half pixels).
  const maxCells = (AO_MAX_RADIUS_SHARE * height) / 2;
  const raw = new Float32Array(cells);
  for (let j = 0; j < ch; j++) {
    for (let i = 0; i < cw; i++) {
      const c = j * cw + i;
      const z = cz[c]!;
      if (z === 0) {
        raw[c] = 1;
        continue;
      }
      const p = (2 * j * width + 2 * i) * 3;
      const nx = normals[p]!, ny = normals[p + 1]!, nz = normals[p + 2]!;
      const Px = cpx[c]!, Py = cpy[c]!;
      let radius = (R * focal) / z / 2;
      if (radius > maxCells) radius = maxCells;
      const rot = ((j & 3) * 4 + (i & 3)) * AO_TAPS * 2;
      let occ = 0;
      for (let k = 0; k < AO_TAPS; k++) {
        const qi = i + Math.floor(TAPS[rot + k * 2]! * radius + 0.5);
        const qj = j + Math.floor(TAPS[rot + k * 2 + 1]! * radius + 0.5);
        if (qi < 0 || qj < 0 || qi >= cw || qj >= ch) continue;
        const q = qj * cw + qi;
        const zq = cz[q]!;
        if (zq === 0) continue;
        const vx = cpx[q]! - Px, vy = cpy[q]! - Py, vz = zq - z;
        const vv = vx * vx + vy * vy + vz * vz;
        if (vv >= R2 || vv < 1e-12) continue;
        const cos = (vx * nx + vy * ny + vz * nz) / Math.sqrt(vv);
        if (cos > AO_COS_BIAS) occ += (cos - AO_COS_BIAS) * (1 - vv * invR2);
      }
      const v = 1 - (AO_STRENGTH * occ) / AO_TAPS;
      raw[c] = v < 0 ? 0 : v;
    }
  }
  const tmp = new Float32Array(cells);
  blurRows(raw, tmp, cz, cw, ch);
  blurColumns(tmp, raw, cz, cw, ch);

  // Up to full resolution: the nearest-in-depth of the 2 x 2 cells around each pixel.
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const j0 = y >> 1, j1 = Math.min(ch - 1, (y + 1) >> 1);
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const z = depth[p]!;
      if (z === 0) {
        out[p] = 1;
        continue;
      }
      const i0 = x >> 1, i1 = Math.min(cw - 1, (x + 1) >> 1);
      let best = j0 * cw + i0, bestD = Math.abs(cz[best]! - z);
      let c = j0 * cw + i1, d = Math.abs(cz[c]! - z);
      if (d < bestD) { best = c; bestD = d; }
      c = j1 * cw + i0; d = Math.abs(cz[c]! - z);
      if (d < bestD) { best = c; bestD = d; }
      c = j1 * cw + i1; d = Math.abs(cz[c]! - z);
      if (d < bestD) { best = c; bestD = d; }
      out[p] = bestD <= z * AO_BLUR_DEPTH ? raw[best]! : 1;
    }
  }
  return out;
}

function blurRows(src: Float32Array, dst: Float32Array, cz: Float32Array, cw: number, ch: number): void {
  for (let j = 0; j < ch; j++) {
    for (let i = 0; i < cw; i++) {
      const c = j * cw + i;
      dst[c] = boxAt(src, cz, c, i, cw, 1);
    }
  }
}

function blurColumns(src: Float32Array, dst: Float32Array, cz: Float32Array, cw: number, ch: number): void {
  for (let j = 0; j < ch; j++) {
    for (let i = 0; i < cw; i++) {
      const c = j * cw + i;
      dst[c] = boxAt(src, cz, c, j, ch, cw);
    }
  }
}

/** Mean of src over offsets -2..1 along one axis (position pos of extent n, stride step), same-depth cells only. */
function boxAt(src: Float32Array, cz: Float32Array, c: number, pos: number, n: number, step: number): number {
  const z = cz[c]!;
  if (z === 0) return 1;
  const tol = z * AO_BLUR_DEPTH;
  let sum = 0, count = 0;
  for (let d = -2; d <= 1; d++) {
    const at = pos + d;
    if (at < 0 || at >= n) continue;
    const q = c + d * step;
    const zq = cz[q]!;
    if (zq === 0 || Math.abs(zq - z) > tol) continue;
    sum += src[q]!;
    count++;
  }
  return count > 0 ? sum / count : src[c]!;
}
