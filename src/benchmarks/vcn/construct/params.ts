/**
 * Construction parameters of VCN-Bench episodes (paper §3.3, App. B, App. C), in one place.
 */
import { ROBOT_MOTION } from "../../../sim/motion.js";
import { ROBOT } from "../../../sim/robot.js";

export const VCN_PARAMS = Object.freeze({
  /** Hello Robot Stretch (App. C.2): height 1.41 m, base radius 0.17 m, the simulator's robot; navigability and geodesics use this radius. */
  robotRadiusM: ROBOT.radiusM,
  robotHeightM: ROBOT.heightM,
  /** Plan grid of the agent, metres per cell. */
  gridCellM: ROBOT.gridCellM,
  /**
   * Houses for VCN: 32-38 rooms along a corridor, each type's area range (world/house program.ts)
   * times 1.4, as large a floor as a big Matterport3D one (the paper's tours cover a floor each,
   * §3.3), so categories repeat (design principle iii: distractor rooms) and shortest paths reach
   * the paper's length (§3.4: 122.1 steps on average; seed 28, 250 episodes: 107.8; 7-10 rooms
   * gave 41, 24-30 rooms of the catalogue's sizes 77-84).
   */
  houseRooms: [32, 38] as readonly [number, number],
  roomAreaScale: 1.4,
  /** A house is kept when at least this many rooms share a category with another room (hallway aside). */
  minRepeatedRooms: 4,
  /** Seeds tried per house before giving up. */
  houseAttempts: 12,
  /** App. B.1: window lengths step by 10 frames; the shortest prior video considered. */
  windowStepFrames: 10,
  minWindowFrames: 30,
  /**
   * App. B.2: region types never used as initial or target room of an R2O instruction (ambiguous
   * boundaries): hallway, other room, balcony, entryway/foyer/lobby, porch/terrace/deck, outdoor,
   * as MP3D spells them and word by word. Generated houses have only the hallway among them.
   */
  excludedRoomTypes: ["hallway", "other room", "balcony", "entryway/foyer/lobby", "entryway", "foyer", "lobby", "porch/terrace/deck", "porch", "terrace", "deck", "outdoor"] as readonly string[],
  /** App. B.4 Distance: the target beats every other candidate by at least this much geodesic distance. */
  distanceMarginM: 5,
  /** App. B.4 Orientation: the candidate band below the extreme extent. */
  orientationBandM: 5,
  /** §3.3: episodes whose start is closer than this (geodesic) to the goal are dropped. */
  minGoalDistanceM: 3,
  /** App. C.1: view points every 0.1 m within 0.6 m around the goal's box, in the goal's room. */
  viewPointStepM: 0.1,
  viewPointRangeM: 0.6,
  /** Instance descriptions: the anchor object lies within this plan distance of the target ... */
  instanceAnchorMaxM: 2.0,
  /** ... and the target is nearer to it than every other candidate by at least this much. */
  instanceAnchorMarginM: 0.5,
  /** Start candidates: every this many tour frames (a Dijkstra each). */
  startStrideFrames: 5,
  /** Start positions tried per episode; the farthest from the goal is kept (episode.ts). */
  startTries: 12,
  /** Navigation actions (§3.1): FORWARD 0.25 m, turns of 30 degrees (the simulator's). */
  forwardStepM: ROBOT_MOTION.forwardM,
  turnStepDeg: ROBOT_MOTION.turnDeg,
  /**
   * Tours of generated sets: a frame a second of a person walking at 1.4 m/s (a usual walking
   * speed) who turns round on the spot at 180 degrees a second, so prior videos through these floors
   * come near the paper's 157.9 frames (§3.4; seed 28, 250 episodes: 150.1). At 0.8 m/s and 90
   * degrees a second (0.8 m a walking frame, 21% of the frames turns on the spot), floors large
   * enough for the paper's steps gave prior videos 1.2-1.4x the paper's.
   */
  tourFps: 1,
  tourSpeedMps: 1.4,
  tourSpotTurnDegPerS: 180,
  /** Default houses: one per this many episodes wanted (the paper draws 60 per tour: 1,250 from 21). */
  episodesPerHouse: 10,
  /** Initial views and tour frames: 384 x 384 (App. C.3), the simulator's views. */
  imageSide: ROBOT.imageSide,
  /** JPEG quality of the initial views. */
  viewJpegQuality: 90,
});
