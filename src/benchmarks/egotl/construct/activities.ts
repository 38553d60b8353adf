/**
 * Scripted household activities over a house's real objects (the paper's §3: an abstract task,
 * the episode-level chain of thought announced at the start, then one step per navigation or
 * manipulation). An activity is a list of sub-goals; the episode builder turns each into clips.
 * Objects are named by phrases that pick out exactly one object of the house.
 */
import type { Rng } from "../../../stats/rng.js";
import { SWITCHABLE_CATEGORIES } from "../../../world/render/switched-on.js";
import type { Scene, SceneObject } from "../../../world/types.js";

/** Things a hand carries. */
export const PORTABLE = new Set(["cup", "glass", "bowl", "plate", "book", "bottle", "vase", "candle", "phone", "toy", "box", "laptop", "clock"]);
/** Surfaces an object is put on (their top at most 1.2 m above the floor). */
export const SURFACES = new Set(["table", "coffee table", "desk", "nightstand", "dresser", "cabinet", "tv stand", "shelf"]);
/** Things switched on (a lamp lights the room, a screen or appliance glows). */
export const SWITCHABLE = SWITCHABLE_CATEGORIES;
/** Things sat on. */
export const SEATS = new Set(["sofa", "armchair", "chair", "bed", "bench", "stool"]);
export const MAX_SURFACE_M = 1.2;

export type SubGoal =
  | { kind: "stand"; seat: SceneObject }
  | { kind: "goto"; target: SceneObject; carrying: SceneObject | null }
  | { kind: "pick"; object: SceneObject; from: SceneObject | null }
  | { kind: "put"; object: SceneObject; onto: SceneObject }
  | { kind: "switch"; object: SceneObject }
  | { kind: "sit"; seat: SceneObject };

export interface Activity {
  template: string;
  abstract: string;
  subgoals: SubGoal[];
  /** A chained task's activities, each with the index of its first sub-goal in `subgoals`. */
  parts?: Array<{ activity: Activity; first: number }>;
}

/** The plain name of an object's category, as a person says it. */
export function baseName(o: SceneObject, scene: Scene): string {
  const room = scene.rooms.find((r) => r.id === o.room)?.type;
  if (o.category === "cabinet" && room === "kitchen") return "kitchen counter";
  if (o.category === "table" && (room === "dining room" || room === "kitchen")) return "dining table";
  if (o.category === "tv") return "TV";
  if (o.category === "tv stand") return "TV stand";
  return o.category;
}

export function roomName(scene: Scene, roomId: string): string {
  return scene.rooms.find((r) => r.id === roomId)?.type ?? "room";
}

/**
 * A phrase (without "the") that names one object only: the plain name when unique in the house,
 * else with its room ("lamp in the bedroom"), its colour ("white lamp") or its support ("lamp on
 * the nightstand"); null when none of these singles it out.
 */
export function objectPhrases(scene: Scene): Map<number, string> {
  const out = new Map<number, string>();
  const byBase = new Map<string, SceneObject[]>();
  for (const o of scene.objects) {
    if (o.inWall) continue;
    const b = baseName(o, scene);
    byBase.set(b, [...(byBase.get(b) ?? []), o]);
  }
  const unique = <T>(items: SceneObject[], key: (o: SceneObject) => T, o: SceneObject) => items.filter((x) => key(x) === key(o)).length === 1;
  for (const [b, group] of [...byBase].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))) {
    for (const o of group) {
      if (group.length === 1) out.set(o.id, b);
      else if (unique(group, (x) => roomName(scene, x.room), o) && !scene.rooms.some((r) => r.id !== o.room && r.type === roomName(scene, o.room))) out.set(o.id, `${b} in the ${roomName(scene, o.room)}`);
      else if (unique(group, (x) => x.color.name, o)) out.set(o.id, `${o.color.name} ${b}`);
      else {
        const support = o.supportId === null ? null : scene.objects.find((x) => x.id === o.supportId);
        if (support && unique(group, (x) => x.supportId, o) && (byBase.get(baseName(support, scene))?.length ?? 0) === 1) out.set(o.id, `${b} on the ${baseName(support, scene)}`);
      }
    }
  }
  return out;
}

