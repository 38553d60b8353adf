/**
 * A pixel of one view -> the floor point it shows (waypoint mode, §4: "predicts a pixel goal";
 * the released code unprojects it with the view's depth). With depth, the pixel's depth along the
 * optical axis places the point; without depth (or where depth is 0: nothing drawn), the pixel's
 * ray is met with the floor. The point is dropped onto the floor either way (the executor walks
 * there). Pinhole camera of EnvInfo: square pixels, focal length (width / 2) / tan(hfov / 2),
 * pixel centres at (u + 0.5, v + 0.5), y down, pitch positive upwards.
 */
import { decodeDepthPng16 } from "../../../world/render/encode.js";
import { forwardOf, VIEW_OFFSETS, type EnvInfo, type Observation, type Vec3, type ViewName } from "../../../sim/types.js";

/** Camera-frame ray of a pixel: (right, down, forward) with forward = 1. */
export function pixelDirection(info: EnvInfo["camera"], u: number, v: number): [number, number, number] {
  const f = info.width / 2 / Math.tan((info.hfov_deg * Math.PI) / 360);
  return [(u + 0.5 - info.width / 2) / f, (v + 0.5 - info.height / 2) / f, 1];
}

/**
 * The floor point (Habitat coordinates) seen at pixel (u, v) of a view, given the depth along the
 * axis in metres (null: intersect the ray with the floor). Null when the ray never meets the
 * floor ahead and there is no depth.
 */
export function floorPointOf(position: Vec3, heading: number, view: ViewName, camera: EnvInfo["camera"], u: number, v: number, depthM: number | null): Vec3 | null {
  const [x, y, z] = pixelDirection(camera, u, v);
  const pitch = (camera.pitch_deg * Math.PI) / 180;
  // Pitch about the camera's right axis: forward tips up by `pitch`.
  const forward = z * Math.cos(pitch) + y * Math.sin(pitch);
  const up = z * Math.sin(pitch) - y * Math.cos(pitch);
  let scale: number;
  if (depthM !== null && depthM > 0) scale = depthM / z;
  else if (up < 0) scale = camera.height_m / -up;
  else return null;
  const yaw = heading + VIEW_OFFSETS[view];
  const [fx, fz] = forwardOf(yaw);
  const [rx, rz] = forwardOf(yaw - Math.PI / 2);
  return [position[0] + scale * (forward * fx + x * rx), position[1], position[2] + scale * (forward * fz + x * rz)];
}

/** The floor point of a reply's pixel in an observation, or why there is none. */
export async function waypointOf(observation: Observation, info: EnvInfo, view: ViewName, pixel: [number, number]): Promise<Vec3 | string> {
  const [u, v] = pixel;
  const { width, height } = info.camera;
  if (!(u >= 0 && u < width && v >= 0 && v < height)) return `pixel (${u}, ${v}) is outside the ${width} x ${height} view`;
  const image = observation.views.find((w) => w.name === view);
  let depth: number | null = null;
  if (image?.depthPng) {
    const decoded = await decodeDepthPng16(image.depthPng);
    const mm = decoded.millimetres[Math.floor(v) * decoded.width + Math.floor(u)] ?? 0;
    depth = mm > 0 ? mm / 1000 : null;
  }
  const point = floorPointOf(observation.pose.position, observation.pose.heading, view, info.camera, u, v, depth);
  return point ?? `pixel (${u}, ${v}) of the ${view} view shows no floor (above the horizon, no depth)`;
}
