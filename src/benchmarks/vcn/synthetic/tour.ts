/**
 * The prior tour and what each view shows. A camera pose is a position and a heading (radians,
 * counter-clockwise from east); the field of view is 90°.
 *
 * Visibility (the synthetic stand-in for the paper's rule "within 3 m, mostly unoccluded"):
 * - an object in the camera's room is visible when it lies strictly inside the field of view and
 *   within 3 m;
 * - a doorway of the camera's room inside the field of view shows the next room: that room is in
 *   `visible_rooms`, and its objects inside the doorway's opening (as seen from the camera), inside
 *   the field of view and within 3 m are visible too.
 * The renderer draws exactly this, so pictures and annotations agree.
 *
 * The tour is a depth-first walk over the doorways from a start room: three views at the centre
 * of each newly entered room (120° apart, the first along the walking direction), one view from
 * just inside a doorway looking through it before stepping into a new room, and one view at the
 * centre when the walk comes back through a room on its way to the next new one.
 */
import type { Rng } from "../../../stats/rng.js";
import type { Annotation } from "../schema.js";
import { DOOR_WIDTH, dist, doorsOf, otherRoom, roomAt, roomById, type Door, type House, type HouseObject, type P2, type Room } from "./house.js";

export interface Pose {
  position: P2;
  heading: number;
}

export const HALF_FOV = Math.PI / 4;
export const VISIBLE_DISTANCE = 3;

export const wrap = (a: number) => {
  let x = a % (2 * Math.PI);
  if (x <= -Math.PI) x += 2 * Math.PI;
  if (x > Math.PI) x -= 2 * Math.PI;
  return x;
};

const bearing = (from: P2, to: P2) => Math.atan2(to[1] - from[1], to[0] - from[0]);

export interface SeenObject {
  object: HouseObject;
  /** Angle from the view direction, positive to the left. */
  rel: number;
  distance: number;
}

export interface SeenDoor {
  door: Door;
  room: Room;
  rel: number;
  distance: number;
  /** Half the angle the opening spans from the camera. */
  aperture: number;
  objects: SeenObject[];
}

export interface ViewContent {
  room: Room | null;
  objects: SeenObject[];
  doors: SeenDoor[];
}

function seen(pose: Pose, object: HouseObject): SeenObject {
  return { object, rel: wrap(bearing(pose.position, object.position) - pose.heading), distance: dist(pose.position, object.position) };
}

export function viewContent(house: House, pose: Pose): ViewContent {
  const room = roomAt(house, pose.position);
  if (!room) return { room: null, objects: [], doors: [] };
  const objects = house.objects
    .filter((o) => o.room === room.id)
    .map((o) => seen(pose, o))
    .filter((s) => Math.abs(s.rel) < HALF_FOV && s.distance <= VISIBLE_DISTANCE);
  const doors: SeenDoor[] = [];
  for (const door of doorsOf(house, room.id)) {
    const distance = dist(pose.position, door.position);
    const rel = wrap(bearing(pose.position, door.position) - pose.heading);
    if (distance < 0.05 || Math.abs(rel) >= HALF_FOV) continue;
    const aperture = Math.atan(DOOR_WIDTH / 2 / distance);
    const next = roomById(house, otherRoom(door, room.id));
    const through = house.objects
      .filter((o) => o.room === next.id)
      .map((o) => seen(pose, o))
      .filter((s) => Math.abs(wrap(s.rel - rel)) < aperture && Math.abs(s.rel) < HALF_FOV && s.distance <= VISIBLE_DISTANCE);
    doors.push({ door, room: next, rel, distance, aperture, objects: through });
  }
  return { room, objects, doors };
}

export function annotate(house: House, pose: Pose, index: number): Annotation {
  const view = viewContent(house, pose);
  const objects = [...view.objects, ...view.doors.flatMap((d) => d.objects)]
    .sort((a, b) => a.distance - b.distance)
    .map((s) => ({ id: s.object.id, category: s.object.category }));
  return {
    index,
    room: view.room?.id ?? null,
    room_category: view.room?.category ?? null,
    objects,
    visible_rooms: [...new Set(view.doors.map((d) => d.room.id))].sort(),
  };
}

const STEP_IN = 0.8;

/** The tour's camera poses (depth-first over doorways from a random start room). */
export function planTour(house: House, rng: Rng): Pose[] {
  const poses: Pose[] = [];
  const visited = new Set<string>();
  const visit = (room: Room, heading: number) => {
    visited.add(room.id);
    for (let k = 0; k < 3; k++) poses.push({ position: room.center, heading: wrap(heading + (k * 2 * Math.PI) / 3) });
    let first = true;
    for (const door of rng.shuffle(doorsOf(house, room.id))) {
      const next = roomById(house, otherRoom(door, room.id));
      if (visited.has(next.id)) continue;
      const toDoor = bearing(room.center, door.position);
      if (!first) poses.push({ position: room.center, heading: toDoor });
      first = false;
      // Just inside the doorway, looking through it.
      const length = dist(room.center, door.position);
      const inside: P2 = [door.position[0] - ((door.position[0] - room.center[0]) / length) * STEP_IN, door.position[1] - ((door.position[1] - room.center[1]) / length) * STEP_IN];
      poses.push({ position: inside, heading: toDoor });
      visit(next, bearing(door.position, next.center));
    }
  };
  visit(rng.pick(house.rooms), rng.pick([0, 0.5, 1, 1.5]) * Math.PI);
  return poses;
}
