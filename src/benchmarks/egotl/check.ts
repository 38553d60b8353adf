/**
 * What an EgoTL-Bench request needs beyond what scoring checks (load.ts runs this when asked,
 * benchmarks/requests.ts): every text field the task's template fills in (prompt.ts questionText),
 * and every video the prompt samples frames from opens and has the frames its spec names
 * (media/video-check.ts; frame folders and lists are checked by the loader itself), and every
 * picture named one by one (current_frame, a frame list) has a header sharp can decode
 * (media/image-check.ts).
 */
import { problemList, type DataProblem } from "../../core/problems.js";
import { ImageHeaderChecker } from "../../media/image-check.js";
import { planFrames, planSpanFrames, VideoChecker } from "../../media/video-check.js";
import type { RequestOptions } from "../requests.js";
import type { EgoTLItem } from "./load.js";
import { loadTemplates } from "./prompt.js";

/** The item fields the question templates can fill in, by placeholder (prompt.ts questionText). */
const TEXT_FIELDS = {
  abstract_task: (item: EgoTLItem) => item.abstractTask,
  chain_of_thought: (item: EgoTLItem) => item.chainOfThought,
  options: (item: EgoTLItem) => (item.options ? item.options.join("") : null),
} as const;

type Placeholder = keyof typeof TEXT_FIELDS;

/** The placeholders of TEXT_FIELDS a template uses. */
export function placeholdersUsed(template: string): Placeholder[] {
  return (Object.keys(TEXT_FIELDS) as Placeholder[]).filter((key) => template.includes(`{${key}}`));
}

export function egotlRequestProblems(items: readonly EgoTLItem[], requests: RequestOptions, videos = new VideoChecker()): DataProblem[] {
  const templates = loadTemplates(requests.templateFile);
  const problems = problemList();
  const images = new ImageHeaderChecker();
  for (const item of items) {
    const at = (field: string, message: string) => problems.push({ file: item.file, line: item.line, field, message });
    const current = item.currentFrame && images.problem(item.currentFrame.path, item.currentFrame.display);
    if (current) at("current_frame", current);
    item.media?.source.frames?.forEach((frame, i) => {
      const picture = images.problem(frame, frame);
      if (picture) at(`media.frames[${i}]`, picture);
    });
    for (const key of placeholdersUsed(templates[item.task])) {
      const value = TEXT_FIELDS[key](item);
      if (value === null) at(key, `missing; the ${item.task} prompt shows it ({${key}})`);
      else if (value.trim() === "") at(key, `is blank; the ${item.task} prompt shows it ({${key}})`);
    }
    const media = item.media;
    if (!media?.source.video) continue;
    const reading = videos.read(media.source.video, media.videoShown ?? media.display);
    if (!reading.ok) {
      at("media.video", reading.message);
      continue;
    }
    if (media.span) {
      const plan = planSpanFrames(media.spec, reading.clip, { first: media.span.first_frame, last: media.span.last_frame }, media.videoShown ?? media.display);
      if (!plan.ok && "span" in plan) at("media.span.last_frame", plan.message);
      else if (!plan.ok) for (const { position, message } of plan.problems) at(position === undefined ? "media.spec" : `media.spec.indices[${position}]`, message);
      continue;
    }
    const plan = planFrames(media.spec, reading.clip, media.display);
    if (!plan.ok) for (const { position, message } of plan.problems) at(position === undefined ? "media.spec" : `media.spec.indices[${position}]`, message);
  }
  return problems;
}
