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

function officialChoice(text: string, ids?: [string, string]): Choice | null {
  const parts = text.split("Answer: ");
  if (ids) {
    if (parts.length < 2) return null;
    const choice = parts[1]!.split("Explanation:")[0]!;
    if (choice.includes(ids[0])) return "Path 1";
    if (choice.includes(ids[1])) return "Path 2";
    return null;
  }
  const segment = parts.length >= 2 ? parts[1]!.split("Explanation:")[0]! : text;
  const squeezed = segment.split("Explanation:")[0]!.replace(/[ *.\n]/g, "");
  return squeezed === "Path1" ? "Path 1" : squeezed === "Path2" ? "Path 2" : null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function robustChoice(text: string, ids?: [string, string]): Choice | null {
  const plain = text.replace(/<think>[\s\S]*?<\/think>/gi, " ").replace(/[*_`#>]+/g, " ");
  const marker = /\banswer\s*[:：\-–]\s*/i.exec(plain);
  const scope = marker ? plain.slice(marker.index + marker[0].length).split(/\bexplanation\b/i)[0]! : plain;
  const mentioned = new Set<Choice>();
  if (ids) {
    ids.forEach((id, i) => {
      if (new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(id)}(?![A-Za-z0-9])`).test(scope)) mentioned.add(i === 0 ? "Path 1" : "Path 2");
    });
  } else {
    for (const match of scope.matchAll(/\bpath\s*([12])(?![0-9])/gi)) mentioned.add(match[1] === "1" ? "Path 1" : "Path 2");
  }
  return mentioned.size === 1 ? [...mentioned][0]! : null;
}
