/**
 * What a finished navigation run writes besides episodes.jsonl: scores.json, report.md, and a
 * top-down picture per episode (episodes/<id>/topdown.png; when the set has the house plans).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { toJson, writeFileAtomic } from "../../../core/outputs.js";
import type { Vec3 } from "../../../sim/types.js";
import { safeName } from "./files.js";
import type { HousePlans } from "./houses.js";
import { navigationRunMarkdown } from "./report.js";
import type { NavigationScores } from "./scores.js";
import type { NavTask } from "./tasks.js";
import { topDownPicture } from "./topdown.js";
import type { EpisodeRecord } from "./types.js";

/** Writes the pictures (none with plans null), scores.json and report.md; returns the report's Markdown. */
export async function writeNavigationOutputs(out: string, scores: NavigationScores, tasks: readonly NavTask[], records: readonly EpisodeRecord[], plans: HousePlans | null): Promise<string> {
  const byTask = new Map(tasks.map((t) => [t.id, t]));
  const success = new Map(scores.navigation.per_episode.map((e) => [e.episode_id, e.success === 1]));
  for (const record of records) {
    const task = byTask.get(record.episode_id);
    const scene = task && plans ? plans.scene(task.env.scene_id) : null;
    if (!task || !scene) continue;
    const path3 = [record.start.position, ...record.steps.map((s) => s.position)] as Vec3[];
    const png = await topDownPicture({
      scene,
      episode: {
        start: task.env.start_position,
        start_heading_deg: record.start.heading_deg,
        goals: task.episode.goals.map((g) => ({ view_points: g.view_points as Vec3[] })),
        target_room: task.episode.target_room ?? null,
      },
      path: path3,
      collisions: record.steps.flatMap((s, k) => (s.collided ? [k + 1] : [])),
      stop: record.end === "stop",
      success: success.get(record.episode_id) ?? false,
    });
    const file = path.join(out, "episodes", safeName(record.episode_id), "topdown.png");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, png);
  }
  const markdown = `${navigationRunMarkdown(scores as never)}\n`;
  writeFileAtomic(path.join(out, "scores.json"), `${toJson(scores, 2)}\n`);
  writeFileAtomic(path.join(out, "report.md"), markdown);
  return markdown;
}
