/**
 * What a PathEval request needs beyond what scoring checks (load.ts runs this when asked,
 * benchmarks/requests.ts): the scenario question every variant and probe shows ({scenario} in
 * templates/patheval.yaml), and a picture header sharp can decode (media/image-check.ts). The
 * picture is checked by the loader (a PNG, JPEG, GIF or WebP) and the descriptor values by the
 * record schema, for every variant.
 */
import { problemList, type DataProblem } from "../../core/problems.js";
import { ImageHeaderChecker } from "../../media/image-check.js";
import type { RequestOptions } from "../requests.js";
import type { PathEvalItem } from "./types.js";

export function pathevalRequestProblems(items: readonly PathEvalItem[], _requests: RequestOptions): DataProblem[] {
  const problems = problemList();
  const images = new ImageHeaderChecker();
  for (const item of items) {
    const at = (field: string, message: string) => problems.push({ file: item.source.file, field: `[${item.source.index}].${field}`, message });
    if (item.question.trim() === "") at("conversations[0].value", "is blank; the prompt asks it (the scenario question)");
    const picture = images.problem(item.imagePath, item.imagePath);
    if (picture) at("image", picture);
  }
  return problems;
}
