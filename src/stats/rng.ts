/**
 * A small seeded generator (SplitMix64 seeding a xoshiro128**-style state via 32-bit maths) so
 * every random choice in the project is reproducible from one integer seed.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  below(n: number): number;
}

export function createRng(seed: number): Rng {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let x = (seed >>> 0) ^ 0x9e3779b9;
  const splitmix = () => {
    x = (x + 0x9e3779b9) | 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  s0 = splitmix(); s1 = splitmix(); s2 = splitmix(); s3 = splitmix();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  const nextUint32 = () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11);
    return result;
  };
  return {
    next: () => nextUint32() / 4294967296,
    below: (n: number) => Math.floor((nextUint32() / 4294967296) * n),
  };
}

function rotl(v: number, k: number): number {
  return (v << k) | (v >>> (32 - k));
}

/** Fisher-Yates shuffle of a copy. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A stable 32-bit seed from any string (FNV-1a), for per-item randomness. */
export function seedFromString(text: string, base = 0): number {
  let h = (0x811c9dc5 ^ base) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
