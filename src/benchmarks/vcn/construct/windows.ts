/**
 * Prior videos cut from a tour (App. B.1): sliding windows whose length steps by 10 frames and
 * whose first frame lies in a different region than the frame before it, and what a window shows
 * (the room visits and the objects annotated visible in its frames).
 */
import type { RoomVisit, TourFrame } from "./tour-types.js";

/** Visits: maximal runs of one room over the frames, frames with no room (in a doorway) skipped, so A, null, A is one visit. */
export function roomVisits(rooms: readonly (string | null)[]): RoomVisit[] {
  const visits: RoomVisit[] = [];
  rooms.forEach((room, k) => {
    if (room === null) return;
    const last = visits[visits.length - 1];
    if (last && last.room === room) last.last = k;
    else visits.push({ room, first: k, last: k });
  });
  return visits;
}

/** Rooms in the order of their first visit. */
export function firstEntryOrder(visits: readonly RoomVisit[]): string[] {
  const out: string[] = [];
  for (const v of visits) if (!out.includes(v.room)) out.push(v.room);
  return out;
}

/** A prior video: tour frames first..last, both included. */
export interface PriorWindow {
  first: number;
  last: number;
}

export const windowLength = (w: PriorWindow): number => w.last - w.first + 1;

/**
 * Frames a window may start at (App. B.1): frame 0, and every frame whose camera room is set and
 * differs from the previous frame's (a new region begins there).
 */
export function windowStarts(frames: readonly Pick<TourFrame, "room">[]): number[] {
  const out: number[] = [];
  frames.forEach((f, k) => {
    if (k === 0 || (f.room !== null && f.room !== frames[k - 1]!.room)) out.push(k);
  });
  return out;
}

/** Every window: each start, lengths minFrames, minFrames + step, ... that fit in the tour; by start, then length. */
export function priorWindows(frames: readonly Pick<TourFrame, "room">[], minFrames: number, step: number): PriorWindow[] {
  if (!(minFrames >= 1 && step >= 1)) throw new RangeError(`window lengths need minFrames >= 1 and step >= 1 (got ${minFrames}, ${step})`);
  const out: PriorWindow[] = [];
  for (const first of windowStarts(frames)) {
    for (let length = minFrames; first + length <= frames.length; length += step) out.push({ first, last: first + length - 1 });
  }
  return out;
}

/**
 * The room visits inside a window: maximal runs of frames in one room. Frames with no room (the
 * camera inside a wall's thickness at a door) neither end nor start a visit.
 */
export function windowVisits(frames: readonly Pick<TourFrame, "room">[], w: PriorWindow): RoomVisit[] {
  const rooms = frames.slice(w.first, w.last + 1).map((f) => f.room);
  return roomVisits(rooms).map((v) => ({ room: v.room, first: v.first + w.first, last: v.last + w.first }));
}

/** Rooms of the visits, in the order they are first entered. */
export const roomsInOrder = firstEntryOrder;

/** Positions (in `visits`) of the visits to one room. */
export function visitPositions(visits: readonly RoomVisit[], room: string): number[] {
  const out: number[] = [];
  visits.forEach((v, k) => {
    if (v.room === room) out.push(k);
  });
  return out;
}

/** Names of the objects annotated visible in a window's frames, each with the frames that show it. */
export function seenObjects(frames: readonly Pick<TourFrame, "objects">[], w: PriorWindow): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (let k = w.first; k <= w.last; k++) {
    for (const o of frames[k]!.objects) {
      const list = out.get(o.name);
      if (list) list.push(k);
      else out.set(o.name, [k]);
    }
  }
  return out;
}
