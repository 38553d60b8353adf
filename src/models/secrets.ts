/**
 * Keeping API keys out of everything we write or print. A key can reach us whole, URL-encoded,
 * or cut anywhere (a server that echoes headers into a body it truncates, a message we shorten),
 * so `scrub` redacts every run of FRAGMENT or more characters that occurs inside a secret, not
 * only whole keys. Text must be scrubbed before it is cut: `snippet` does both in that order.
 */

/** The shortest piece of a key that is redacted wherever it appears. */
export const FRAGMENT = 8;
/** Secrets shorter than this are ignored (too short to tell apart from ordinary text). */
export const MIN_SECRET = 4;
export const REDACTED = "[redacted]";

export type Secrets = readonly (string | undefined)[];

/** How a secret can be spelled in text we receive: as is, URL-encoded (either hex case), JSON-escaped. */
export function secretForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
  const json = JSON.stringify(secret).slice(1, -1);
  return [...new Set([secret, encoded, lowerHex, json])];
}

/** Window length -> the set of that many-character substrings of the secrets' forms. */
export function secretWindows(secrets: Secrets): Map<number, Set<string>> {
  const windows = new Map<number, Set<string>>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET) continue;
    for (const form of secretForms(secret)) {
      // A secret shorter than FRAGMENT is redacted only where it appears whole.
      const w = Math.min(FRAGMENT, form.length);
      let grams = windows.get(w);
      if (!grams) windows.set(w, (grams = new Set()));
      for (let i = 0; i + w <= form.length; i++) grams.add(form.slice(i, i + w));
    }
  }
  return windows;
}

const BASE = 257;

/** Polynomial hash of `s` (32-bit), the same value the rolling scan computes for a window. */
function hashOf(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * Spans [start, end) of `text` covered by windows of length `w` that are in `grams`, merged where
 * they touch or overlap. One pass with a rolling hash: linear in the text length.
 */
export function coveredSpans(text: string, w: number, grams: ReadonlySet<string>): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (grams.size === 0 || text.length < w) return spans;
  const hashes = new Set<number>();
  // A 65 536-bit filter on the hash's low bits answers most windows without a Set lookup.
  const filter = new Uint32Array(2048);
  for (const g of grams) {
    const h = hashOf(g);
    hashes.add(h);
    filter[(h & 0xffff) >>> 5]! |= 1 << (h & 31);
  }
  let top = 1; // BASE^(w-1), the weight of the character leaving the window
  for (let i = 1; i < w; i++) top = Math.imul(top, BASE);
  let h = 0;
  for (let i = 0; i < text.length; i++) {
    if (i >= w) h = (h - Math.imul(text.charCodeAt(i - w), top)) | 0;
    h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
    if (i < w - 1 || (filter[(h & 0xffff) >>> 5]! & (1 << (h & 31))) === 0 || !hashes.has(h)) continue;
    const start = i - w + 1;
    if (!grams.has(text.slice(start, i + 1))) continue;
    const last = spans[spans.length - 1];
    if (last && last[1] >= start) last[1] = i + 1;
    else spans.push([start, i + 1]);
  }
  return spans;
}

/** Merge sorted-or-not spans into disjoint, ascending ones (touching spans join). */
export function mergeSpans(spans: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && last[1] >= s) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * `text` with every run of FRAGMENT or more characters that occurs inside a secret (or inside
 * its URL-encoded or JSON-escaped form) replaced by "[redacted]"; secrets shorter than FRAGMENT
 * are replaced where they occur whole. Linear in the text length.
 */
export function scrub(text: string, secrets: Secrets = []): string {
  if (!text) return text;
  const windows = secretWindows(secrets);
  if (windows.size === 0) return text;
  const spans: Array<[number, number]> = [];
  for (const [w, grams] of windows) for (const span of coveredSpans(text, w, grams)) spans.push(span);
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const [s, e] of mergeSpans(spans)) {
    out += text.slice(at, s) + REDACTED;
    at = e;
  }
  return out + text.slice(at);
}

/** `text` cut to at most `max` UTF-16 units (never inside a surrogate pair), "…" marking a cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Scrub first, then cut: a key straddling the cut cannot survive as a prefix. */
export function snippet(text: string, secrets: Secrets, max: number): string {
  return clip(scrub(text, secrets), max);
}
