/**
 * The simulator bridge's wire protocol, "spatialprobe-sim/1" (docs/bridge-protocol.md is the
 * specification): an Environment (src/sim/types.ts) served over HTTP/1.1 with JSON bodies, one
 * session per server. This module holds what both ends share: the version, the limits, the
 * error codes, the zod schemas of every request and reply, and the conversion of observations
 * to and from their wire form (pictures as base64), with the checks a client applies to what a
 * server sends.
 */
import { z } from "zod";
import { boundedArray, coordinate, MAX_DISTANCE_M, MAX_EPISODE_ACTIONS, MAX_ROBOT_SIZE_M, nonNegativeMetres, positiveMetres, quaternionComponent, radians, wholeNumber } from "../../core/limits.js";
import { issueList } from "../../core/problems.js";
import { bufferImageDimensions } from "../../media/dimensions.js";
import { sniffMedia } from "../../media/sniff.js";
import { headingOf, NAV_ACTIONS, VIEW_NAMES, wrapAngle, type EnvInfo, type NavAction, type Observation, type ViewImage, type ViewName } from "../types.js";

/** The protocol this code speaks; a peer of another major version is refused. */
export const PROTOCOL = "spatialprobe-sim/1";
export const PROTOCOL_MAJOR = 1;

/** The major version of a protocol string "spatialprobe-sim/<major>[.<minor>]", or null for anything else. */
export function protocolMajor(value: string): number | null {
  const match = /^spatialprobe-sim\/(\d{1,6})(?:\.\d{1,6})?$/.exec(value);
  return match ? Number(match[1]) : null;
}

/** Largest request body a server reads (1 MiB): requests carry poses and target lists, never pictures. */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Largest /info reply a client reads, before it knows the picture size. */
export const MAX_INFO_REPLY_BYTES = 64 * 1024;
/** Largest /shortest_path or /close reply a client reads (a path of ~100,000 corners). */
export const MAX_PATH_REPLY_BYTES = 8 * 1024 * 1024;
/** Largest error body a client reads (only the message is kept). */
export const MAX_ERROR_REPLY_BYTES = 64 * 1024;
/** Largest picture side a client accepts in /info (bounds the observation reply size below). */
export const MAX_IMAGE_SIDE = 2048;
/** Most targets of one /shortest_path request: an episode's goals have a few dozen view points. */
export const MAX_PATH_TARGETS = 10_000;

/**
 * Largest observation reply a client reads for a server's `info`, sized from the pictures: per
 * view the raw RGB bytes (w*h*3) and, with depth, the raw 16-bit depth (w*h*2), times 1.5 for
 * encodings that do not compress (PNG of noise, JPEG at quality 100) plus 64 KiB of headers per
 * picture; times 4/3 for base64; plus 64 KiB for the JSON around them. 384x384 with four views
 * and depth: 6.6 MB.
 */
export function maxObservationReplyBytes(info: Pick<EnvInfo, "camera" | "views" | "depth">): number {
  const pixels = info.camera.width * info.camera.height;
  const pictures = info.depth ? 2 : 1;
  const rawPerView = pixels * 3 + (info.depth ? pixels * 2 : 0);
  const encodedPerView = Math.ceil(rawPerView * 1.5) + pictures * 64 * 1024;
  return Math.ceil((info.views.length * encodedPerView * 4) / 3) + 64 * 1024;
}

