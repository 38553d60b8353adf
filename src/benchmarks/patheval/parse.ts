/**
 * Reading a model's choice. Two modes:
 * - "official": the release's reading (zero-shot scripts + get_results.py), defects included:
 *   the text after the first "Answer: " (case and the space matter; the whole reply when there is
 *   none) up to "Explanation:", with spaces, "*", "." and newlines removed, must equal "Path1" or
 *   "Path2". With random path names, the first name found in that text wins, so a reply naming
 *   both counts as Path 1; a reply without "Answer: " has no choice (the release's script raises).
 * - "robust" (default for runs): case-insensitive, markdown removed, "Answer" with or without a
 *   space or colon variants, and a reply that names both paths is unparseable, not a choice.
 */
import { replaceThinkBlocks } from "../../core/reply-scan.js";

export type Choice = "Path 1" | "Path 2";
export interface ParseOptions {
  mode?: "official" | "robust";
  /** The two path names shown to the model (left first), for the random-names variant. */
  ids?: [string, string];
}

export function parseAnswer(text: string, options: ParseOptions = {}): Choice | null {
  if (typeof text !== "string") return null;
  return (options.mode ?? "robust") === "official" ? officialChoice(text, options.ids) : robustChoice(text, options.ids);
}

/**
 * `text.split("Answer: ")[1].split("Explanation:")[0]` without splitting the whole text: the text
 * between the first "Answer: " and the next one (or the end), up to the first "Explanation:".
 */
function afterFirstAnswer(text: string): string | undefined {
  const marker = text.indexOf("Answer: ");
  if (marker === -1) return undefined;
  const start = marker + "Answer: ".length;
  const next = text.indexOf("Answer: ", start);
  return beforeExplanation(text.slice(start, next === -1 ? text.length : next));
}

const beforeExplanation = (text: string): string => {
  const at = text.indexOf("Explanation:");
  return at === -1 ? text : text.slice(0, at);
};

function officialChoice(text: string, ids?: [string, string]): Choice | null {
  const choice = afterFirstAnswer(text);
  if (ids) {
    if (choice === undefined) return null;
    if (choice.includes(ids[0])) return "Path 1";
    if (choice.includes(ids[1])) return "Path 2";
    return null;
  }
  const squeezed = squeezedUpTo(beforeExplanation(choice ?? text), 5);
  return squeezed === "Path1" ? "Path 1" : squeezed === "Path2" ? "Path 2" : null;
}

/**
 * `text.replace(/[ *.\n]/g, "")` when that has at most `max` characters, else undefined: only a
 * short result can be a path name, and a long one is not built.
 */
function squeezedUpTo(text: string, max: number): string | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x2a || c === 0x2e || c === 0x0a) continue;
    if (out.length === max) return undefined;
    out += text[i];
  }
  return out;
}

/** `text.split(pattern)[0]`: the text before the first match (the whole text when none). */
function beforeFirst(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  return match ? text.slice(0, match.index) : text;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function robustChoice(text: string, ids?: [string, string]): Choice | null {
  const plain = replaceThinkBlocks(text, " ", true).replace(/[*_`#>]+/g, " ");
  const marker = /\banswer\s*[:：\-–]\s*/i.exec(plain);
  const scope = marker ? beforeFirst(plain.slice(marker.index + marker[0].length), /\bexplanation\b/i) : plain;
  const mentioned = new Set<Choice>();
  if (ids) {
    ids.forEach((id, i) => {
      if (new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(id)}(?![A-Za-z0-9])`).test(scope)) mentioned.add(i === 0 ? "Path 1" : "Path 2");
    });
  } else {
    for (const match of scope.matchAll(/\bpath\s*([12])(?![0-9])/gi)) {
      mentioned.add(match[1] === "1" ? "Path 1" : "Path 2");
      if (mentioned.size === 2) break; // both named: unparseable, whatever follows
    }
  }
  return mentioned.size === 1 ? [...mentioned][0]! : null;
}
