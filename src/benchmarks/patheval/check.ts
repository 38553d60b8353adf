/**
 * What a PathEval request needs beyond what scoring checks (load.ts runs this when asked,
 * benchmarks/requests.ts): the scenario question every variant and probe shows ({scenario} in
 * templates/patheval.yaml). The picture is checked by the loader (a PNG, JPEG, GIF or WebP) and
 * the descriptor values by the record schema, for every variant.
 */
import type { DataProblem } from "../../core/problems.js";
import type { RequestOptions } from "../requests.js";
import type { PathEvalItem } from "./types.js";

export function pathevalRequestProblems(items: readonly PathEvalItem[], _requests: RequestOptions): DataProblem[] {
  return items
    .filter((item) => item.question.trim() === "")
    .map((item) => ({ file: item.source.file, field: `[${item.source.index}].conversations[0].value`, message: "is blank; the prompt asks it (the scenario question)" }));
}
