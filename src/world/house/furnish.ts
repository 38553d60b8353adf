/**
 * Furniture by room type, placed in the manner of ProcTHOR (Deitke et al. 2022, "ProcTHOR:
 * Large-Scale Embodied AI Using Procedural Generation", object placement): large pieces against
 * walls or in the open, related pieces next to their anchor
 * (nightstands beside the bed, a coffee table in front of the sofa, chairs around the table, a
 * chair at the desk), then small objects on the surfaces that accept them.
 *
 * Every piece is a catalogue model at a quarter-turn yaw, its front (the model's -y at yaw 0)
 * facing into the room or towards its anchor. A candidate position is kept only when:
 *   - its footprint (the catalogue box, oriented) lies inside the room polygon;
 *   - it does not overlap a door's clearance zone (DOOR_CLEARANCE_DEPTH_M deep on both sides of
 *     every door, DOOR_CLEARANCE_SIDE_M wider than the opening on each side);
 *   - its 3-D box does not interpenetrate any other object by more than OVERLAP_TOLERANCE_M
 *     (rugs only test against rugs: they lie flat under furniture);
 *   - it keeps out of the space reserved in front of wardrobes, fridges, desks, ... (their
 *     `clearance`), and its own reserved space is inside the room and empty;
 *   - the room's free floor stays connected to its doors for a 0.30 m agent (free-space.ts).
 * Small objects stand on a parent whose catalogue dropOnTopElevation is not null, inside the
 * parent's top footprint, at the parent's bottom plus that elevation (tops up to SURFACE_MAX_M).
 * A room is furnished up to FURNISH_ATTEMPTS times from the same start with fresh random
 * streams; the first attempt that has one of each REQUIRED category (a bed in a bedroom, ...) is
 * kept, else the attempt that has the most of them (then the most pieces).
 */
import type { CatalogEntry, Catalogue, Category } from "../assets/catalog.js";
import type { Rng } from "../../stats/rng.js";
import type { RoomType, Vec2 } from "../types.js";
import {
  boxesOverlap,
  footprintBounds,
  footprintInsideBox,
  footprintInsideFootprint,
  footprintPoint,
  footprintsOverlap,
  quarterFacing,
  quarterYaw,
  type Box2,
  type Footprint,
} from "./footprint.js";
import type { RoomFreeSpace } from "./free-space.js";

export const DOOR_CLEARANCE_DEPTH_M = 1.0;
export const DOOR_CLEARANCE_SIDE_M = 0.1;
export const OVERLAP_TOLERANCE_M = 0.003;
/** Gap between a piece's back and the wall. */
export const WALL_GAP_M = 0.01;
/** Objects whose bottom is below this height block the agent (they stand in its way). */
export const BLOCKING_BELOW_M = 1.4;
/** Highest surface small objects are put on (tops of wardrobes and fridges are not used). */
export const SURFACE_MAX_M = 1.3;
/** Headroom kept under the ceiling. */
const CEILING_GAP_M = 0.02;

/** A placed object, before it becomes a SceneObject (its id is its index + 1). */
export interface Placed {
  entry: CatalogEntry;
  category: Category;
  room: number;
  footprint: Footprint;
  /** Quarter turns of the yaw (0..3). */
  q: number;
  z0: number;
  z1: number;
  supportIndex: number | null;
  inWall: boolean;
  /** Wall side (0 south, 1 east, 2 north, 3 west) and centre along it, for pieces against a wall. */
  side: number | null;
  along: number;
}

export const isRug = (p: Pick<Placed, "category">) => p.category === "rug";
export const isBlocking = (p: Placed) => !isRug(p) && !p.inWall && p.supportIndex === null && p.z0 < BLOCKING_BELOW_M;

// ---------------------------------------------------------------------------------------------
// Model pools

type Pool = (e: CatalogEntry) => boolean;
const maxSide = (e: CatalogEntry) => Math.max(e.sizeM.width, e.sizeM.depth);
const cat = (c: Category, extra: Pool = () => true): Pool => (e) => e.category === c && extra(e);
const src = (e: CatalogEntry) => e.sourceCategory.toLowerCase();
const name = (e: CatalogEntry) => e.name.toLowerCase();
const onFloor = (e: CatalogEntry) => e.elevationM === 0;
const indoor = (e: CatalogEntry) => src(e) !== "exterior";

