import type { BatchLimits } from "./types.js";

/**
 * Lines split into batches in order, each within `limits` (count, and bytes: the envelope plus
 * each line's size and a separator byte between lines). A line too big for any batch on its own
 * goes to `tooBig`.
 */
export function chunkLines<T>(lines: readonly T[], sizeOf: (line: T) => number, limits: BatchLimits, envelopeBytes: number): { chunks: T[][]; tooBig: T[] } {
  const chunks: T[][] = [];
  const tooBig: T[] = [];
  let current: T[] = [];
  let bytes = envelopeBytes;
  for (const line of lines) {
    const size = sizeOf(line);
    if (envelopeBytes + size > limits.maxBytes) {
      tooBig.push(line);
      continue;
    }
    const added = (current.length > 0 ? 1 : 0) + size;
    if (current.length >= limits.maxRequests || bytes + added > limits.maxBytes) {
      chunks.push(current);
      current = [];
      bytes = envelopeBytes;
    }
    bytes += (current.length > 0 ? 1 : 0) + size;
    current.push(line);
  }
  if (current.length > 0) chunks.push(current);
  return { chunks, tooBig };
}
