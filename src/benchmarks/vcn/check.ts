/**
 * What a VCN-Bench request needs beyond what scoring checks (load.ts runs this when asked,
 * benchmarks/requests.ts): the instruction the question shows, and a tour the frame sampler can
 * turn into exactly the annotated frames. A video tour must open; its spec must pick as many
 * frames as there are annotations, each the video frame its `source_index` says (prompt.ts
 * checkTour refuses the item otherwise). Image tours: the picks of an indices spec exist, and
 * their positions match `source_index`; they carry no timestamps, so an fps spec needs a video.
 * Every tour picture has a header sharp can decode (media/image-check.ts).
 */
import { imageClip, planFrames, type Clip, type VideoChecker } from "../../media/video-check.js";
import { ImageHeaderChecker } from "../../media/image-check.js";
import type { RawItem } from "./schema.js";
import type { TourSource } from "./types.js";

export type Add = (field: string, message: string) => void;

/**
 * Problems of one line's tour and instruction. `source` holds the resolved tour paths;
 * `folderFrames` is the frame count of a `dir` tour (null when the folder is unusable, which the
 * loader has reported already); `mediaOk` is false when a tour path was already refused.
 */
export function vcnRequestProblems(raw: RawItem, source: TourSource, folderFrames: number | null, mediaOk: boolean, videos: VideoChecker, add: Add, images = new ImageHeaderChecker()): void {
  if (raw.instruction.trim() === "") add("instruction", "is blank; the prompt asks it");
  if (!mediaOk) return;
  // A frame list as written, or a release prior's picked frames (their folder is the item's problem).
  source.frames?.forEach((file, i) => {
    const picture = images.problem(file, raw.tour.frames?.[i] ?? file);
    if (picture) add(raw.tour.frames ? `tour.frames[${i}]` : "tour.prior", picture);
  });
  const spec = raw.tour.spec ?? { mode: "all" as const };
  const ref = raw.tour.video ?? raw.tour.dir ?? "the frame list";
  let clip: Clip | null = null;
  if (source.video !== undefined) {
    if (!raw.tour.spec) return; // reported by the loader: a video tour needs a spec
    const reading = videos.read(source.video, ref);
    if (!reading.ok) {
      add("tour.video", reading.message);
      return;
    }
    clip = reading.clip;
  } else if (source.frames !== undefined) clip = imageClip(source.frames.length, null);
  else if (source.dir !== undefined && folderFrames !== null && folderFrames > 0) clip = imageClip(folderFrames, null);
  if (!clip) return;
  const plan = planFrames(spec, clip, ref);
  if (!plan.ok) {
    for (const { position, message } of plan.problems) add(position === undefined ? "tour.spec" : `tour.spec.indices[${position}]`, message);
    return;
  }
  const n = raw.annotations.length;
  if (plan.indices.length !== n) {
    // Image tours: the loader compares the counts itself.
    if (source.video !== undefined) add("tour.video", `the spec takes ${plan.indices.length} of the ${clip.frames} frames in ${ref} but ${n} tour frames are annotated`);
    return;
  }
  raw.annotations.forEach((a, i) => {
    if (a.source_index === undefined || a.index >= n) return;
    const frame = plan.indices[a.index]!;
    if (frame !== a.source_index) add(`annotations[${i}].source_index`, `tour frame ${a.index} is frame ${frame} of ${ref}, but the annotation says ${a.source_index}`);
  });
}