/** Which catalogue models serve each role. */
export const POOLS = {
  bed: cat("bed", (e) => !/hospital|crib|baby|opened convertible/.test(name(e))),
  nightstand: cat("nightstand"),
  wardrobe: cat("wardrobe"),
  dresser: cat("dresser", (e) => !/changing/.test(name(e))),
  sofa: cat("sofa", indoor),
  coffeeTable: cat("coffee table"),
  armchair: cat("armchair", (e) => indoor(e) && !/ottoman/.test(name(e))),
  tvStand: cat("tv stand"),
  tv: cat("tv", onFloor),
  shelf: cat("shelf", (e) => e.sizeM.width <= 2.6),
  livingCabinet: (e: CatalogEntry) => (e.category === "cabinet" && src(e) === "living room") || e.category === "fireplace" || (e.category === "piano" && /upright/.test(name(e))),
  floorPlant: cat("plant", (e) => indoor(e) && onFloor(e) && (e.sizeM.height >= 0.5 || maxSide(e) >= 0.5) && maxSide(e) <= 1.1),
  smallPlant: cat("plant", (e) => indoor(e) && e.sizeM.height <= 0.45 && maxSide(e) <= 0.45),
  floorLamp: cat("lamp", (e) => onFloor(e) && e.sizeM.height >= 0.75),
  tableLamp: cat("lamp", (e) => onFloor(e) && e.sizeM.height < 0.75 && maxSide(e) <= 0.45),
  livingRug: cat("rug", (e) => src(e) === "living room"),
  bedroomRug: cat("rug", (e) => /round|tatami/.test(name(e))),
  bathMat: cat("rug", (e) => /bath/.test(name(e))),
  fridge: cat("fridge", (e) => !/chest/.test(name(e))),
  kitchenSink: cat("sink", (e) => src(e) === "kitchen"),
  floorStove: cat("stove", (e) => e.sizeM.height >= 0.7),
  cooktop: cat("stove", (e) => e.sizeM.height <= 0.1),
  lowerCabinet: cat("cabinet", (e) => src(e) === "kitchen" && onFloor(e) && e.sizeM.height < 1 && e.sizeM.depth <= 0.7),
  upperCabinet: cat("cabinet", (e) => src(e) === "kitchen" && e.elevationM >= 1.2),
  kitchenTable: cat("table", (e) => onFloor(e) && e.sizeM.width <= 1.45 && e.sizeM.depth <= 1.0 && e.sizeM.height >= 0.7 && e.sizeM.height <= 0.8 && !/children|rattan|cafe/.test(name(e))),
  diningTable: cat("table", (e) => onFloor(e) && e.sizeM.width >= 1.1 && e.sizeM.width <= 2.4 && e.sizeM.depth >= 0.6 && e.sizeM.height >= 0.7 && e.sizeM.height <= 0.8 && !/children|rattan|cafe|bar/.test(name(e))),
  diningChair: cat("chair", (e) => src(e) === "living room" && !/child|baby|folding|ryokan|plastic|class|bar/.test(name(e)) && e.sizeM.width <= 0.65),
  deskChair: cat("chair", (e) => src(e) === "office" || /kids_desk|office/.test(e.id.toLowerCase())),
  desk: cat("desk", (e) => e.sizeM.width <= 1.9 && e.sizeM.depth <= 0.9),
  officeCabinet: cat("cabinet", (e) => src(e) === "office" && e.sizeM.width <= 1.2),
  toilet: cat("toilet"),
  bathtub: cat("bathtub", (e) => !/corner/.test(name(e))),
  shower: cat("shower", (e) => /stall/.test(name(e))),
  bathSink: cat("sink", (e) => src(e) === "bathroom" && e.sizeM.width <= 1.1 && e.sizeM.height <= 2.1),
  bathRadiator: cat("radiator", (e) => src(e) === "bathroom"),
  bench: cat("bench", (e) => src(e) === "living room"),
  hallCabinet: (e: CatalogEntry) => (e.category === "dresser" || (e.category === "cabinet" && src(e) === "living room")) && e.sizeM.depth <= 0.5 && e.sizeM.width <= 1.7,
  trashCan: cat("trash can", (e) => indoor(e) && e.sizeM.height <= 0.8),
  book: cat("book"),
  clock: cat("clock", onFloor),
  phone: cat("phone"),
  cup: cat("cup"),
  glass: cat("glass"),
  bowl: cat("bowl"),
  plate: cat("plate"),
  vase: cat("vase", (e) => e.sizeM.height <= 0.45),
  bottle: cat("bottle", (e) => src(e) === "kitchen"),
  bathBottle: cat("bottle", (e) => src(e) === "bathroom"),
  kettle: cat("kettle"),
  coffeeMachine: cat("coffee machine"),
  toaster: cat("toaster"),
  microwave: cat("microwave"),
  laptop: cat("laptop"),
  monitor: cat("monitor"),
  speaker: cat("speaker"),
  candle: cat("candle", (e) => e.sizeM.height <= 0.2),
  picture: cat("picture"),
} satisfies Record<string, Pool>;
export type PoolName = keyof typeof POOLS;

// ---------------------------------------------------------------------------------------------
// Recipes

type PlaceRule =
  | { kind: "wall"; prefer?: "centre" | "corner" | "adjacent"; adjacentTo?: string }
  | { kind: "beside"; anchor: string }
  | { kind: "front"; anchor: string; gap: [number, number]; facing: "same" | "toward" }
  | { kind: "flank"; anchor: string }
  | { kind: "around"; anchor: string }
  | { kind: "opposite"; anchor: string }
  | { kind: "above"; anchor: string }
  | { kind: "under"; anchor: string }
  | { kind: "centre" }
  | { kind: "on"; parents: string[] };

interface Step {
  pools: PoolName[];
  count: [number, number];
  chance?: number;
  place: PlaceRule;
  /** Placed when the anchor of `place` is missing. */
  fallback?: PlaceRule;
  /** Tags this piece is known by (anchors and parents of later steps). */
  tags?: string[];
  /** Every instance uses the first model that fits (matching chairs); default false: a model per instance. */
  sameModel?: boolean;
  /** Space kept free in front of the piece, metres. */
  clearance?: number;
  /** Skip the step when a piece with this tag is already in the room. */
  unlessTag?: string;
  /** Only in rooms of at least this floor area, m2. */
  minArea?: number;
  /**
   * Dense furnishing's count (default count[1]): rooms as full as real ones, where several pieces of
   * one kind share a view (plants, lamps, chairs, armchairs, shelves).
   */
  denseCount?: number;
  /** For "on": one try per parent (each parent gets at most count[1]). */
  perParent?: boolean;
  /** Wall pieces: prefer positions with this much usable wall on both sides (a bed's nightstands). */
  flankSpace?: number;
}

const SMALL_ON_TABLE: PoolName[] = ["vase", "bowl", "book", "cup", "smallPlant", "candle"];

