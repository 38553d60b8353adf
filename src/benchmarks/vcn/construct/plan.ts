/**
 * An episode plan: what an instruction rule (App. B.4) decided from one prior video, before a
 * start is placed and the goals are laid out. Room and object ids are the scene's.
 */
import type { Relation } from "../relations.js";
import type { TaskCode } from "../schema.js";
import { VCN_PARAMS as P } from "./params.js";
import type { RoomCategories, WindowFacts } from "./facts.js";
import type { PriorWindow } from "./windows.js";

export interface PlanQuery {
  relation: Relation;
  candidates: string[];
  anchor?: string;
}

export interface EpisodePlan {
  task: TaskCode;
  /** Rule variant, e.g. "order-types", "count-entries". */
  subclass: string;
  /** The de-duplication tag (App. B.1, Fig. 8): type, target and the facts the instruction decides by. */
  tag: string;
  window: PriorWindow;
  /** Rooms the start may stand in (each visited in the window). */
  initialRooms: string[];
  /** The start frame, when the rule decided by it (Distance). */
  startFrame?: number;
  /** Distance: the geodesic distance from that start to each candidate room's centre (recorded in the item's meta.room_distances). */
  roomDistances?: Array<[string, number]>;
  targetRoom: string;
  /** Instance only: the target object's name. */
  targetObject?: string;
  /** Instruction text before "Locate the ...", with {relation} when `relation` is set. */
  body: string;
  query?: PlanQuery;
  /** Orientation: the instruction begins with the start's facing ("Now facing north."). */
  statesFacing?: boolean;
}

/** App. B.2: rooms of the ambiguous types (params.ts excludedRoomTypes) are never the initial or the target room of an R2O instruction. */
export const usableRoom = (house: RoomCategories, room: string): boolean => !P.excludedRoomTypes.includes(house.rooms.get(room)!.category);

/** Rooms of a category among the rooms a window visits, in first-entry order. */
export function roomsOfCategory(house: RoomCategories, w: WindowFacts, category: string): string[] {
  return w.rooms.filter((r) => house.rooms.get(r)!.category === category);
}

/** Categories of the rooms a window visits (usable types only), sorted. */
export function usableCategories(house: RoomCategories, w: WindowFacts): string[] {
  return [...new Set(w.rooms.filter((r) => usableRoom(house, r)).map((r) => house.rooms.get(r)!.category))].sort();
}

export const ORDINAL_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth"] as const;