/** Every error a server answers with: the code, its HTTP status, and when it is used. */
export const ERROR_CODES = {
  malformed_json: { status: 400, when: "the body is not a JSON object" },
  invalid_request: { status: 400, when: "a field is missing, of the wrong type or out of range" },
  unknown_action: { status: 400, when: "the action is not FORWARD, TURN_LEFT, TURN_RIGHT or STOP" },
  rejected: { status: 400, when: "the simulator refused the request (e.g. an unknown scene)" },
  forbidden_host: { status: 403, when: "the Host header names another server" },
  not_found: { status: 404, when: "no such endpoint" },
  method_not_allowed: { status: 405, when: "the endpoint takes another method" },
  no_episode: { status: 409, when: "step or shortest_path before a successful reset" },
  episode_over: { status: 409, when: "step after the episode ended (STOP or the action limit)" },
  busy: { status: 409, when: "another request is being served" },
  closed: { status: 409, when: "the session was closed" },
  body_too_large: { status: 413, when: "the body is over the server's limit" },
  unsupported_media_type: { status: 415, when: "a POST body that is not application/json" },
  headers_too_large: { status: 431, when: "the request line and headers are over Node's limit (16 KiB)" },
  bad_request: { status: 400, when: "the request is not readable HTTP/1.1" },
  simulator_error: { status: 500, when: "the simulator failed; the episode is lost (reset again)" },
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

// ------------------------------------------------------------------------------------------------
// Schemas
// ------------------------------------------------------------------------------------------------

/** zod 4 numbers are finite (NaN and infinities fail); every one is bounded too (core/limits.ts). */
export const vec3Schema = z.tuple([coordinate(), coordinate(), coordinate()]);
export const quaternionSchema = z.tuple([quaternionComponent(), quaternionComponent(), quaternionComponent(), quaternionComponent()]);
const viewNameSchema = z.enum(VIEW_NAMES);

export const envInfoSchema = z.object({
  simulator: z.string().min(1).max(200),
  forward_step_m: positiveMetres(MAX_ROBOT_SIZE_M),
  turn_step_deg: z.number().positive().max(180),
  max_actions: wholeNumber(1, MAX_EPISODE_ACTIONS),
  robot: z.object({ height_m: positiveMetres(MAX_ROBOT_SIZE_M), radius_m: positiveMetres(MAX_ROBOT_SIZE_M) }),
  camera: z.object({
    height_m: nonNegativeMetres(MAX_ROBOT_SIZE_M),
    hfov_deg: z.number().positive().lt(180),
    width: wholeNumber(1, MAX_IMAGE_SIDE),
    height: wholeNumber(1, MAX_IMAGE_SIDE),
    pitch_deg: z.number().min(-90).max(90),
  }),
  views: z.array(viewNameSchema).max(VIEW_NAMES.length),
  depth: z.boolean(),
});

export const infoReplySchema = z.object({ protocol: z.string().max(100), info: envInfoSchema });

export const episodeSchema = z.object({
  episode_id: z.string().min(1).max(1000),
  scene_id: z.string().min(1).max(1000),
  start_position: vec3Schema,
  start_rotation: quaternionSchema,
});

export const resetRequestSchema = z.object({ episode: episodeSchema, render: z.boolean().optional() });
/** The action is checked apart (unknown_action), so any string passes here. */
export const stepRequestSchema = z.object({ action: z.string().max(100), render: z.boolean().optional() });
export const observeRequestSchema = z.object({ render: z.boolean().optional() });
export const shortestPathRequestSchema = z.object({ from: vec3Schema, targets: boundedArray(vec3Schema, MAX_PATH_TARGETS).min(1) });

export const wireViewSchema = z.object({
  name: viewNameSchema,
  media_type: z.enum(["image/jpeg", "image/png"]),
  width: wholeNumber(1, MAX_IMAGE_SIDE),
  height: wholeNumber(1, MAX_IMAGE_SIDE),
  data: z.string(),
  depth_png: z.string().optional(),
});

export const wireObservationSchema = z.object({
  step: wholeNumber(0, MAX_EPISODE_ACTIONS),
  pose: z.object({ position: vec3Schema, rotation: quaternionSchema, heading: radians() }),
  collided: z.boolean(),
  views: z.array(wireViewSchema).max(VIEW_NAMES.length),
});

export const resetReplySchema = z.object({ observation: wireObservationSchema });
export const observeReplySchema = resetReplySchema;
export const stepReplySchema = z.object({
  observation: wireObservationSchema,
  done: z.boolean(),
  end: z.enum(["stop", "action-limit"]).nullable().optional(),
});
export const shortestPathReplySchema = z.object({
  path: z.object({ points: boundedArray(vec3Schema).min(1), distance: nonNegativeMetres(MAX_DISTANCE_M), target: wholeNumber(0, MAX_PATH_TARGETS - 1) }).nullable(),
});
export const closeReplySchema = z.object({ closed: z.literal(true) });
export const errorReplySchema = z.object({ error: z.object({ code: z.string().max(100), message: z.string() }) });

export type WireView = z.infer<typeof wireViewSchema>;
export type WireObservation = z.infer<typeof wireObservationSchema>;

/** zod issues as "field: message; ..." (the first three fields). */
export function describeIssues(error: z.ZodError): string {
  const issues = issueList(error.issues);
  const shown = issues.slice(0, 3).map(({ field, message }) => `${field || "(body)"}: ${message}`);
  return shown.join("; ") + (issues.length > 3 ? ` (and ${issues.length - 3} more)` : "");
}

export function isNavAction(value: string): value is NavAction {
  return (NAV_ACTIONS as readonly string[]).includes(value);
}

// ------------------------------------------------------------------------------------------------
// Observations on the wire
// ------------------------------------------------------------------------------------------------

export function observationToWire(observation: Observation): WireObservation {
  return {
    step: observation.step,
    pose: { position: observation.pose.position, rotation: observation.pose.rotation, heading: observation.pose.heading },
    collided: observation.collided,
    views: observation.views.map((view) => ({
      name: view.name,
      media_type: view.mediaType,
      width: view.width,
      height: view.height,
      data: view.data.toString("base64"),
      ...(view.depthPng && { depth_png: view.depthPng.toString("base64") }),
    })),
  };
}

/** A reply that parses but breaks the protocol's rules (wrong step count, pictures that are not what they claim). */
export class WireFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WireFormatError";
  }
}

/** What a client knows an observation must be: the server's info, whether it asked for pictures, the step count. */
export interface ObservationExpectation {
  info: EnvInfo;
  render: boolean;
  step: number;
}