export const RECIPES: Record<RoomType, Step[]> = {
  bedroom: [
    { pools: ["bed"], count: [1, 1], place: { kind: "wall", prefer: "centre" }, tags: ["bed"], clearance: 0.4, flankSpace: 0.5 },
    { pools: ["nightstand"], count: [1, 2], chance: 0.85, place: { kind: "beside", anchor: "bed" }, tags: ["nightstand"], sameModel: true },
    { pools: ["wardrobe", "dresser"], count: [1, 1], place: { kind: "wall", prefer: "corner" }, tags: ["storage"], clearance: 0.6 },
    { pools: ["dresser"], count: [1, 1], chance: 0.35, place: { kind: "wall" }, tags: ["storage"], clearance: 0.5 },
    { pools: ["floorPlant"], count: [1, 1], chance: 0.5, place: { kind: "wall", prefer: "corner" }, denseCount: 2 },
    { pools: ["armchair"], count: [1, 1], chance: 0.3, place: { kind: "wall", prefer: "corner" }, denseCount: 2 },
    { pools: ["desk"], count: [1, 1], chance: 0.25, minArea: 12, place: { kind: "wall" }, tags: ["desk"], clearance: 0.8 },
    { pools: ["deskChair"], count: [1, 1], place: { kind: "front", anchor: "desk", gap: [0.02, 0.12], facing: "toward" } },
    { pools: ["bedroomRug"], count: [1, 1], chance: 0.35, place: { kind: "centre" } },
    { pools: ["tableLamp"], count: [1, 1], chance: 0.8, place: { kind: "on", parents: ["nightstand"] }, perParent: true },
    { pools: ["book", "clock", "phone", "cup", "glass", "smallPlant"], count: [0, 2], place: { kind: "on", parents: ["nightstand"] } },
    { pools: ["vase", "clock", "book", "picture", "smallPlant", "tableLamp"], count: [0, 2], place: { kind: "on", parents: ["storage"] } },
    { pools: ["laptop", "tableLamp", "book"], count: [1, 2], place: { kind: "on", parents: ["desk"] } },
  ],
  "living room": [
    { pools: ["sofa"], count: [1, 1], place: { kind: "wall", prefer: "centre" }, tags: ["sofa"] },
    { pools: ["coffeeTable"], count: [1, 1], chance: 0.9, place: { kind: "front", anchor: "sofa", gap: [0.35, 0.5], facing: "same" }, tags: ["coffee"] },
    { pools: ["livingRug"], count: [1, 1], chance: 0.55, place: { kind: "under", anchor: "coffee" } },
    { pools: ["armchair"], count: [1, 2], chance: 0.8, place: { kind: "flank", anchor: "coffee" }, fallback: { kind: "wall", prefer: "corner" }, tags: ["armchair"], denseCount: 3 },
    { pools: ["tvStand"], count: [1, 1], chance: 0.85, place: { kind: "opposite", anchor: "sofa" }, tags: ["tvstand"] },
    { pools: ["tv"], count: [1, 1], place: { kind: "on", parents: ["tvstand"] } },
    { pools: ["shelf"], count: [1, 1], chance: 0.7, place: { kind: "wall" }, tags: ["shelf"], clearance: 0.4, denseCount: 2 },
    { pools: ["diningTable", "kitchenTable"], count: [1, 1], chance: 0.6, minArea: 20, place: { kind: "centre" }, tags: ["table"] },
    { pools: ["diningChair"], count: [2, 4], place: { kind: "around", anchor: "table" }, sameModel: true },
    { pools: ["floorPlant"], count: [1, 3], place: { kind: "wall", prefer: "corner" }, sameModel: false },
    { pools: ["floorLamp"], count: [1, 1], chance: 0.5, place: { kind: "wall", prefer: "corner" }, denseCount: 2 },
    { pools: ["livingCabinet", "dresser"], count: [1, 1], chance: 0.35, place: { kind: "wall" }, tags: ["cabinet"], clearance: 0.4 },
    { pools: SMALL_ON_TABLE, count: [1, 3], place: { kind: "on", parents: ["coffee"] } },
    { pools: ["book", "vase", "smallPlant", "picture", "clock"], count: [0, 2], place: { kind: "on", parents: ["shelf", "cabinet"] } },
    { pools: ["speaker", "smallPlant", "vase"], count: [0, 1], place: { kind: "on", parents: ["tvstand"] } },
    { pools: ["bowl", "vase", "plate", "bottle"], count: [0, 2], place: { kind: "on", parents: ["table"] } },
  ],
  kitchen: [
    { pools: ["fridge"], count: [1, 1], place: { kind: "wall", prefer: "corner" }, tags: ["unit"], clearance: 0.6 },
    { pools: ["kitchenSink"], count: [1, 1], place: { kind: "wall", prefer: "adjacent", adjacentTo: "unit" }, tags: ["unit", "sink"], clearance: 0.6 },
    { pools: ["floorStove"], count: [1, 1], chance: 0.45, place: { kind: "wall", prefer: "adjacent", adjacentTo: "unit" }, tags: ["unit", "stove"], clearance: 0.6 },
    { pools: ["lowerCabinet"], count: [2, 4], place: { kind: "wall", prefer: "adjacent", adjacentTo: "unit" }, tags: ["unit", "counter"], clearance: 0.6, sameModel: true },
    { pools: ["cooktop"], count: [1, 1], unlessTag: "stove", place: { kind: "on", parents: ["counter"] }, tags: ["stove"] },
    { pools: ["upperCabinet"], count: [1, 3], chance: 0.6, place: { kind: "above", anchor: "counter" }, sameModel: true },
    { pools: ["kitchenTable"], count: [1, 1], minArea: 9, chance: 0.8, place: { kind: "centre" }, fallback: { kind: "wall" }, tags: ["table"] },
    { pools: ["diningChair"], count: [2, 4], place: { kind: "around", anchor: "table" }, sameModel: true },
    { pools: ["kettle", "coffeeMachine", "toaster", "microwave", "bowl", "bottle"], count: [2, 4], place: { kind: "on", parents: ["counter"] } },
    { pools: ["bowl", "vase", "cup", "bottle"], count: [0, 2], place: { kind: "on", parents: ["table"] } },
    { pools: ["trashCan"], count: [1, 1], chance: 0.4, place: { kind: "wall", prefer: "corner" } },
    { pools: ["floorPlant"], count: [1, 1], chance: 0.25, place: { kind: "wall", prefer: "corner" }, denseCount: 2 },
  ],
  "dining room": [
    { pools: ["diningTable"], count: [1, 1], place: { kind: "centre" }, tags: ["table"] },
    { pools: ["diningChair"], count: [4, 6], place: { kind: "around", anchor: "table" }, sameModel: true },
    { pools: ["livingCabinet", "dresser"], count: [1, 1], chance: 0.8, place: { kind: "wall" }, tags: ["sideboard"], clearance: 0.5 },
    { pools: ["shelf"], count: [1, 1], chance: 0.35, place: { kind: "wall" }, tags: ["shelf"], clearance: 0.4 },
    { pools: ["floorPlant"], count: [1, 2], place: { kind: "wall", prefer: "corner" }, sameModel: false, denseCount: 3 },
    { pools: ["livingRug"], count: [1, 1], chance: 0.3, place: { kind: "under", anchor: "table" } },
    { pools: ["plate", "bowl", "vase", "bottle", "glass", "smallPlant"], count: [1, 3], place: { kind: "on", parents: ["table"] } },
    { pools: ["vase", "tableLamp", "clock", "book", "smallPlant"], count: [0, 2], place: { kind: "on", parents: ["sideboard", "shelf"] } },
  ],
  bathroom: [
    { pools: ["bathtub"], count: [1, 1], chance: 0.65, place: { kind: "wall", prefer: "corner" }, tags: ["tub"], clearance: 0.4 },
    { pools: ["shower"], count: [1, 1], unlessTag: "tub", place: { kind: "wall", prefer: "corner" }, tags: ["tub"], clearance: 0.4 },
    { pools: ["toilet"], count: [1, 1], place: { kind: "wall", prefer: "corner" }, clearance: 0.4 },
    { pools: ["bathSink"], count: [1, 1], place: { kind: "wall" }, tags: ["sink"], clearance: 0.4 },
    { pools: ["bathMat"], count: [1, 1], chance: 0.5, place: { kind: "front", anchor: "tub", gap: [0.02, 0.05], facing: "same" } },
    { pools: ["bathRadiator"], count: [1, 1], chance: 0.35, place: { kind: "wall" } },
    { pools: ["bathBottle"], count: [0, 2], place: { kind: "on", parents: ["sink"] } },
    { pools: ["trashCan"], count: [1, 1], chance: 0.3, place: { kind: "wall", prefer: "corner" } },
  ],
  office: [
    { pools: ["desk"], count: [1, 1], place: { kind: "wall" }, tags: ["desk"], clearance: 0.8 },
    { pools: ["deskChair"], count: [1, 1], place: { kind: "front", anchor: "desk", gap: [0.02, 0.12], facing: "toward" } },
    { pools: ["shelf"], count: [1, 1], chance: 0.9, place: { kind: "wall" }, tags: ["shelf"], clearance: 0.4 },
    { pools: ["officeCabinet"], count: [1, 1], chance: 0.5, place: { kind: "wall", prefer: "corner" }, tags: ["cabinet"], clearance: 0.4 },
    { pools: ["floorPlant"], count: [1, 1], chance: 0.6, place: { kind: "wall", prefer: "corner" }, denseCount: 2 },
    { pools: ["armchair"], count: [1, 1], chance: 0.3, place: { kind: "wall", prefer: "corner" }, denseCount: 2 },
    { pools: ["laptop", "monitor"], count: [1, 1], place: { kind: "on", parents: ["desk"] } },
    { pools: ["tableLamp"], count: [1, 1], chance: 0.7, place: { kind: "on", parents: ["desk"] } },
    { pools: ["book", "cup", "phone"], count: [0, 2], place: { kind: "on", parents: ["desk"] } },
    { pools: ["book", "vase", "smallPlant", "clock"], count: [0, 2], place: { kind: "on", parents: ["shelf", "cabinet"] } },
    { pools: ["trashCan"], count: [1, 1], chance: 0.4, place: { kind: "wall", prefer: "corner" } },
  ],
  hallway: [
    { pools: ["bench"], count: [1, 1], chance: 0.5, place: { kind: "wall" } },
    { pools: ["hallCabinet"], count: [1, 1], chance: 0.35, place: { kind: "wall" }, tags: ["cabinet"] },
    { pools: ["floorPlant"], count: [1, 1], chance: 0.5, place: { kind: "wall", prefer: "corner" }, denseCount: 2 },
    { pools: ["vase", "tableLamp", "smallPlant"], count: [0, 1], place: { kind: "on", parents: ["cabinet"] } },
  ],
};

