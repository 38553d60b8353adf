import { labelDetail } from "./label.js";
import { parseAnswer } from "./parse.js";
import { leftPath, other, type ShownPair } from "./prompt.js";
import { scenarioById, type DescriptorName } from "./scenarios.js";
import type { PathEvalItem, PathName } from "./types.js";

/** One scored PathEval answer. */
export interface ChoiceOutcome {
  /** The model's choice in the record's frame (undone flip and names), or null when unreadable. */
  choice: PathName | null;
  truth: PathName;
  correct: boolean;
  /** The model picked the path shown on the left (Table 2's first-position count). */
  choseLeft: boolean | null;
  /** The same reply read with the release's own rule. */
  officialCorrect: boolean;
  /** Descriptors that decide this pair's label for its scenario (when the scenario is known). */
  deciding: DescriptorName[];
}

/** Map a choice made on the shown pair ("Path 1" = left) back to the record's paths. */
export function toRecordFrame(shownChoice: PathName, shown: Pick<ShownPair, "flipped">): PathName {
  return shownChoice === "Path 1" ? leftPath(shown) : other(leftPath(shown));
}

export function readChoice(text: string, shown: ShownPair, mode: "robust" | "official"): PathName | null {
  const ids = shown.variant === "random-ids" ? shown.names : undefined;
  const picked = parseAnswer(text, { mode, ...(ids ? { ids } : {}) });
  return picked ? toRecordFrame(picked, shown) : null;
}

export function scoreChoice(item: PathEvalItem, text: string | null, shown: ShownPair): ChoiceOutcome {
  const choice = text === null ? null : readChoice(text, shown, "robust");
  const official = text === null ? null : readChoice(text, shown, "official");
  const deciding = item.scenarioId !== undefined ? decidingDescriptors(item) : [];
  return {
    choice,
    truth: item.truth,
    correct: choice === item.truth,
    choseLeft: choice === null ? null : choice === leftPath(shown),
    officialCorrect: official === item.truth,
    deciding,
  };
}

function decidingDescriptors(item: PathEvalItem): DescriptorName[] {
  const { wins } = labelDetail(item.metrics["Path 1"], item.metrics["Path 2"], scenarioById(item.scenarioId!).directions);
  return [...wins["Path 1"], ...wins["Path 2"]] as DescriptorName[];
}
