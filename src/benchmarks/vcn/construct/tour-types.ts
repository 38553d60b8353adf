/**
 * What a VCN-Bench tour is once built (tour.ts makes it, episodes.ts reads it): the camera pose of
 * every frame and what the frame shows by the paper's rules (App. B.2 camera room, App. B.3 object
 * visibility). World coordinates: metres, z up, yaw counter-clockwise from +x (src/world/types.ts).
 */
import type { Vec3 } from "../../../world/types.js";

/** An object instance seen in a frame under App. B.3 (within 3 m, > 60% unoccluded, >= 50x50 px). */
export interface VisibleObject {
  /** SceneObject.id (the instance buffer's id). */
  instance: number;
  /** SceneObject.name, e.g. "chair_3": the id written to the release. */
  name: string;
  category: string;
  /** Minimum horizontal distance from the camera to the object's surface points, metres. */
  distance: number;
  /** Fraction of the object's in-frame front-surface pixels that pass the 0.1 m depth test. */
  unoccluded: number;
  /** Visible pixels of the object in the frame. */
  pixels: number;
}

export interface TourFrame {
  /** Position in the tour, 0..N-1 (the frame file and the video frame of the same number). */
  index: number;
  /** Camera eye position (world), metres. */
  position: Vec3;
  yaw: number;
  /** Radians, negative = looking down. */
  pitch: number;
  /** Room id the camera stands in (null between rooms, e.g. inside a door's wall thickness). */
  room: string | null;
  objects: VisibleObject[];
  /** Other rooms whose floor is seen in the frame from outside (through a doorway). */
  visibleRooms: string[];
}

/** One visit: a maximal run of consecutive frames with the camera in the same room. */
export interface RoomVisit {
  room: string;
  first: number;
  last: number;
}

export interface TourCamera {
  /** Eye height above the floor, metres (randomised per tour). */
  heightM: number;
  pitchDeg: number;
  vfovDeg: number;
  width: number;
  height: number;
}

export interface TourLighting {
  /** Scale of the ceiling lights' intensity. */
  lightScale: number;
  /** Scale of the ambient term. */
  ambientScale: number;
  /** Colour temperature tint applied to the lights, linear RGB multipliers. */
  tint: [number, number, number];
}

export interface Tour {
  scene: string;
  /** Tour id, unique in the set, e.g. "house_3/tour_0". */
  id: string;
  /** Frames per second of the video. */
  fps: number;
  camera: TourCamera;
  lighting: TourLighting;
  frames: TourFrame[];
  visits: RoomVisit[];
  /** Rooms in the order the route first enters them. */
  roomOrder: string[];
  /** Path of the camera in plan (x, y) through the rooms, metres, as planned before smoothing. */
  route: Array<[number, number]>;
}

/** A tour frame's file in the tour's folder: frames/NNNN.jpg, NNNN its index (at least 4 digits). */
export function tourFrameFile(index: number): string {
  return `frames/${String(index).padStart(4, "0")}.jpg`;
}

/** The inverse of tourFrameFile: the index k whose file is `name` ("frames/0042.jpg" -> 42), else -1. */
export function tourFrameOfFile(name: string): number {
  const match = /^frames\/(\d{4,9})\.jpg$/.exec(name);
  if (!match) return -1;
  const k = Number(match[1]);
  return tourFrameFile(k) === name ? k : -1;
}