// ---------------------------------------------------------------------------------------------
// Placement

interface Side {
  /** 0 south, 1 east, 2 north, 3 west. */
  index: number;
  /** Quarter turn of a piece whose back is on this wall (its front faces into the room). */
  q: number;
  lo: number;
  hi: number;
}

/** The four walls of a rectangular room, each with the yaw that faces into the room. */
function roomSides(r: Box2): Side[] {
  return [
    { index: 0, q: 2, lo: r.minX, hi: r.maxX },
    { index: 1, q: 3, lo: r.minY, hi: r.maxY },
    { index: 2, q: 0, lo: r.minX, hi: r.maxX },
    { index: 3, q: 1, lo: r.minY, hi: r.maxY },
  ];
}

/** Centre of a piece of depth d with its back on side s at `along`. */
function wallCentre(r: Box2, s: Side, along: number, depth: number): Vec2 {
  const inset = WALL_GAP_M + depth / 2;
  switch (s.index) {
    case 0: return [along, r.minY + inset];
    case 1: return [r.maxX - inset, along];
    case 2: return [along, r.maxY - inset];
    default: return [r.minX + inset, along];
  }
}

const round2 = (v: number) => Math.round(v * 100) / 100;

function makeFootprint(e: CatalogEntry, c: Vec2, q: number): Footprint {
  return { cx: c[0], cy: c[1], hx: e.sizeM.width / 2, hy: e.sizeM.depth / 2, yaw: quarterYaw(q) };
}

