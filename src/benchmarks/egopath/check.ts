/**
 * What an EgoPathBench request needs beyond what scoring checks (load.ts runs this when asked,
 * benchmarks/requests.ts), by prompt source and control (prompt.ts):
 * - release: the row's user_prompt is the question sent (with the official output instruction);
 * - templates: every placeholder the task's template uses has a value from the row (templateFields);
 * - mismatched-overlay: another question with as many candidates, from another view, whose image
 *   can be shown instead (planImageSwap; which partner is drawn depends on the seed, whether one
 *   exists does not).
 * The image itself is checked by the loader for every source (it must be a PNG, JPEG, GIF or WebP),
 * and here its header: a size sharp cannot decode is a problem (media/image-check.ts).
 */
import { problemList, type DataProblem } from "../../core/problems.js";
import { ImageHeaderChecker } from "../../media/image-check.js";
import type { RequestOptions } from "../requests.js";
import { INTENT_FIELDS, loadTemplates, planImageSwap, templateFields } from "./prompt.js";
import type { EgoPathItem } from "./types.js";

/** The row field each template placeholder comes from (prompt.ts templateFields), for messages. */
const PLACEHOLDER_FIELDS: Record<string, string> = {
  candidate_ids: "ground_truth.all_ids",
  start_id: "ground_truth.start_id",
  target: "ground_truth.target_category",
  intent: `ground_truth.${INTENT_FIELDS.slice(0, 2).join(" or ")}`,
  robot_diameter_m: "ground_truth.robot_diameter_m",
};

export function egopathRequestProblems(items: readonly EgoPathItem[], requests: RequestOptions): DataProblem[] {
  const problems = problemList();
  const at = (item: EgoPathItem, field: string, message: string) => problems.push({ ...item.source, field, message });
  const templates = requests.source === "templates" ? loadTemplates(requests.templateFile) : undefined;
  const images = new ImageHeaderChecker();
  for (const item of items) {
    const picture = images.problem(item.imagePath, item.imageRef);
    if (picture) at(item, "image_path", picture);
    if (!templates) {
      if (item.userPrompt.trim() === "") at(item, "user_prompt", "is blank; the release prompt sends it as the question");
      continue;
    }
    const fields = templateFields(item);
    const template = templates.tasks[item.task];
    for (const [key, field] of Object.entries(PLACEHOLDER_FIELDS)) {
      if (template.includes(`{${key}}`) && fields[key] === "") at(item, field, `missing; the templates prompt for ${item.task} shows it ({${key}})`);
    }
  }
  if (requests.control === "mismatched-overlay") {
    const unpaired = new Set(planImageSwap([...items], 0).unpaired);
    for (const item of items) {
      if (unpaired.has(item.id)) at(item, "image_path", "no other question has as many candidates and another view, so the mismatched-overlay control has no image to show instead");
    }
  }
  return problems;
}
