/**
 * Manipulation samples of one view (paper §3.2.3).
 *
 * - Affordance Region: a seat to sit on or a top to put something down on (the up-facing faces of
 *   the model at its drop-on-top height: the catalogue's seat or top elevation), or the handles to
 *   open it (mesh groups named as handles); the reference object is marked.
 * - Contact Relationship: what touches the reference objects. The engine knows contact through the
 *   support relation (a small object stands on a surface, supportId); the prompt leaves out objects
 *   far bigger than the reference, so the targets are the objects standing on it. Type one: one
 *   reference; type three: any of two references. Type two (touching all references at once) is not
 *   generated: with contact known only as one level of support, no object touches two references
 *   that are not far bigger than it.
 * - Placement Region: the visible top of a support; feasible when the object's footprint (both
 *   quarter turns, a 1 cm margin) fits on the part of the top that the objects already on it leave
 *   free, under whatever hangs above it.
 */
import { BitMask } from "../../../geometry/mask.js";
import type { SceneObject } from "../../../world/types.js";
import { EPIC_PARAMS as P } from "./params.js";
import { describable, groupsOf, isSliver, isVisible, namePhrase, objectMask, partMask, type ViewScene } from "./targets.js";
import type { Draft } from "./types.js";
import { PART_RULES } from "./words.js";

const SEATS = new Set(["chair", "armchair", "sofa", "stool", "bench", "ottoman"]);
const SURFACES = new Set(["table", "desk", "coffee table", "nightstand", "dresser", "cabinet", "tv stand"]);
const OPENABLE = new Set(["cabinet", "wardrobe", "dresser", "fridge", "oven", "microwave", "washing machine", "nightstand", "desk", "door"]);

/** The visible top-surface pixels of an object when the camera looks down on it from 0.15 m above, else null. */
function topMask(v: ViewScene, o: SceneObject): BitMask | null {
  const top = v.house.info.get(o.id)?.topZ ?? null;
  if (top === null || v.view.camera.position[2] < top + 0.15 || !v.view.partConsistent.has(o.id)) return null;
  const m = partMask(v.view, o.id, new Set(), true);
  return m.count() >= 2 * P.minPartPx ? m : null;
}

export function affordanceSample(v: ViewScene): Draft | null {
  type Option = { o: SceneObject; task: string; region: BitMask; kind: string; groups: number[] | null };
  const options: Option[] = [];
  const handle = PART_RULES.find((r) => r.part === "handle")!;
  for (const o of describable(v)) {
    const phrase = namePhrase(v, o);
    if (!phrase) continue;
    const entry = v.house.entries.get(o.catalogId)!;
    if (SEATS.has(o.category) && entry.dropOnTopDeclared) {
      const m = topMask(v, o);
      if (m) options.push({ o, task: "sit down", region: m, kind: "seat", groups: null });
    }
    if (SURFACES.has(o.category)) {
      const m = topMask(v, o);
      if (m) options.push({ o, task: "put a plate down on it", region: m, kind: "top", groups: null });
    }
    const groups = groupsOf(v.house, o, handle);
    if (groups.length > 0 && v.view.partConsistent.has(o.id)) {
      const m = partMask(v.view, o.id, new Set(groups), null);
      if (m.count() >= P.minPartPx) options.push({ o, task: OPENABLE.has(o.category) ? "open it" : "pull it by hand", region: m, kind: "handle", groups });
    }
  }
  if (options.length === 0) return null;
  const pick = v.rng.pick(options);
  const phrase = namePhrase(v, pick.o)!;
  return {
    leaf: "AffordanceRegion",
    text: { text_label: [pick.task], task_description_en: pick.task, reference_object_description_en: phrase },
    masks: { masklet_affordance_region: [pick.region], masklet_reference_area: [objectMask(v.view, pick.o.id)] },
    overlayField: "masklet_reference_area",
    provenance: {
      kind: `affordance-${pick.kind}`,
      instances: { masklet_reference_area: [pick.o.id] },
      parts: { masklet_affordance_region: [{ objectId: pick.o.id, groups: pick.groups ?? [], top: pick.groups ? null : true }] },
    },
  };
}