/** The space reserved in front of a footprint, `depth` deep, as wide as the piece. */
function frontZone(f: Footprint, depth: number): Footprint {
  const [x, y] = footprintPoint(f, 0, -(f.hy + depth / 2));
  return { cx: x, cy: y, hx: f.hx, hy: depth / 2, yaw: f.yaw };
}

interface Candidate {
  centre: Vec2;
  q: number;
  z0?: number;
  side?: number | null;
  along?: number;
  /** Index of a placed piece whose reserved zone this candidate may use (its anchor). */
  anchor?: number;
}

export interface RoomContext {
  rng: Rng;
  roomIndex: number;
  type: RoomType;
  /** The room polygon's rectangle (inner wall faces). */
  rect: Box2;
  ceilingHeight: number;
  doorZones: Box2[];
  freeSpace: RoomFreeSpace;
  catalogue: Catalogue;
  /** Every object of the house so far (windows and doors included); the room's pieces are appended. */
  placed: Placed[];
  /** Dense furnishing: every step that has a chance is tried, and every count takes its dense count (default its upper bound). */
  dense?: boolean;
}

interface Zone {
  owner: number;
  footprint: Footprint;
}

/** Categories a room of each type should not lack (one of each inner list). */
export const REQUIRED: Record<RoomType, Category[][]> = {
  bedroom: [["bed"]],
  "living room": [["sofa"]],
  kitchen: [["fridge"], ["sink"], ["stove"]],
  "dining room": [["table"], ["chair"]],
  bathroom: [["toilet"], ["sink"], ["bathtub", "shower"]],
  office: [["desk"], ["chair"]],
  hallway: [],
};

/** Furnishing attempts per room: the first that has every REQUIRED category wins, else the one with most. */
export const FURNISH_ATTEMPTS = 4;

/**
 * Furnishes one room by its recipe and appends its pieces to `placed`. Each attempt starts from
 * the same house state with its own random stream (`rngFor(attempt)`) and free-space grid.
 */
export function furnishRoom(ctx: Omit<RoomContext, "rng" | "freeSpace"> & { rngFor: (attempt: number) => Rng; freeSpaceFor: () => RoomFreeSpace }): void {
  let best: { added: Placed[]; score: number } | null = null;
  const required = REQUIRED[ctx.type];
  for (let attempt = 0; attempt < FURNISH_ATTEMPTS; attempt++) {
    const scratch = ctx.placed.slice();
    const placer = new RoomPlacer({ ...ctx, rng: ctx.rngFor(attempt), freeSpace: ctx.freeSpaceFor(), placed: scratch });
    for (const step of RECIPES[ctx.type]) placer.run(step);
    const added = scratch.slice(ctx.placed.length);
    const met = required.filter((any) => added.some((p) => any.includes(p.category))).length;
    const score = met * 1000 + added.length;
    if (!best || score > best.score) best = { added, score };
    if (met === required.length) break;
  }
  ctx.placed.push(...best!.added);
}

const poolCache = new WeakMap<Catalogue, Map<PoolName, CatalogEntry[]>>();

/** The catalogue entries of a pool (furniture only: categorised, not doors or windows), cached per catalogue. */
export function poolEntries(catalogue: Catalogue, name: PoolName): CatalogEntry[] {
  let pools = poolCache.get(catalogue);
  if (!pools) poolCache.set(catalogue, (pools = new Map()));
  let list = pools.get(name);
  if (!list) {
    const test: Pool = POOLS[name];
    list = catalogue.entries.filter((e) => e.category !== null && !e.doorOrWindow && test(e));
    pools.set(name, list);
  }
  return list;
}

class RoomPlacer {
  private readonly tags = new Map<string, number[]>();
  private readonly zones: Zone[] = [];
  private readonly area: number;

  constructor(private readonly ctx: RoomContext) {
    const r = ctx.rect;
    this.area = (r.maxX - r.minX) * (r.maxY - r.minY);
  }

  private pool(name: PoolName): CatalogEntry[] {
    return poolEntries(this.ctx.catalogue, name);
  }

  private tagged(tag: string): number[] {
    return this.tags.get(tag) ?? [];
  }

  run(step: Step): void {
    const { rng } = this.ctx;
    if (step.minArea !== undefined && this.area < step.minArea) return;
    if (step.unlessTag && this.tagged(step.unlessTag).length > 0) return;
    const dense = this.ctx.dense ?? false;
    if (step.chance !== undefined && !dense && !rng.chance(step.chance)) return;
    const count = (): number => (dense ? step.denseCount ?? step.count[1] : rng.int(step.count[0], step.count[1]));
    if (step.place.kind === "on" && step.perParent) {
      for (const parent of step.place.parents.flatMap((t) => this.tagged(t))) {
        const n = count();
        for (let k = 0; k < n; k++) this.placeOne(step, null, [parent]);
      }
      return;
    }
    if ("anchor" in step.place && this.tagged(step.place.anchor).length === 0 && !step.fallback) return;
    const n = count();
    let model: CatalogEntry | null = null;
    const same = step.sameModel ?? false;
    for (let k = 0; k < n; k++) {
      const placed = this.placeOne(step, same ? model : null, null);
      if (placed && same) model = placed;
      if (!placed && same && model) break;
    }
  }

