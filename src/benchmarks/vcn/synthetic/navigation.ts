/**
 * Navigation episodes (the released episode format) and scripted trajectory logs for the
 * synthetic houses, to exercise the navigation metrics. Positions are [east, 0, north] (the
 * middle coordinate is height, as in habitat). The scripted behaviours cycle through: straight
 * to the goal and STOP; a detour through another room, then the goal; STOP about 1.5-3 m short;
 * STOP in another room; straight to the goal without STOP.
 */
import { dist, roomAt, roomById, round, shortestWalk, type House, type HouseObject, type P2 } from "./house.js";
import type { Pose } from "./tour.js";

export const BEHAVIOURS = ["direct", "detour", "short", "wrong-room", "no-stop"] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

const to3 = (p: P2): number[] => [round(p[0]), 0, round(p[1])];
const STEP = 0.25;

/** Points around the object, 0.6 m away, inside its room and clear of walls and other objects. */
export function viewPoints(house: House, object: HouseObject): P2[] {
  const room = roomById(house, object.room);
  const out: P2[] = [];
  for (let k = 0; k < 8; k++) {
    const a = (k * Math.PI) / 4;
    const p: P2 = [round(object.position[0] + 0.6 * Math.cos(a)), round(object.position[1] + 0.6 * Math.sin(a))];
    if (p[0] < room.x0 + 0.25 || p[0] > room.x1 - 0.25 || p[1] < room.y0 + 0.25 || p[1] > room.y1 - 0.25) continue;
    if (house.objects.some((o) => o.id !== object.id && dist(o.position, p) < 0.4)) continue;
    out.push(p);
  }
  return out.length > 0 ? out : [object.position];
}

/** The goal object of a question: the target instance, or the main object of the target room. */
export function goalObject(house: House, target: { room: string } | { object: string }): HouseObject {
  const found = "object" in target ? house.objects.find((o) => o.id === target.object) : house.objects.find((o) => o.room === target.room);
  if (!found) throw new Error("no goal object");
  return found;
}

function nearestByWalk(house: House, from: P2, points: P2[]): { point: P2; length: number; walk: P2[] } {
  let best: { point: P2; length: number; walk: P2[] } | null = null;
  for (const p of points) {
    const w = shortestWalk(house, from, p);
    if (!best || w.length < best.length) best = { point: p, length: w.length, walk: w.points };
  }
  return best!;
}

/** Positions every 0.25 m along a polyline (corners and the end included). */
export function stepAlong(polyline: P2[]): P2[] {
  const out: P2[] = [polyline[0]!];
  for (let i = 1; i < polyline.length; i++) {
    const a = polyline[i - 1]!;
    const b = polyline[i]!;
    const length = dist(a, b);
    for (let s = STEP; s < length - 1e-9; s += STEP) out.push([a[0] + ((b[0] - a[0]) * s) / length, a[1] + ((b[1] - a[1]) * s) / length]);
    out.push(b);
  }
  return out;
}

export interface EpisodePlan {
  episodeId: string;
  task: string;
  instruction: string;
  start: Pose;
  target: { room: string } | { object: string };
}

export function buildEpisode(house: House, plan: EpisodePlan): Record<string, unknown> {
  const object = goalObject(house, plan.target);
  const points = viewPoints(house, object);
  const start = plan.start.position;
  const yaw = plan.start.heading;
  return {
    episode_id: plan.episodeId,
    scene_id: house.id,
    start_position: to3(start),
    start_rotation: [0, round(Math.sin(yaw / 2), 6), 0, round(Math.cos(yaw / 2), 6)],
    instruction: { task_type: plan.task, instruction_text: plan.instruction, instance_id: [`${house.id}_${object.room}/${object.id}`] },
    object_category: object.category,
    goals: [{ position: to3(object.position), view_points: points.map((p) => ({ agent_state: { position: to3(p) } })), bbox: [to3([object.position[0] - 0.3, object.position[1] - 0.3]), to3([object.position[0] + 0.3, object.position[1] + 0.3])] }],
    dist_to_goal: round(nearestByWalk(house, start, points).length, 4),
    target_room: object.room,
  };
}

export function buildTrajectory(house: House, plan: EpisodePlan, behaviour: Behaviour): Record<string, unknown> {
  const object = goalObject(house, plan.target);
  const points = viewPoints(house, object);
  const start = plan.start.position;
  const direct = nearestByWalk(house, start, points);
  let polyline: P2[] = direct.walk;
  let stop = true;
  const goalRoom = roomById(house, object.room);
  const startRoom = roomAt(house, start)!;
  if (behaviour === "detour") {
    const other = house.rooms.find((r) => r.id !== goalRoom.id && r.id !== startRoom.id)!;
    const first = shortestWalk(house, start, other.center).points;
    polyline = [...first, ...nearestByWalk(house, other.center, points).walk.slice(1)];
  } else if (behaviour === "short") {
    // Walk back from the end of the direct route until 1.5 m (straight line) from every view point.
    const steps = stepAlong(direct.walk);
    let k = steps.length - 1;
    while (k > 0 && Math.min(...points.map((p) => dist(steps[k]!, p))) < 1.5) k--;
    polyline = steps.slice(0, k + 1);
  } else if (behaviour === "wrong-room") {
    const wrong = house.rooms.find((r) => r.category === goalRoom.category && r.id !== goalRoom.id) ?? house.rooms.find((r) => r.id !== goalRoom.id && r.id !== startRoom.id)!;
    polyline = shortestWalk(house, start, wrong.center).points;
  } else if (behaviour === "no-stop") {
    stop = false;
  }
  const positions = stepAlong(polyline).filter((p, i, all) => i === 0 || dist(p, all[i - 1]!) > 1e-9);
  const final = positions[positions.length - 1]!;
  return {
    episode_id: plan.episodeId,
    positions: positions.map(to3),
    stop,
    rooms: positions.map((p) => roomAt(house, p)?.id ?? null),
    final_distance: round(nearestByWalk(house, final, points).length, 4),
  };
}