/** Objects standing on a reference, or null when one of them is only a sliver in the picture. */
function contactsOf(v: ViewScene, r: SceneObject): SceneObject[] | null {
  const on = describable(v).filter((o) => o.supportId === r.id);
  if (on.some((o) => isSliver(v, o))) return null;
  return on.filter((o) => isVisible(v, o)).sort((a, b) => a.id - b.id);
}

function contactDraft(v: ViewScene, leaf: string, refs: SceneObject[], targets: SceneObject[], phrases: string[]): Draft {
  return {
    leaf,
    text: { text_label: [phrases.join(", ")], count_contact_target: [targets.length], precise_count: false, count_in_description: false },
    masks: { masklet_contact_target: targets.map((o) => objectMask(v.view, o.id)), masklet_reference_object: refs.map((o) => objectMask(v.view, o.id)) },
    overlayField: "masklet_reference_object",
    provenance: { kind: "contact-support", instances: { masklet_contact_target: targets.map((o) => o.id), masklet_reference_object: refs.map((o) => o.id) } },
  };
}

/** References: nameable visible objects with their contacts; supports with something on them first. */
function references(v: ViewScene): Array<{ o: SceneObject; phrase: string; contacts: SceneObject[] }> {
  const out: Array<{ o: SceneObject; phrase: string; contacts: SceneObject[] }> = [];
  for (const o of describable(v)) {
    if (o.category === "rug" || o.category === "person") continue;
    const phrase = namePhrase(v, o);
    const contacts = phrase ? contactsOf(v, o) : null;
    if (phrase && contacts) out.push({ o, phrase, contacts });
  }
  return out;
}

export function contactOneSample(v: ViewScene): Draft | null {
  const refs = references(v);
  const touched = refs.filter((r) => r.contacts.length > 0);
  const pool = touched.length > 0 && v.rng.chance(0.75) ? touched : refs.filter((r) => SURFACES.has(r.o.category) || r.o.supportId !== null);
  if (pool.length === 0) return null;
  const r = v.rng.pick(pool);
  return contactDraft(v, "ContactRelationship_TypeOne", [r.o], r.contacts, [r.phrase]);
}

export function contactThreeSample(v: ViewScene): Draft | null {
  const refs = references(v).filter((r) => r.contacts.length > 0 || SURFACES.has(r.o.category));
  if (refs.length < 2) return null;
  const [a, b] = v.rng.shuffle(refs).slice(0, 2) as [typeof refs[0], typeof refs[0]];
  if (a.phrase === b.phrase) return null;
  const targets = [...a.contacts, ...b.contacts].sort((x, y) => x.id - y.id);
  return contactDraft(v, "ContactRelationship_TypeThree", [a.o, b.o].sort((x, y) => x.id - y.id), targets, [a.phrase, b.phrase]);
}