  /** Places one instance (trying up to three models); returns the model used, or null. */
  private placeOne(step: Step, model: CatalogEntry | null, parents: number[] | null): CatalogEntry | null {
    const { rng } = this.ctx;
    const models: CatalogEntry[] = [];
    if (model) models.push(model);
    else {
      const pools = rng.shuffle(step.pools).filter((p) => this.pool(p).length > 0);
      for (const p of pools) {
        for (const e of rng.shuffle(this.pool(p)).slice(0, 3)) if (!models.includes(e)) models.push(e);
        if (models.length >= 3) break;
      }
    }
    // The step's rule (when its anchor exists), then its fallback.
    const rules: PlaceRule[] = [];
    if (!("anchor" in step.place) || this.tagged(step.place.anchor).length > 0) rules.push(step.place);
    if (step.fallback) rules.push(step.fallback);
    for (const entry of models.slice(0, 3)) {
      let index: number | null = null;
      for (const rule of rules) {
        index = rule.kind === "on" ? this.placeOn(entry, parents ?? rule.parents.flatMap((t) => this.tagged(t))) : this.placeFloor(entry, rule, step.clearance ?? 0, step.flankSpace ?? 0);
        if (index !== null) break;
      }
      if (index === null) continue;
      for (const t of step.tags ?? []) {
        const list = this.tags.get(t) ?? [];
        list.push(index);
        this.tags.set(t, list);
      }
      return entry;
    }
    return null;
  }

  // -- floor pieces --------------------------------------------------------------------------

  private placeFloor(entry: CatalogEntry, rule: Exclude<PlaceRule, { kind: "on" }>, clearance: number, flankSpace: number): number | null {
    let candidates = this.candidates(entry, rule);
    if (flankSpace > 0) {
      // Stable sort: candidates with usable wall on both sides first, then on one side.
      const flanks = candidates.map((c) => this.freeFlanks(entry, c, flankSpace));
      candidates = candidates.map((c, i) => ({ c, i })).sort((p, q) => flanks[q.i]! - flanks[p.i]! || p.i - q.i).map((x) => x.c);
    }
    for (const c of candidates) {
      const f = makeFootprint(entry, c.centre, c.q);
      const z0 = c.z0 ?? entry.elevationM;
      if (this.acceptsFloor(entry, f, z0, clearance, c.anchor ?? -1)) {
        return this.commit({
          entry,
          category: entry.category!,
          room: this.ctx.roomIndex,
          footprint: f,
          q: c.q,
          z0,
          z1: z0 + entry.sizeM.height,
          supportIndex: null,
          inWall: false,
          side: c.side ?? null,
          along: c.along ?? 0,
        }, clearance);
      }
    }
    return null;
  }

  /** How many sides (0-2) of a wall candidate have `space` metres of wall inside the room and out of door zones. */
  private freeFlanks(entry: CatalogEntry, c: Candidate, space: number): number {
    if (c.side === null || c.side === undefined || c.along === undefined) return 0;
    const s = roomSides(this.ctx.rect)[c.side]!;
    let n = 0;
    for (const sign of [-1, 1]) {
      const along = c.along + sign * (entry.sizeM.width / 2 + space / 2 + 0.03);
      if (along - space / 2 < s.lo || along + space / 2 > s.hi) continue;
      const [x, y] = wallCentre(this.ctx.rect, s, along, space);
      const f = makeFootprint({ ...entry, sizeM: { width: space, depth: space, height: 0 } } as CatalogEntry, [x, y], s.q);
      const b = footprintBounds(f);
      if (!this.ctx.doorZones.some((z) => boxesOverlap(b, z, 1e-6))) n++;
    }
    return n;
  }

  private commit(p: Placed, clearance: number): number {
    const index = this.ctx.placed.length;
    this.ctx.placed.push(p);
    if (isBlocking(p)) this.ctx.freeSpace.add(p.footprint);
    if (clearance > 0) this.zones.push({ owner: index, footprint: frontZone(p.footprint, clearance) });
    return index;
  }

  private acceptsFloor(entry: CatalogEntry, f: Footprint, z0: number, clearance: number, anchor: number): boolean {
    const { rect, doorZones, placed, ceilingHeight } = this.ctx;
    const rug = entry.category === "rug";
    const z1 = z0 + entry.sizeM.height;
    if (z1 > ceilingHeight - CEILING_GAP_M) return false;
    if (!footprintInsideBox(f, rect, 1e-6)) return false;
    const bounds = footprintBounds(f);
    if (doorZones.some((z) => boxesOverlap(bounds, z, 1e-6))) return false;
    if (!rug && this.zones.some((z) => z.owner !== anchor && footprintsOverlap(f, z.footprint, OVERLAP_TOLERANCE_M))) return false;
    for (const other of placed) {
      if (isRug(other) !== rug) continue;
      if (Math.min(z1, other.z1) - Math.max(z0, other.z0) <= 1e-3) continue;
      if (footprintsOverlap(f, other.footprint, OVERLAP_TOLERANCE_M)) return false;
    }
    if (clearance > 0) {
      const zone = frontZone(f, clearance);
      if (!footprintInsideBox(zone, rect, 0.01)) return false;
      for (const other of placed) if (isBlocking(other) && footprintsOverlap(zone, other.footprint, OVERLAP_TOLERANCE_M)) return false;
    }
    const blocking = !rug && z0 < BLOCKING_BELOW_M;
    return !blocking || this.ctx.freeSpace.staysConnected(f);
  }

  private candidates(entry: CatalogEntry, rule: Exclude<PlaceRule, { kind: "on" }>): Candidate[] {
    switch (rule.kind) {
      case "wall": return this.wallCandidates(entry, rule.prefer, rule.adjacentTo ? this.tagged(rule.adjacentTo) : []);
      case "beside": return this.besideCandidates(entry, this.tagged(rule.anchor)[0]!);
      case "front": return this.frontCandidates(entry, this.tagged(rule.anchor)[0]!, rule.gap, rule.facing);
      case "flank": return this.flankCandidates(entry, this.tagged(rule.anchor)[0]!);
      case "around": return this.aroundCandidates(entry, this.tagged(rule.anchor)[0]!);
      case "opposite": return this.oppositeCandidates(entry, this.tagged(rule.anchor)[0]!);
      case "above": return this.aboveCandidates(entry, this.tagged(rule.anchor));
      case "under": return this.underCandidates(entry, this.tagged(rule.anchor)[0]!);
      case "centre": return this.centreCandidates(entry);
    }
  }

