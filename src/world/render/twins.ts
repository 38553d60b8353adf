/**
 * Twin triangles. Many catalogue models are made two-sided by repeating every face with the
 * opposite winding (198 of the 820 installed models; 7.5% of all their triangles), and the
 * repeated faces often carry unrelated normals. Drawn both ways, a twin pair z-fights: each sample
 * takes whichever of the two wins by a rounding error, and the surface shades in speckles. Some
 * models also repeat faces with the same winding.
 *
 * Per triangle of a part: TWIN_NONE; TWIN_REVERSED (another triangle of the part has the same
 * three corners in the opposite order: draw it only from the side it faces, where its twin is
 * hidden, so the pair still covers the surface from both sides exactly once); or TWIN_REPEAT (an
 * earlier triangle has the same corners in the same order: the earlier one is drawn, this one is
 * skipped). Corners are compared by their exact float32 position bits, in linear expected time
 * (hashing). Results are cached per indices array (treat parts as immutable).
 */
import type { WorldMeshPart } from "../types.js";

export const TWIN_NONE = 0;
export const TWIN_REVERSED = 1;
export const TWIN_REPEAT = 2;

const CACHE = new WeakMap<Uint32Array, { positions: Float32Array; flags: Uint8Array | null }>();

/** Flags per triangle, or null when the part has no twins or repeats. */
export function triangleTwins(part: Pick<WorldMeshPart, "positions" | "indices">): Uint8Array | null {
  const hit = CACHE.get(part.indices);
  if (hit && hit.positions === part.positions) return hit.flags;
  const flags = findTwins(part.positions, part.indices);
  CACHE.set(part.indices, { positions: part.positions, flags });
  return flags;
}

function findTwins(positions: Float32Array, indices: Uint32Array): Uint8Array | null {
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
  const nv = positions.length / 3;
  const nt = Math.floor(indices.length / 3);
  // Vertex hash from its position bits (equal positions, equal hash, whatever the index).
  const vh = new Int32Array(nv);
  for (let v = 0; v < nv; v++) {
    let h = Math.imul(bits[v * 3]! ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ bits[v * 3 + 1]!, 0xc2b2ae35) ^ (h >>> 13);
    h = Math.imul(h ^ bits[v * 3 + 2]!, 0x27d4eb2f) ^ (h >>> 15);
    vh[v] = h;
  }
  // Buckets by the unordered triple of corner hashes (sum and xor-of-products are order-free).
  const size = 1 << Math.max(4, Math.ceil(Math.log2(nt * 2 + 1)));
  const head = new Int32Array(size).fill(-1);
  const next = new Int32Array(nt);
  // The reversed twin already found for a triangle of the chains (a second one repeats the first).
  const partner = new Int32Array(nt).fill(-1);
  let flags: Uint8Array | null = null;
  for (let t = 0; t < nt; t++) {
    const a = indices[t * 3]!, b = indices[t * 3 + 1]!, c = indices[t * 3 + 2]!;
    if (a >= nv || b >= nv || c >= nv) continue;
    const ha = vh[a]!, hb = vh[b]!, hc = vh[c]!;
    const key = ((ha + hb + hc) ^ Math.imul(ha, hb) ^ Math.imul(hb, hc) ^ Math.imul(hc, ha)) & (size - 1);
    let found = -1;
    for (let u = head[key]!; u >= 0; u = next[u]!) {
      const rel = relation(bits, indices, u, t);
      if (rel !== TWIN_NONE) {
        found = u;
        flags ??= new Uint8Array(nt);
        if (rel === TWIN_REPEAT || partner[u]! >= 0) {
          flags[t] = TWIN_REPEAT;
        } else {
          partner[u] = t;
          flags[u] = TWIN_REVERSED;
          flags[t] = TWIN_REVERSED;
        }
        break;
      }
    }
    if (found < 0) {
      next[t] = head[key]!;
      head[key] = t;
    }
  }
  return flags;
}

function samePosition(bits: Uint32Array, i: number, j: number): boolean {
  return bits[i * 3] === bits[j * 3] && bits[i * 3 + 1] === bits[j * 3 + 1] && bits[i * 3 + 2] === bits[j * 3 + 2];
}

/** How triangle t relates to triangle u: same corners in the same cyclic order, the opposite order, or neither. */
function relation(bits: Uint32Array, indices: Uint32Array, u: number, t: number): number {
  const u0 = indices[u * 3]!, u1 = indices[u * 3 + 1]!, u2 = indices[u * 3 + 2]!;
  const t0 = indices[t * 3]!, t1 = indices[t * 3 + 1]!, t2 = indices[t * 3 + 2]!;
  // Degenerate triangles (two equal corners) have no orientation: never twins.
  if (samePosition(bits, u0, u1) || samePosition(bits, u1, u2) || samePosition(bits, u2, u0)) return TWIN_NONE;
  let k: number;
  if (samePosition(bits, t0, u0)) k = 0;
  else if (samePosition(bits, t0, u1)) k = 1;
  else if (samePosition(bits, t0, u2)) k = 2;
  else return TWIN_NONE;
  const after = k === 0 ? u1 : k === 1 ? u2 : u0;
  const before = k === 0 ? u2 : k === 1 ? u0 : u1;
  if (samePosition(bits, t1, after) && samePosition(bits, t2, before)) return TWIN_REPEAT;
  if (samePosition(bits, t1, before) && samePosition(bits, t2, after)) return TWIN_REVERSED;
  return TWIN_NONE;
}
