/**
 * Reading one frame index from a reply. Never throws. The rule, in order:
 *   0. `<think>...</think>` blocks are removed (reasoning models).
 *   1. JSON: the first `{...}` in the text that parses as a JSON object with a key "frame"
 *      (or "frame_index", "index") holding an integer (a number like 12 or 12.0, or a string "12").
 *   2. A frame label: the first "frame 12" / "Frame: 12" / "frame #12" / "frame index 12"
 *      (case-insensitive; "frames 1-5" does not match).
 *   3. The first number in the text, if it is an integer ("12", "12.0"); "3.5" is unreadable.
 *      This also reads the released DualVLN reply format, whose second token is the frame index.
 * Negative numbers are read as such (and scored out-of-range).
 */

export type FrameReading =
  | { ok: true; index: number; rule: "json" | "frame-label" | "first-integer" }
  | { ok: false; reason: string };

const JSON_KEYS = ["frame", "frame_index", "index"];

function integerOf(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value.trim());
  return null;
}

function fromJson(text: string): number | null | undefined {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    // Try each closing brace after this opening one, shortest first.
    for (let end = text.indexOf("}", start); end !== -1; end = text.indexOf("}", end + 1)) {
      let value: unknown;
      try {
        value = JSON.parse(text.slice(start, end + 1));
      } catch {
        continue;
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) break;
      const record = value as Record<string, unknown>;
      const key = JSON_KEYS.find((k) => k in record);
      if (key === undefined) break;
      return integerOf(record[key]);
    }
  }
  return undefined;
}

export function readFrameIndex(text: string): FrameReading {
  if (typeof text !== "string") return { ok: false, reason: "the reply is not text" };
  const clean = text.replace(/<think>[\s\S]*?<\/think>/gi, " ").replace(/<think>[\s\S]*$/i, " ");
  const json = fromJson(clean);
  if (json !== undefined) {
    return json === null ? { ok: false, reason: "the JSON \"frame\" value is not an integer" } : { ok: true, index: json, rule: "json" };
  }
  const label = /\bframe(?:\s*index)?\s*(?:[:#=]|no\.?|number)?\s*(-?\d+)(?![\d.]*\d)/i.exec(clean);
  if (label) return { ok: true, index: Number(label[1]), rule: "frame-label" };
  const number = /-?\d+(?:\.\d+)?/.exec(clean);
  if (!number) return { ok: false, reason: "no frame index in the reply" };
  const value = Number(number[0]);
  if (!Number.isInteger(value)) return { ok: false, reason: `the first number (${number[0]}) is not an integer` };
  return { ok: true, index: value, rule: "first-integer" };
}