  /** Positions along each wall: preferred ones first (centre, corners, next to tagged pieces), then random ones. */
  private wallCandidates(entry: CatalogEntry, prefer: "centre" | "corner" | "adjacent" | undefined, adjacent: number[], onlySide?: number): Candidate[] {
    const { rng, rect, placed } = this.ctx;
    const w = entry.sizeM.width;
    const out: Candidate[] = [];
    const sides = rng.shuffle(roomSides(rect)).filter((s) => onlySide === undefined || s.index === onlySide);
    // Long pieces try the walls they fit along with room to spare first.
    sides.sort((a, b) => Number(b.hi - b.lo >= w + 1) - Number(a.hi - a.lo >= w + 1));
    const preferred: Candidate[] = [];
    const random: Candidate[] = [];
    for (const s of sides) {
      const lo = s.lo + w / 2;
      const hi = s.hi - w / 2;
      if (hi < lo) continue;
      const at = (along: number): Candidate => ({ centre: wallCentre(rect, s, along, entry.sizeM.depth), q: s.q, side: s.index, along });
      if (prefer === "centre") {
        const mid = (s.lo + s.hi) / 2;
        for (const shift of [0, -0.3, 0.3, -0.6, 0.6]) preferred.push(at(round2(Math.min(hi, Math.max(lo, mid + shift)))));
      }
      if (prefer === "corner") preferred.push(at(lo), at(hi));
      if (prefer === "adjacent") {
        for (const i of adjacent) {
          const p = placed[i]!;
          if (p.side !== s.index) continue;
          const reach = p.entry.sizeM.width / 2 + w / 2 + 0.002;
          preferred.push(at(p.along - reach), at(p.along + reach));
        }
      }
      for (let k = 0; k < 5; k++) random.push(at(round2(rng.float(lo, hi))));
      if (prefer !== "corner") random.push(at(lo), at(hi));
    }
    out.push(...preferred, ...rng.shuffle(random));
    return out;
  }

  private besideCandidates(entry: CatalogEntry, anchor: number): Candidate[] {
    const a = this.ctx.placed[anchor]!;
    if (a.side === null) return [];
    const s = roomSides(this.ctx.rect)[a.side]!;
    const out: Candidate[] = [];
    for (const gap of [0.03, 0.08]) {
      const reach = a.entry.sizeM.width / 2 + gap + entry.sizeM.width / 2;
      for (const along of this.ctx.rng.shuffle([a.along - reach, a.along + reach]))
        out.push({ centre: wallCentre(this.ctx.rect, s, along, entry.sizeM.depth), q: s.q, side: s.index, along });
    }
    return out;
  }

  private frontCandidates(entry: CatalogEntry, anchor: number, gap: [number, number], facing: "same" | "toward"): Candidate[] {
    const a = this.ctx.placed[anchor]!;
    const q = facing === "same" ? a.q : (a.q + 2) % 4;
    const out: Candidate[] = [];
    for (const g of [round2(this.ctx.rng.float(gap[0], gap[1])), gap[0], gap[1]]) {
      const centre = footprintPoint(a.footprint, 0, -(a.footprint.hy + g + entry.sizeM.depth / 2));
      out.push({ centre, q, anchor });
    }
    return out;
  }

  /** Beside the anchor's two ends facing it, or across from its front facing back. */
  private flankCandidates(entry: CatalogEntry, anchor: number): Candidate[] {
    const a = this.ctx.placed[anchor]!;
    const f = a.footprint;
    const gap = round2(this.ctx.rng.float(0.25, 0.45));
    const d = entry.sizeM.depth / 2;
    const options: Candidate[] = [];
    for (const sign of [-1, 1]) {
      const c = footprintPoint(f, sign * (f.hx + gap + d), 0);
      options.push({ centre: c, q: quarterFacing([f.cx - c[0], f.cy - c[1]]) });
    }
    const across = footprintPoint(f, 0, -(f.hy + gap + d));
    options.push({ centre: across, q: quarterFacing([f.cx - across[0], f.cy - across[1]]) });
    return this.ctx.rng.shuffle(options.slice(0, 2)).concat(options[2]!);
  }

  /** Chair places along the table's long sides (evenly spaced) and at its ends, each facing the table. */
  private aroundCandidates(entry: CatalogEntry, anchor: number): Candidate[] {
    const a = this.ctx.placed[anchor]!;
    const f = a.footprint;
    const gap = 0.03;
    const d = entry.sizeM.depth / 2;
    const perSide = Math.max(1, Math.min(3, Math.floor((2 * f.hx) / (entry.sizeM.width + 0.15))));
    const long: Candidate[] = [];
    for (let i = 0; i < perSide; i++) {
      const u = -f.hx + ((i + 0.5) * 2 * f.hx) / perSide;
      for (const sign of [-1, 1]) {
        const c = footprintPoint(f, u, sign * (f.hy + gap + d));
        long.push({ centre: c, q: quarterFacing([f.cx - c[0], f.cy - c[1]]) });
      }
    }
    const ends: Candidate[] = [];
    for (const sign of [-1, 1]) {
      const c = footprintPoint(f, sign * (f.hx + gap + d), 0);
      ends.push({ centre: c, q: quarterFacing([f.cx - c[0], f.cy - c[1]]) });
    }
    return [...long, ...ends];
  }

