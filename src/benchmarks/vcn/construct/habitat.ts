/**
 * Our plan coordinates in the release's Habitat convention (App. B.4: X east, Z south, y up):
 * world (x east, y north, z up) -> Habitat [x, z, -y]. An agent at the identity rotation faces
 * Habitat -Z (our north); a heading yaw (counter-clockwise from east) is the rotation by
 * yaw - pi/2 about Habitat +Y, written as a quaternion [x, y, z, w].
 */
import type { Aabb3, Vec2 } from "../../../world/types.js";

const r4 = (v: number): number => Math.round(v * 1e4) / 1e4 + 0;

/** A plan point on the floor -> Habitat [x, 0, z]. */
export function habitatFloor(p: Vec2): [number, number, number] {
  return [r4(p[0]), 0, r4(-p[1])];
}

/** A world point -> Habitat [x, y, z]. */
export function habitatPoint(p: readonly [number, number, number]): [number, number, number] {
  return [r4(p[0]), r4(p[2]), r4(-p[1])];
}

/** A world box -> Habitat [[min x, min y, min z], [max x, max y, max z]]. */
export function habitatBox(b: Aabb3): [[number, number, number], [number, number, number]] {
  return [[r4(b.min[0]), r4(b.min[2]), r4(-b.max[1])], [r4(b.max[0]), r4(b.max[2]), r4(-b.min[1])]];
}

/** The start rotation of a heading: quaternion [x, y, z, w] about Habitat +Y. */
export function headingQuaternion(yaw: number): [number, number, number, number] {
  const phi = yaw - Math.PI / 2;
  const round = (v: number) => Math.round(v * 1e6) / 1e6 + 0;
  return [0, round(Math.sin(phi / 2)), 0, round(Math.cos(phi / 2))];
}

/** The Habitat forward direction (x, z) of a heading, for checks: -Z rotated by the quaternion's angle. */
export function habitatForward(yaw: number): [number, number] {
  const phi = yaw - Math.PI / 2;
  return [-Math.sin(phi), -Math.cos(phi)];
}

/** The compass word of a heading that is a multiple of 90 degrees (east = 0, north = pi/2). */
export function compassOf(yaw: number): "east" | "north" | "west" | "south" {
  const k = ((Math.round(yaw / (Math.PI / 2)) % 4) + 4) % 4;
  return (["east", "north", "west", "south"] as const)[k]!;
}