/** Whether an object of footprint w x d fits on the free part of a support's top (module comment). */
export function placementFits(scene: { objects: readonly SceneObject[] }, support: SceneObject, topZ: number, item: Pick<SceneObject, "id" | "size">): boolean {
  const cell = P.placementCellM;
  const x0 = support.bbox.min[0], y0 = support.bbox.min[1];
  const nx = Math.floor((support.bbox.max[0] - x0) / cell), ny = Math.floor((support.bbox.max[1] - y0) / cell);
  if (nx <= 0 || ny <= 0) return false;
  const blocked = new Uint8Array(nx * ny);
  const block = (b: SceneObject["bbox"]) => {
    const i0 = Math.max(0, Math.floor((b.min[0] - x0) / cell)), i1 = Math.min(nx - 1, Math.ceil((b.max[0] - x0) / cell) - 1);
    const j0 = Math.max(0, Math.floor((b.min[1] - y0) / cell)), j1 = Math.min(ny - 1, Math.ceil((b.max[1] - y0) / cell) - 1);
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) blocked[j * nx + i] = 1;
  };
  for (const o of scene.objects) {
    if (o.id === support.id || o.id === item.id) continue;
    if (o.supportId === support.id) block(o.bbox);
    else if (o.bbox.min[2] >= topZ - 0.01 && o.bbox.min[2] - topZ < item.size.height) block(o.bbox);
  }
  // Summed-area table of blocked cells.
  const sat = new Int32Array((nx + 1) * (ny + 1));
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) sat[(j + 1) * (nx + 1) + i + 1] = blocked[j * nx + i]! + sat[j * (nx + 1) + i + 1]! + sat[(j + 1) * (nx + 1) + i]! - sat[j * (nx + 1) + i]!;
  const freeRect = (w: number, h: number) => {
    for (let j = 0; j + h <= ny; j++) {
      for (let i = 0; i + w <= nx; i++) {
        const s = sat[(j + h) * (nx + 1) + i + w]! - sat[j * (nx + 1) + i + w]! - sat[(j + h) * (nx + 1) + i]! + sat[j * (nx + 1) + i]!;
        if (s === 0) return true;
      }
    }
    return false;
  };
  const w = Math.ceil((item.size.width + 2 * P.placementMarginM) / cell), d = Math.ceil((item.size.depth + 2 * P.placementMarginM) / cell);
  return freeRect(w, d) || freeRect(d, w);
}

/** Objects a robot could carry to a surface: what stands on surfaces, and light pieces standing on the floor. */
const CARRIED_FROM_FLOOR = new Set(["chair", "stool", "plant", "lamp", "trash can", "box", "toy", "bag", "shoes", "ottoman", "speaker", "vase", "armchair", "tv", "microwave"]);

/**
 * Whether asking to put an object on a surface is a fair question: its footprint is between 5% and
 * 100% of the surface's, so neither answer is plain from the names (an armchair on a nightstand is
 * never feasible, a cup on a table nearly always); what decides is the free part of the top.
 */
export function plausibleOn(item: Pick<SceneObject, "size">, support: Pick<SceneObject, "size">): boolean {
  const area = (o: Pick<SceneObject, "size">) => o.size.width * o.size.depth;
  return area(item) <= area(support) && area(item) >= 0.05 * area(support);
}

export function placementSample(v: ViewScene): Draft | null {
  const supports = describable(v).filter((o) => SURFACES.has(o.category) && namePhrase(v, o) !== null && topMask(v, o) !== null);
  if (supports.length === 0) return null;
  const s = v.rng.pick(supports);
  const topZ = v.house.info.get(s.id)!.topZ!;
  const items = describable(v).filter((o) => o.id !== s.id && o.supportId !== s.id && (o.supportId !== null || CARRIED_FROM_FLOOR.has(o.category)) && namePhrase(v, o) !== null);
  if (items.length === 0) return null;
  const judged = items.filter((o) => plausibleOn(o, s)).map((o) => ({ o, fits: placementFits(v.house.scene, s, topZ, o) }));
  if (judged.length === 0) return null;
  const want = v.rng.chance(0.5);
  const pool = judged.filter((j) => j.fits === want);
  const pick = v.rng.pick(pool.length > 0 ? pool : judged);
  const region = topMask(v, s)!;
  return {
    leaf: "PlacementRegion",
    text: { placement_feasible: [pick.fits], reference_object_description_en: namePhrase(v, pick.o)!, placement_region_description_en: `the top of ${namePhrase(v, s)!}` },
    masks: { masklet_placement_region: [region], masklet_reference_object: [objectMask(v.view, pick.o.id)] },
    overlayField: "masklet_reference_object",
    // Feasibility is balanced per object category and per surface category (balance.ts).
    balanceKeys: [pick.o.category, s.category],
    provenance: { kind: "placement", instances: { masklet_reference_object: [pick.o.id] }, parts: { masklet_placement_region: [{ objectId: s.id, groups: [], top: true }] }, support: s.id, item: pick.o.id },
  };
}
