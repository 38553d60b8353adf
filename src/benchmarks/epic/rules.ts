import { UsageError } from "../../core/problems.js";
import type { EpicRules } from "./score.js";

/**
 * Every place where the EPIC-Bench paper's text and the official evaluation code differ and
 * `--rules` switches (official = the code, the default; paper = the text). Recorded in
 * scores.json so a reader sees which rule each number follows.
 */
export const RULE_DIFFERENCES: ReadonlyArray<{ key: string; official: string; paper: string }> = [
  {
    key: "count_exactness",
    official: "the count must match exactly when precise_count or count_in_description is set; else 1 - |gt - pred| / gt",
    paper: "exact only when precise_count is set (Sec. 4.2, Counting Score); a count stated in the description alone gets the soft score",
  },
  {
    key: "contact_relationship_count_weight",
    official: "CR uses TL's weights: count 0.1 when count_in_description, else 0.5 if precise_count, else 0.3",
    paper: "Table 3 gives the 0.1 exception to TL only: CR count weight 0.5, or 0.3 when precise_count is false",
  },
  {
    key: "exo_touching_areas",
    official: "when the two target areas touch (one connected piece), the start falls back to the image's bottom centre as in ego views",
    paper: "the path runs between the two target regions (Sec. 3.2.2): the two annotated area instances are the start and goal regions",
  },
  {
    key: "traversable_ratio",
    official: "the share of 50 evenly spaced samples along each segment that fall on walkable pixels",
    paper: "Length(segment ∩ walkable mask) / Length(segment) (Eq. 3), computed exactly over the pixel cells",
  },
  {
    key: "path_min_points",
    official: "a reply with 2 points (after filtering 2 or more) is scored",
    paper: "at least 3 points are required for a valid path (App. D); fewer score 0",
  },
  {
    key: "path_end_continuity",
    official: "the end point's continuity term counts only when 3 or more points remain after filtering",
    paper: "the end point always carries its Table 7 continuity weight (0.1)",
  },
];

export const EPIC_RULES: readonly EpicRules[] = ["official", "paper"];

export function rulesOption(text: string | undefined): EpicRules {
  if (text === undefined) return "official";
  if (!(EPIC_RULES as readonly string[]).includes(text)) throw new UsageError(`--rules must be official or paper (got "${text}")`);
  return text as EpicRules;
}

/** What scores.json records about the rules in force. */
export function rulesRecord(rules: EpicRules): { in_force: EpicRules; differences: Record<string, string> } {
  return { in_force: rules, differences: Object.fromEntries(RULE_DIFFERENCES.map((d) => [d.key, d[rules]])) };
}