/** Tolerances of the pose checks: a unit quaternion to 1e-3, the heading to 1e-3 rad of 2 atan2(q_y, q_w). */
const UNIT_TOLERANCE = 1e-3;
const HEADING_TOLERANCE = 1e-3;

function isBase64Char(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2f;
}

/** Standard base64 with padding (RFC 4648 §4), checked in one pass; Buffer.from alone skips bad characters silently. */
export function decodeBase64Strict(text: string, field: string): Buffer {
  if (text.length === 0 || text.length % 4 !== 0) throw new WireFormatError(`${field}: not base64 (length ${text.length} is not a positive multiple of 4)`);
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  for (let i = 0; i < text.length - padding; i++) {
    if (!isBase64Char(text.charCodeAt(i))) throw new WireFormatError(`${field}: not base64 (character ${i})`);
  }
  return Buffer.from(text, "base64");
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A 16-bit greyscale PNG (IHDR bit depth 16, colour type 0: ISO/IEC 15948 §11.2.2) of the given size. */
function checkDepthPng(bytes: Buffer, width: number, height: number, field: string): void {
  const isPng = bytes.length >= 26 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString("latin1", 12, 16) === "IHDR";
  if (!isPng) throw new WireFormatError(`${field}: not a PNG`);
  const size = `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
  if (size !== `${width}x${height}`) throw new WireFormatError(`${field}: a ${size} picture, expected ${width}x${height}`);
  if (bytes[24] !== 16 || bytes[25] !== 0) throw new WireFormatError(`${field}: bit depth ${bytes[24]}, colour type ${bytes[25]}; expected 16-bit greyscale (16, 0)`);
}

function viewFromWire(view: WireView, index: number, expect: ObservationExpectation): ViewImage {
  const field = `views[${index}]`;
  const { width, height } = expect.info.camera;
  if (view.width !== width || view.height !== height) throw new WireFormatError(`${field}: ${view.width}x${view.height}, but info.camera is ${width}x${height}`);
  const data = decodeBase64Strict(view.data, `${field}.data`);
  const sniffed = sniffMedia(data.subarray(0, 16))?.type;
  if (sniffed !== view.media_type) throw new WireFormatError(`${field}.data: the bytes are ${sniffed ?? "no known image"}, media_type says ${view.media_type}`);
  const stored = bufferImageDimensions(data);
  if (!stored || stored.width !== width || stored.height !== height) {
    throw new WireFormatError(`${field}.data: ${stored ? `a ${stored.width}x${stored.height} picture` : "no readable image header"}, expected ${width}x${height}`);
  }
  const out: ViewImage = { name: view.name, mediaType: view.media_type, data, width, height };
  if (expect.info.depth !== (view.depth_png !== undefined)) {
    throw new WireFormatError(`${field}: ${expect.info.depth ? "no depth_png, but info.depth is true" : "a depth_png, but info.depth is false"}`);
  }
  if (view.depth_png !== undefined) {
    out.depthPng = decodeBase64Strict(view.depth_png, `${field}.depth_png`);
    checkDepthPng(out.depthPng, width, height, `${field}.depth_png`);
  }
  return out;
}

/** An observation from its wire form, checked against what the client expects (throws WireFormatError). */
export function observationFromWire(wire: WireObservation, expect: ObservationExpectation): Observation {
  if (wire.step !== expect.step) throw new WireFormatError(`step is ${wire.step}, expected ${expect.step} (actions since reset)`);
  const { position, rotation, heading } = wire.pose;
  const norm = Math.hypot(...rotation);
  if (Math.abs(norm - 1) > UNIT_TOLERANCE) throw new WireFormatError(`pose.rotation is not a unit quaternion (norm ${norm})`);
  if (Math.abs(wrapAngle(heading - headingOf(rotation))) > HEADING_TOLERANCE) {
    throw new WireFormatError(`pose.heading ${heading} disagrees with pose.rotation (2 atan2(q_y, q_w) = ${headingOf(rotation)})`);
  }
  const wanted: readonly ViewName[] = expect.render ? expect.info.views : [];
  const names = wire.views.map((v) => v.name);
  if (names.join(",") !== wanted.join(",")) {
    throw new WireFormatError(`views are [${names.join(", ")}], expected [${wanted.join(", ")}]${expect.render ? " (info.views, in order)" : " (render was false)"}`);
  }
  return {
    step: wire.step,
    pose: { position, rotation, heading },
    collided: wire.collided,
    views: wire.views.map((view, i) => viewFromWire(view, i, expect)),
  };
}

/** info.views must be a subsequence of VIEW_NAMES (front, left, back, right), each at most once. */
export function checkViewOrder(views: readonly ViewName[]): string | null {
  let last = -1;
  for (const name of views) {
    const at = VIEW_NAMES.indexOf(name);
    if (at <= last) return `info.views [${views.join(", ")}] is not in the order ${VIEW_NAMES.join(", ")} without repeats`;
    last = at;
  }
  return null;
}