  /** Against the wall the anchor faces, aligned with it first. */
  private oppositeCandidates(entry: CatalogEntry, anchor: number): Candidate[] {
    const a = this.ctx.placed[anchor]!;
    if (a.side === null) return this.wallCandidates(entry, undefined, []);
    const facingSide = (a.side + 2) % 4;
    const s = roomSides(this.ctx.rect)[facingSide]!;
    const lo = s.lo + entry.sizeM.width / 2;
    const hi = s.hi - entry.sizeM.width / 2;
    const out: Candidate[] = [];
    if (hi >= lo) {
      const along = Math.min(Math.max(a.along, lo), hi);
      out.push({ centre: wallCentre(this.ctx.rect, s, along, entry.sizeM.depth), q: s.q, side: s.index, along });
    }
    return [...out, ...this.wallCandidates(entry, undefined, [], facingSide), ...this.wallCandidates(entry, undefined, [])];
  }

  /** Wall cabinets over base units, at the catalogue elevation, aligned with a unit or its neighbours. */
  private aboveCandidates(entry: CatalogEntry, anchors: number[]): Candidate[] {
    const out: Candidate[] = [];
    const sides = roomSides(this.ctx.rect);
    for (const i of this.ctx.rng.shuffle(anchors)) {
      const a = this.ctx.placed[i]!;
      if (a.side === null) continue;
      const s = sides[a.side]!;
      const half = (a.entry.sizeM.width - entry.sizeM.width) / 2;
      for (const along of [a.along, a.along - half, a.along + half])
        out.push({ centre: wallCentre(this.ctx.rect, s, along, entry.sizeM.depth), q: s.q, side: s.index, along, z0: entry.elevationM });
    }
    return out;
  }

  private underCandidates(entry: CatalogEntry, anchor: number): Candidate[] {
    const a = this.ctx.placed[anchor]!;
    return [{ centre: [a.footprint.cx, a.footprint.cy], q: a.q }, { centre: [a.footprint.cx, a.footprint.cy], q: (a.q + 1) % 4 }];
  }

  /** The room centre first, then random points; the piece's long side along the room's long side. */
  private centreCandidates(entry: CatalogEntry): Candidate[] {
    const { rng, rect } = this.ctx;
    const wide = rect.maxX - rect.minX >= rect.maxY - rect.minY;
    const long = entry.sizeM.width >= entry.sizeM.depth;
    const q = wide === long ? 0 : 1;
    const cx = round2((rect.minX + rect.maxX) / 2);
    const cy = round2((rect.minY + rect.maxY) / 2);
    const out: Candidate[] = [{ centre: [cx, cy], q }];
    for (let k = 0; k < 8; k++) {
      const jx = rng.float(-0.25, 0.25) * (rect.maxX - rect.minX);
      const jy = rng.float(-0.25, 0.25) * (rect.maxY - rect.minY);
      out.push({ centre: [round2(cx + jx), round2(cy + jy)], q });
    }
    return out;
  }

  // -- small objects on surfaces ----------------------------------------------------------------

  /** A spot on one of the parents' tops: inside its footprint, not touching other objects. */
  private placeOn(entry: CatalogEntry, parents: number[]): number | null {
    const { rng, placed, ceilingHeight } = this.ctx;
    const directional = entry.category === "tv" || entry.category === "laptop" || entry.category === "monitor";
    for (const pi of rng.shuffle(parents)) {
      const parent = placed[pi]!;
      const drop = parent.entry.dropOnTopElevationM;
      if (drop === null) continue;
      const pf = parent.footprint;
      const z0 = parent.z0 + drop;
      const z1 = z0 + entry.sizeM.height;
      if (z0 > SURFACE_MAX_M || z1 > ceilingHeight - CEILING_GAP_M) continue;
      for (let k = 0; k < 10; k++) {
        const q = directional ? parent.q : (parent.q + rng.int(0, 3)) % 4;
        const turned = (q - parent.q + 4) % 2 === 1;
        const halfU = (turned ? entry.sizeM.depth : entry.sizeM.width) / 2;
        const halfV = (turned ? entry.sizeM.width : entry.sizeM.depth) / 2;
        const slackU = pf.hx - halfU - 0.01;
        const slackV = pf.hy - halfV - 0.01;
        if (slackU < 0 || slackV < 0) break;
        // Directional things stand centred, then towards the back; others anywhere on the top.
        const u = directional && k === 0 ? 0 : round2(rng.float(-slackU, slackU));
        const v = directional ? (k === 0 ? 0 : round2(rng.float(0, slackV))) : round2(rng.float(-slackV, slackV));
        const centre = footprintPoint(pf, u, v);
        const f = makeFootprint(entry, centre, q);
        if (!footprintInsideFootprint(f, pf, 1e-6)) continue;
        let clash = false;
        for (let oi = 0; oi < placed.length && !clash; oi++) {
          const other = placed[oi]!;
          if (oi === pi || isRug(other)) continue;
          if (Math.min(z1, other.z1) - Math.max(z0, other.z0) <= 1e-3) continue;
          clash = footprintsOverlap(f, other.footprint, OVERLAP_TOLERANCE_M);
        }
        if (clash) continue;
        return this.commit({
          entry,
          category: entry.category!,
          room: this.ctx.roomIndex,
          footprint: f,
          q,
          z0,
          z1,
          supportIndex: pi,
          inWall: false,
          side: null,
          along: 0,
        }, 0);
      }
    }
    return null;
  }
}

/**
 * The room types whose recipe can hold a category (any step's pools, on the floor or on a
 * parent), from the catalogue's entries: where a person would expect to find such a thing.
 */
export function roomTypesByCategory(catalogue: Catalogue): Map<string, Set<RoomType>> {
  const out = new Map<string, Set<RoomType>>();
  for (const [room, steps] of Object.entries(RECIPES) as Array<[RoomType, Step[]]>) {
    for (const step of steps) {
      for (const pool of step.pools) {
        for (const e of poolEntries(catalogue, pool)) {
          const set = out.get(e.category!) ?? new Set<RoomType>();
          set.add(room);
          out.set(e.category!, set);
        }
      }
    }
  }
  return out;
}
