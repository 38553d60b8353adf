/** The five EgoPathBench tasks (paper Table 1) with their release codes. */
export const TASKS = [
  { code: "a1", name: "point_traversability", title: "Point Traversability", kind: "set" },
  { code: "b1", name: "embodied_traversability", title: "Embodied Traversability", kind: "set" },
  { code: "a2", name: "point_path", title: "Point Path", kind: "route" },
  { code: "b2", name: "embodied_path", title: "Embodied Path", kind: "route" },
  { code: "c", name: "intent_path", title: "Intent Path", kind: "route" },
] as const;

export type TaskCode = (typeof TASKS)[number]["code"];
export type TaskKind = "set" | "route";
export const TASK_CODES: TaskCode[] = TASKS.map((t) => t.code);
export const ROUTE_TASKS: TaskCode[] = ["a2", "b2", "c"];

export function taskInfo(code: TaskCode) {
  return TASKS.find((t) => t.code === code)!;
}

export function isRouteTask(code: TaskCode): boolean {
  return taskInfo(code).kind === "route";
}

/** Accepts a code ("a2") or a name ("point_path"); returns undefined when unknown. */
export function resolveTask(text: string): TaskCode | undefined {
  const key = text.trim().toLowerCase().replace(/-/g, "_");
  return TASKS.find((t) => t.code === key || t.name === key)?.code;
}

/** File names of the release layout (paths relative to the dataset root). */
export const releasePaths = {
  vqa: (task: TaskCode) => `benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`,
  gt: (task: TaskCode) => `benchmark_evalfix/benchmark/gt/gt_next_${task}.jsonl`,
};
