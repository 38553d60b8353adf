/**
 * The largest value every number from outside may take (issue 25): a dataset row, a scene file, a
 * bridge request, a config file or a command-line flag. Each limit is far above any real value and
 * far below what breaks the code (loops whose counters stop changing past 2^53, arrays too long to
 * allocate, pictures sharp refuses), so a value beyond it is a mistake or an attack, reported as a
 * data problem (file, line, field), a 400 on the bridge or a usage error, never a hang.
 *
 * The zod helpers below carry the limits into every schema with one wording per kind of number.
 */
import { z } from "zod";

// ------------------------------------------------------------------------------------------------
// Space
// ------------------------------------------------------------------------------------------------

/** A coordinate, metres from the origin: no house is 10 km across, and grid cell numbers stay small integers. */
export const COORDINATE_LIMIT_M = 10_000;

/** A scene's extent (bounds max - min), metres: generated houses are about 30 m; at 5 cm cells 100 m is a 2,000 x 2,000 plan grid. */
export const MAX_SCENE_EXTENT_M = 100;

/**
 * Cells of one plan grid: 2,048 x 2,048, just above a 100 m scene at 5 cm cells. Inflating a grid
 * works on a lattice four times its size with 12 bytes a point (world/space/inflate.ts): 200 MB here.
 */
export const MAX_GRID_CELLS = 2048 * 2048;

/** A distance or path length, metres: no episode walks 100 km. */
export const MAX_DISTANCE_M = 100_000;

/** A robot's (or agent's) diameter or radius, metres: no robot that drives through a door is 10 m wide. */
export const MAX_ROBOT_SIZE_M = 10;

/** An angle in degrees: a heading more than 100 full turns from zero is a mistake (and loses precision). */
export const ANGLE_LIMIT_DEG = 36_000;

/** A PathEval path measure or point coordinate: its space is 200 x 200; no length, clearance, turn count or angle nears a million. */
export const PATH_MEASURE_LIMIT = 1_000_000;

/** A rotation quaternion's component: a unit quaternion has none above 1 (plus rounding). */
export const QUATERNION_COMPONENT_LIMIT = 1.001;

// ------------------------------------------------------------------------------------------------
// Frames and pictures
// ------------------------------------------------------------------------------------------------

/** Frames per second: no camera or sampler needs more than 1,000 (fps sampling steps by 1 / fps). */
export const MAX_FPS = 1000;

/** A frame index: 10 million frames is 46 hours at 60 fps. */
export const MAX_FRAME_INDEX = 10_000_000;

/** Frames one spec may pick (indices listed, a uniform count): far above any provider's image limit. */
export const MAX_FRAMES_PER_SPEC = 10_000;

/** Pixels of a picture (width x height): sharp's default limitInputPixels (0x3FFF squared); it refuses larger ones. */
export const MAX_IMAGE_PIXELS = 0x3fff * 0x3fff;

/**
 * Pixels of a ground-truth mask (EPIC-Bench RLE): a 16-megapixel photo. A mask is a few bytes of
 * RLE that the scorer unpacks and runs a distance transform over (about 12 bytes a pixel: 200 MB
 * here, 3 GB at sharp's limit), so its size is bounded far below MAX_IMAGE_PIXELS.
 */
export const MAX_MASK_PIXELS = 0x1000 * 0x1000;

/** Masks in one field of a sample (EPIC-Bench RLE lists): samples hold a few instances each (at most 4 in the examples). */
export const MAX_MASKS_PER_FIELD = 256;

/** Pixels of all the masks of one sample together: what scoring one sample may unpack (four masks at MAX_MASK_PIXELS). */
export const MAX_MASK_PIXELS_PER_SAMPLE = 4 * MAX_MASK_PIXELS;

/** A picture side asked for on the command line (--picture-size, --max-side), pixels: WebP's largest. */
export const MAX_IMAGE_SIDE_PX = 0x3fff;

// ------------------------------------------------------------------------------------------------
// Collections and counts
// ------------------------------------------------------------------------------------------------

/** Entries of one array in one data row (annotations, objects, positions, targets): a row is one question. */
export const MAX_ITEMS_PER_ARRAY = 100_000;

/** Problems kept in memory by a loader; the rest are counted ("... and N more problems"). */
export const MAX_PROBLEMS_KEPT = 1000;

/** Actions of one navigation episode: VCN-Bench allows 1,000 (§3.1); 100 times that is a mistake. */
export const MAX_EPISODE_ACTIONS = 100_000;

// ------------------------------------------------------------------------------------------------
// Command-line flags and the config file (the same bound for a flag and its config key)
// ------------------------------------------------------------------------------------------------

/** Requests or episodes at once: each holds a socket, a reply buffer or a simulator; providers' rate limits end far below. */
export const MAX_CONCURRENCY = 1024;

/** Bootstrap resamples: 10,000 is the default; a million already takes minutes per table. */
export const MAX_BOOTSTRAP_RESAMPLES = 1_000_000;

/** Repeats of a run (`--repeats`): each is a whole run. */
export const MAX_REPEATS = 1000;

/** Houses, episodes or environments one `generate` makes: the largest release (PathEval) has 1,149. */
export const MAX_GENERATE_COUNT = 100_000;

/** Output tokens of one reply (`--max-tokens`, thinking budgets): no provider returns a million. */
export const MAX_OUTPUT_TOKENS = 1_000_000;