/** Height of an object's top surface (where things stand on it). */
export function surfaceHeight(scene: Scene, o: SceneObject): number {
  const on = scene.objects.filter((x) => x.supportId === o.id);
  return on.length > 0 ? Math.min(...on.map((x) => x.position[2])) : o.bbox.max[2];
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Every activity the house allows, by template, in a fixed order. */
export function houseActivities(scene: Scene, names: ReadonlyMap<number, string>): Activity[] {
  const named = (o: SceneObject | null | undefined): o is SceneObject => !!o && names.has(o.id);
  const n = (o: SceneObject) => names.get(o.id)!;
  const byId = new Map(scene.objects.map((o) => [o.id, o]));
  const objects = scene.objects.filter((o) => !o.inWall && named(o));
  const portable = objects.filter((o) => PORTABLE.has(o.category) && o.supportId !== null && named(byId.get(o.supportId)));
  const surfaces = objects.filter((o) => SURFACES.has(o.category) && o.supportId === null && surfaceHeight(scene, o) <= MAX_SURFACE_M);
  const switchable = objects.filter((o) => SWITCHABLE.has(o.category));
  const seats = objects.filter((o) => SEATS.has(o.category) && o.supportId === null);
  const out: Activity[] = [];
  const fetch = (s: SceneObject): SubGoal[] => [{ kind: "goto", target: byId.get(s.supportId!)!, carrying: null }, { kind: "pick", object: s, from: byId.get(s.supportId!)! }];
  const bring = (s: SceneObject, b: SceneObject): SubGoal[] => [{ kind: "goto", target: b, carrying: s }, { kind: "put", object: s, onto: b }];
  for (const s of portable) {
    for (const b of surfaces) {
      if (b.id === s.supportId || b.room === s.room) continue;
      if (scene.objects.some((x) => x.supportId === b.id && x.category === s.category)) continue;
      const abstract = s.category === "book" && b.category === "shelf" ? `Put the ${n(s)} back on the ${n(b)}` : `Put the ${n(s)} on the ${n(b)}`;
      out.push({ template: "tidy", abstract, subgoals: [...fetch(s), ...bring(s, b)] });
      const from = byId.get(s.supportId!)!;
      if (["table", "coffee table", "desk"].includes(from.category) && b.category === "cabinet" && roomName(scene, b.room) === "kitchen") {
        out.push({ template: "clear", abstract: `Clear the ${n(s)} off the ${n(from)} into the kitchen`, subgoals: [...fetch(s), ...bring(s, b)] });
      }
    }
  }
  for (const k of switchable.filter((o) => o.category === "kettle" && o.supportId !== null && named(byId.get(o.supportId)))) {
    const counter = byId.get(k.supportId!)!;
    for (const cup of portable.filter((o) => (o.category === "cup" || o.category === "glass") && o.room !== k.room)) {
      out.push({ template: "tea", abstract: "Make a cup of tea", subgoals: [...fetch(cup), ...bring(cup, counter), { kind: "goto", target: k, carrying: null }, { kind: "switch", object: k }] });
    }
  }
  for (const tv of switchable.filter((o) => o.category === "tv")) {
    for (const seat of seats.filter((o) => o.room === tv.room && (o.category === "sofa" || o.category === "armchair"))) {
      out.push({ template: "tv", abstract: `Watch TV on the ${n(seat)}`, subgoals: [{ kind: "goto", target: tv, carrying: null }, { kind: "switch", object: tv }, { kind: "goto", target: seat, carrying: null }, { kind: "sit", seat }] });
    }
  }
  for (const book of portable.filter((o) => o.category === "book")) {
    for (const seat of seats.filter((o) => o.room !== book.room && ["sofa", "armchair", "bed"].includes(o.category))) {
      out.push({ template: "read", abstract: `Read the ${n(book)} on the ${n(seat)}`, subgoals: [...fetch(book), { kind: "goto", target: seat, carrying: book }, { kind: "sit", seat }] });
    }
  }
  for (const lamp of switchable.filter((o) => o.category === "lamp")) {
    for (const seat of seats.filter((o) => o.room === lamp.room)) {
      out.push({ template: "lamp", abstract: `Switch on the ${n(lamp)} and sit down on the ${n(seat)}`, subgoals: [{ kind: "goto", target: lamp, carrying: null }, { kind: "switch", object: lamp }, { kind: "goto", target: seat, carrying: null }, { kind: "sit", seat }] });
    }
  }
  for (const screen of switchable.filter((o) => o.category === "monitor" || o.category === "coffee machine")) {
    out.push({ template: "switch", abstract: capital(`switch on the ${n(screen)}`), subgoals: [{ kind: "goto", target: screen, carrying: null }, { kind: "switch", object: screen }] });
  }
  return out;
}

/** Up to `count` activities, one template after another (round robin over a seeded template order), no object reused as the main one. */
export function chooseActivities(all: readonly Activity[], count: number, rng: Rng): Activity[] {
  const templates = rng.shuffle([...new Set(all.map((a) => a.template))].sort());
  const pools = new Map(templates.map((t) => [t, rng.shuffle(all.filter((a) => a.template === t))]));
  const out: Activity[] = [];
  const usedAbstract = new Set<string>();
  for (let round = 0; out.length < count && round < 50; round++) {
    for (const t of templates) {
      if (out.length >= count) break;
      const pool = pools.get(t)!;
      const k = pool.findIndex((a) => !usedAbstract.has(a.abstract));
      if (k < 0) continue;
      const [a] = pool.splice(k, 1);
      usedAbstract.add(a!.abstract);
      out.push(a!);
    }
  }
  return out;
}

/** The object a sub-goal walks to, moves, switches or sits on. */
export function subgoalObject(g: SubGoal): SceneObject {
  return g.kind === "goto" ? g.target : g.kind === "sit" || g.kind === "stand" ? g.seat : g.object;
}

/** The objects of an activity's sub-goals (subgoalObject), by id. */
export function activityObjects(a: Activity): Set<number> {
  return new Set(a.subgoals.map((g) => subgoalObject(g).id));
}

/**
 * One episode's task made of several activities done one after another: the paper's episodes last
 * 2-4 minutes and hold several sub-tasks (§3), where one activity of ours takes under a minute.
 * The sub-goals follow in order, with a stand-up between a seated end and the next walk; the
 * abstract task names the parts in order ("Put the cup on the desk, then watch TV on the sofa").
 */
export function chainActivities(parts: readonly Activity[]): Activity {
  const subgoals: SubGoal[] = [];
  const placed: Array<{ activity: Activity; first: number }> = [];
  for (const part of parts) {
    const last = subgoals[subgoals.length - 1];
    if (last?.kind === "sit") subgoals.push({ kind: "stand", seat: last.seat });
    placed.push({ activity: part, first: subgoals.length });
    subgoals.push(...part.subgoals);
  }
  const abstract = parts.map((p, k) => (k === 0 ? p.abstract : p.abstract.charAt(0).toLowerCase() + p.abstract.slice(1))).join(", then ");
  return { template: parts.map((p) => p.template).join("+"), abstract, subgoals, parts: placed };
}

/**
 * Up to `count` episode tasks of `length` activities each (chooseActivities' order; two where the
 * house's activities allow no more), the activities of one task touching no object in common (what
 * one moves, another does not use).
 */
export function chooseEpisodeTasks(all: readonly Activity[], count: number, length: number, rng: Rng): Activity[] {
  const pool = chooseActivities(all, count * length * 2, rng);
  const out: Activity[] = [];
  while (out.length < count && pool.length >= length) {
    const chain = [pool.shift()!];
    const used = activityObjects(chain[0]!);
    for (let k = 0; k < pool.length && chain.length < length; ) {
      const objects = activityObjects(pool[k]!);
      if ([...objects].some((id) => used.has(id))) {
        k++;
        continue;
      }
      for (const id of objects) used.add(id);
      chain.push(pool.splice(k, 1)[0]!);
    }
    if (chain.length >= Math.min(length, 2)) out.push(chain.length === 1 ? chain[0]! : chainActivities(chain));
  }
  return out;
}

/** The sub-goal as one step of the plan, as the next-action and action options read. */
export function stepText(g: SubGoal, names: ReadonlyMap<number, string>): string {
  const n = (o: SceneObject) => names.get(o.id)!;
  switch (g.kind) {
    case "stand": return `Stand up from the ${n(g.seat)}`;
    case "goto": return g.carrying ? `Carry the ${n(g.carrying)} to the ${n(g.target)}` : `Walk to the ${n(g.target)}`;
    case "pick": return `Pick up the ${n(g.object)}`;
    case "put": return `Put the ${n(g.object)} on the ${n(g.onto)}`;
    case "switch": return `Switch on the ${n(g.object)}`;
    case "sit": return `Sit down on the ${n(g.seat)}`;
  }
}

/**
 * How a plan says where things are: each walk's room (the object's own room unless `roomOf` says
 * otherwise, as an altered plan does), said on every walk (`everyWalk`) or only on walks into
 * another room.
 */
export interface PlanRooms {
  roomOf?: (o: SceneObject) => string;
  everyWalk?: boolean;
}

/** The sub-goal inside the chain of thought (the think-aloud plan, first person). */
function planPhrase(g: SubGoal, scene: Scene, names: ReadonlyMap<number, string>, roomBefore: string, rooms: PlanRooms): { text: string; room: string } {
  const n = (o: SceneObject) => names.get(o.id)!;
  const roomOf = (o: SceneObject) => rooms.roomOf?.(o) ?? roomName(scene, o.room);
  const inRoom = (o: SceneObject) => ((!rooms.everyWalk && roomOf(o) === roomBefore) || n(o).includes(" in the ") ? "" : ` in the ${roomOf(o)}`);
  switch (g.kind) {
    case "stand": return { text: `get up from the ${n(g.seat)}`, room: roomBefore };
    case "goto": return { text: `${g.carrying ? `carry the ${n(g.carrying)}` : "walk"} to the ${n(g.target)}${inRoom(g.target)}`, room: roomOf(g.target) };
    case "pick": return { text: `pick up the ${n(g.object)}`, room: roomBefore };
    case "put": return { text: `put the ${n(g.object)} on the ${n(g.onto)}`, room: roomBefore };
    case "switch": return { text: `switch on the ${n(g.object)}`, room: roomBefore };
    case "sit": return { text: `sit down on the ${n(g.seat)}`, room: roomBefore };
  }
}

/** The episode-level chain of thought: task, where I am, the ordered plan. */
export function chainOfThought(abstract: string, subgoals: readonly SubGoal[], scene: Scene, names: ReadonlyMap<number, string>, startRoom: string, rooms: PlanRooms = {}): string {
  let room = roomName(scene, startRoom);
  const phrases: string[] = [];
  for (const g of subgoals) {
    const p = planPhrase(g, scene, names, room, rooms);
    phrases.push(p.text);
    room = p.room;
  }
  const plan = phrases.length === 1 ? phrases[0]! : `first ${phrases.slice(0, -1).join(", then ")}, and finally ${phrases[phrases.length - 1]}`;
  return `My task is to ${abstract.charAt(0).toLowerCase()}${abstract.slice(1)}. I am in the ${roomName(scene, startRoom)}. I will ${plan}.`;
}
