import { createHash } from "node:crypto";

/** JSON with sorted object keys, so equal values always give equal bytes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Strings at least this long are fed to the hash as they are instead of being copied into the JSON text. */
export const LONG_STRING = 4096;

/** The characters JSON.stringify escapes in ASCII text: quote, backslash and the controls U+0000-U+001F. */
const ESCAPED_ASCII = ["\"", "\\", ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c))];

/**
 * Whether JSON.stringify(s) is s in quotes. Pure ASCII (no surrogates to escape) and none of the
 * escaped characters; one indexOf per character is several times faster than a regex scan on
 * megabytes of base64.
 */
export function needsNoEscaping(s: string): boolean {
  if (Buffer.byteLength(s, "utf8") !== s.length) return false;
  return ESCAPED_ASCII.every((c) => !s.includes(c));
}

/**
 * Verdicts of needsNoEscaping for recent long strings, by string: the store key, the legacy keys
 * and the request body of one request all carry the same image base64, and the scan costs about
 * as much as hashing it. A lookup of the same string object is constant time (V8 hashes long
 * strings by length; an equal copy made elsewhere costs one comparison). Bounded by characters
 * held; the strings it holds are the ones in flight (shape.ts's digest memo holds the same ones).
 */
const PLAIN_MEMO_CHARS = 64 * 1024 * 1024;
const plainMemo = new Map<string, boolean>();
let plainMemoChars = 0;

/** needsNoEscaping, remembered for strings of LONG_STRING characters or more. */
export function isPlainJsonString(s: string): boolean {
  if (s.length < LONG_STRING) return needsNoEscaping(s);
  const known = plainMemo.get(s);
  if (known !== undefined) return known;
  const plain = needsNoEscaping(s);
  plainMemo.set(s, plain);
  plainMemoChars += s.length;
  for (const [k] of plainMemo) {
    if (plainMemoChars <= PLAIN_MEMO_CHARS) break;
    plainMemo.delete(k);
    plainMemoChars -= k.length;
  }
  return plain;
}

/** Values canonicalSha256 hands back to sha256(canonicalJson(...)) (JSON.stringify would call a toJSON). */
class NotPlain extends Error {}

/**
 * sha256(canonicalJson(value)), the same hex digest, without building the canonical text: long
 * strings that need no escaping (base64 images) go to the hash in place, so a request of 1 MB of
 * images is neither stringified nor copied to be hashed. Same rules as JSON.stringify after
 * sortKeys: keys sorted (integer-like keys first, as Object.fromEntries orders them), undefined /
 * functions / symbols dropped from objects and written null in arrays.
 */
export function canonicalSha256(value: unknown): string {
  const hash = createHash("sha256");
  let text = "";
  const longString = (s: string): void => {
    if (!isPlainJsonString(s)) {
      text += JSON.stringify(s);
      return;
    }
    hash.update(text + '"');
    hash.update(s, "latin1"); // plain means ASCII, whose latin1 bytes are its UTF-8 bytes (and copy faster)
    text = '"';
  };
  const write = (v: unknown): void => {
    if (typeof v === "string" && v.length >= LONG_STRING) return longString(v);
    if (Array.isArray(v)) {
      text += "[";
      for (let i = 0; i < v.length; i++) {
        if (i > 0) text += ",";
        const e = v[i];
        if (dropped(e)) text += "null";
        else write(e);
      }
      text += "]";
      return;
    }
    if (v && typeof v === "object") {
      // The object sortKeys builds, so its own key order (integer-like keys first) is the one JSON.stringify sees.
      const sorted = Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
      if (typeof sorted["toJSON"] === "function") throw new NotPlain();
      text += "{";
      let first = true;
      for (const k of Object.keys(sorted)) {
        const e = sorted[k];
        if (dropped(e)) continue;
        text += `${first ? "" : ","}${JSON.stringify(k)}:`;
        first = false;
        write(e);
      }
      text += "}";
      return;
    }
    text += JSON.stringify(v); // numbers, booleans, null, short strings; throws for a BigInt as canonicalJson does
  };
  if (dropped(value)) return sha256(canonicalJson(value));
  try {
    write(value);
  } catch (error) {
    if (error instanceof NotPlain) return sha256(canonicalJson(value));
    throw error;
  }
  hash.update(text);
  return hash.digest("hex");
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function dropped(v: unknown): boolean {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
}