/** A timeout in milliseconds: one day (Node fires a timer of more than 2^31 - 1 ms, 24.8 days, at once). */
export const MAX_TIMEOUT_MS = 86_400_000;

/** A wait, lease or poll interval in seconds: one day. */
export const MAX_WAIT_SECONDS = 86_400;

/** Attempts per request, retries included. */
export const MAX_ATTEMPTS = 50;

/** A reply's text in bytes (`--max-reply-bytes`): 4 times it must stay under V8's 512 MiB string. */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** Requests per minute: a million is beyond any provider's tier. */
export const MAX_RPM = 1_000_000;

/** A cost cap in US dollars. */
export const MAX_COST_USD = 1_000_000;

/** Megabytes of pictures embedded in one HTML report: the page is one string (V8 ends at 512 MiB; base64 adds a third). */
export const MAX_REPORT_PICTURES_MB = 256;

/** A TCP port. */
export const MAX_PORT = 65_535;

// ------------------------------------------------------------------------------------------------
// zod helpers: the limits in every schema, with one wording each
// ------------------------------------------------------------------------------------------------

/** A number in [lo, hi], with the unit and the reason in the message. */
function between(lo: number, hi: number, unit: string): z.ZodNumber {
  const message = `must be between ${lo} and ${hi}${unit}`;
  return z.number().min(lo, message).max(hi, message);
}

/** A plan or world coordinate, metres (COORDINATE_LIMIT_M). */
export const coordinate = (): z.ZodNumber => between(-COORDINATE_LIMIT_M, COORDINATE_LIMIT_M, " (metres)");

/** A point of `n` coordinates. */
export const point = (n: number) => z.array(coordinate()).length(n);

/** A length in metres, 0 allowed, at most `max`. */
export const nonNegativeMetres = (max: number = MAX_DISTANCE_M): z.ZodNumber => between(0, max, " (metres)");

/** A length in metres above 0, at most `max`. */
export const positiveMetres = (max: number = MAX_DISTANCE_M): z.ZodNumber => {
  const message = `must be above 0 and at most ${max} (metres)`;
  return z.number().gt(0, message).max(max, message);
};

/** An angle in degrees (ANGLE_LIMIT_DEG). */
export const degrees = (): z.ZodNumber => between(-ANGLE_LIMIT_DEG, ANGLE_LIMIT_DEG, " (degrees)");

/** An angle in radians (ANGLE_LIMIT_DEG as radians). */
export const radians = (): z.ZodNumber => {
  const limit = (ANGLE_LIMIT_DEG * Math.PI) / 180;
  const message = `must be between ${-limit} and ${limit} (radians: 100 turns)`;
  return z.number().min(-limit, message).max(limit, message);
};

/** A PathEval path measure (descriptor value, difference, threshold) or point coordinate. */
export const pathMeasure = (): z.ZodNumber => between(-PATH_MEASURE_LIMIT, PATH_MEASURE_LIMIT, "");

/** A component of a rotation quaternion. */
export const quaternionComponent = (): z.ZodNumber => between(-QUATERNION_COMPONENT_LIMIT, QUATERNION_COMPONENT_LIMIT, " (a unit quaternion)");

/** Frames per second, in (0, MAX_FPS]. */
export const fps = (): z.ZodNumber => {
  const message = `must be above 0 and at most ${MAX_FPS} frames per second`;
  return z.number().gt(0, message).max(MAX_FPS, message);
};

/** A 0-based frame index, at most MAX_FRAME_INDEX. */
export const frameIndex = (): z.ZodNumber => wholeNumber(0, MAX_FRAME_INDEX);

/** A whole number in [lo, hi] (both safe integers). */
export const wholeNumber = (lo: number, hi: number): z.ZodNumber => {
  const message = `must be a whole number from ${lo} to ${hi}`;
  // abort: a number that is not a safe integer is one problem, not also "too big".
  return z.number().int({ message, abort: true }).min(lo, message).max(hi, message);
};

/** A numeric id: a safe integer (2^53 + 1 cannot be told from 2^53 once read). */
export const safeId = (): z.ZodNumber => z.number().int("must be a whole number within ±(2^53 - 1) (a safe integer)");

/** An array of at most `max` entries (MAX_ITEMS_PER_ARRAY by default). */
export const boundedArray = <T extends z.ZodType>(item: T, max: number = MAX_ITEMS_PER_ARRAY) => z.array(item).max(max, `must have at most ${max} entries`);

// ------------------------------------------------------------------------------------------------
// Plain checks, for hand-written loaders (numbers read without zod may be NaN or infinite)
// ------------------------------------------------------------------------------------------------

/** Why `value` is not a finite number in [lo, hi], or null when it is. */
export function rangeProblem(value: number, lo: number, hi: number, unit = ""): string | null {
  return Number.isFinite(value) && value >= lo && value <= hi ? null : `must be between ${lo} and ${hi}${unit}, found ${value}`;
}

/** Why a picture of this size cannot be decoded (sharp's pixel limit), or null when it can. */
export function pictureSizeProblem(width: number, height: number): string | null {
  if (!(width >= 1 && height >= 1)) return `its header gives a size of ${width}x${height} pixels`;
  if (width * height > MAX_IMAGE_PIXELS) return `its header claims ${width}x${height} pixels, more than the ${MAX_IMAGE_PIXELS} sharp decodes`;
  return null;
}
