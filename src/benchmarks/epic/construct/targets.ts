/**
 * Target Localization samples of one view (paper §3.2.1): a description, every object of the
 * view that matches it (zero, one or several), one instance mask each from the instance buffer.
 *
 * A description is written only when the view decides it: every object it could apply to is
 * either clearly visible (at least minVisiblePx pixels) or not in the picture at all (a sliver
 * would make the answer ambiguous), and superlatives win by a margin. Attribute descriptions
 * (colour, material, orientation) need a distractor of the same category that differs (§3.3: "multiple
 * objects sharing similar attributes"); zero-target descriptions name an attribute or category
 * the view does not show.
 */
import { BitMask } from "../../../geometry/mask.js";
import type { Rng } from "../../../stats/rng.js";
import { cameraBasis } from "../../../world/camera.js";
import { frontDirection } from "../../../world/house/footprint.js";
import type { SceneObject } from "../../../world/types.js";
import { instanceMask } from "../../../world/visibility.js";
import { INTENT_FAMILIES } from "../../egopath/construct/identity.js";
import { decodePartInstanceId, type EpicHouse } from "./house.js";
import { EPIC_PARAMS as P } from "./params.js";
import type { Draft } from "./types.js";
import { pixelsOf, type EpicView } from "./view.js";
import type { Outline, OutlineShape } from "./outline.js";
import { materialAdjective, plural, singular, type PartRule } from "./words.js";

export interface ViewScene {
  house: EpicHouse;
  view: EpicView;
  rng: Rng;
}

const visible = (v: ViewScene, o: SceneObject) => pixelsOf(v.view, o.id) >= P.minVisiblePx;
const sliver = (v: ViewScene, o: SceneObject) => {
  const n = pixelsOf(v.view, o.id);
  return n > 0 && n < P.minVisiblePx;
};

/** Objects that can be described (not doors and windows set in walls). */
function describable(v: ViewScene): SceneObject[] {
  return v.house.scene.objects.filter((o) => !o.inWall);
}

function ofCategory(v: ViewScene, category: string): SceneObject[] {
  return describable(v).filter((o) => o.category === category);
}

/** Categories with at least `min` clearly visible objects and no sliver, sorted. */
function clearCategories(v: ViewScene, min: number, filter: (o: SceneObject) => boolean = () => true): string[] {
  const cats = [...new Set(describable(v).filter((o) => filter(o) && visible(v, o)).map((o) => o.category))].sort();
  return cats.filter((c) => {
    const all = ofCategory(v, c);
    return !all.some((o) => sliver(v, o)) && all.filter((o) => visible(v, o)).length >= min;
  });
}

export function objectMask(view: EpicView, id: number): BitMask {
  const { width, height, instance } = view.buffers;
  return instanceMask(instance, width, height, id);
}

/** A TL draft for the matching objects (their visible ones are the targets); `facts` go into the provenance for the checks. */
function tlDraft(v: ViewScene, leaf: string, description: string, matching: SceneObject[], precise: boolean, kind: string, balanceKeys: string[], facts: Record<string, unknown> = {}): Draft | null {
  if (matching.some((o) => sliver(v, o))) return null;
  const targets = matching.filter((o) => visible(v, o)).sort((a, b) => a.id - b.id);
  return {
    leaf,
    text: {
      text_label: [description],
      target_object_description_en: description,
      count_target_instance: [targets.length],
      precise_count: precise,
      count_in_description: false,
    },
    masks: { masklet_target: targets.map((o) => objectMask(v.view, o.id)) },
    provenance: { kind, instances: { masklet_target: targets.map((o) => o.id) }, ...facts },
    balanceKeys,
  };
}

/** Category: all the objects of one category; now and then a category of the house the view does not show. */
export function categorySample(v: ViewScene): Draft | null {
  const shown = clearCategories(v, 1);
  if (v.rng.chance(0.15)) {
    const absent = [...new Set(describable(v).map((o) => o.category))].sort().filter((c) => ofCategory(v, c).every((o) => pixelsOf(v.view, o.id) === 0));
    if (absent.length > 0) {
      const c = v.rng.pick(absent);
      return tlDraft(v, "Category", `all the ${plural(c)}`, ofCategory(v, c), false, "category-absent", [c]);
    }
  }
  if (shown.length === 0) return null;
  const several = shown.filter((c) => ofCategory(v, c).filter((o) => visible(v, o)).length >= 2);
  const c = v.rng.pick(several.length > 0 && v.rng.chance(0.7) ? several : shown);
  return tlDraft(v, "Category", `all the ${plural(c)}`, ofCategory(v, c), false, "category", [c]);
}

/**
 * An attribute description: the objects of a category with one value of the attribute. Every
 * visible object of the category has a value; the value named is one of theirs when they differ
 * (§3.3: distractors sharing the category), or (15%, or when they do not differ) one that none
 * in view has, from `absent` (zero targets).
 */
function attributeSample(v: ViewScene, leaf: string, attribute: (o: SceneObject) => string | null, absent: (c: string, shown: ReadonlySet<string>) => string[], phrase: (value: string, c: string) => string): Draft | null {
  const options: Array<{ c: string; value: string; zero: boolean }> = [];
  for (const c of clearCategories(v, 1)) {
    const values = ofCategory(v, c).filter((o) => visible(v, o)).map(attribute);
    if (!values.every((x) => x !== null)) continue;
    const shown = new Set(values as string[]);
    if (shown.size >= 2) for (const value of [...shown].sort()) options.push({ c, value, zero: false });
    for (const value of absent(c, shown)) options.push({ c, value, zero: true });
  }
  if (options.length === 0) return null;
  const zero = options.filter((o) => o.zero), some = options.filter((o) => !o.zero);
  const pick = v.rng.pick(zero.length > 0 && (some.length === 0 || v.rng.chance(0.15)) ? zero : some);
  const matching = ofCategory(v, pick.c).filter((o) => attribute(o) === pick.value);
  return tlDraft(v, leaf, phrase(pick.value, pick.c), matching, false, pick.zero ? `${leaf.toLowerCase()}-absent` : leaf.toLowerCase(), [pick.value, pick.c]);
}

/** An object's colour word as the view shows it (view.ts visibleColors), or null. */
export const viewColor = (v: Pick<ViewScene, "view">, o: SceneObject): string | null => v.view.colors.get(o.id) ?? null;

export function colorSample(v: ViewScene): Draft | null {
  // An absent colour: one the category's objects have (their model's colour) and none in view shows,
  // so that the words of no-target descriptions are as common as the others (a rare word told "none").
  const absent = (c: string, shown: ReadonlySet<string>) =>
    [...new Set(ofCategory(v, c).map((o) => o.color.name))].sort().filter((w) => !shown.has(w) && ofCategory(v, c).every((o) => pixelsOf(v.view, o.id) === 0 || viewColor(v, o) !== w));
  return attributeSample(v, "Color", (o) => viewColor(v, o), absent, (value, c) => `the ${value} ${plural(c)}`);
}

export function materialSample(v: ViewScene): Draft | null {
  const material = (o: SceneObject) => v.house.info.get(o.id)?.material ?? null;
  // An absent material: one another object of the category in the house is made of (a "leather cup" would be easy to reject).
  const absent = (c: string, shown: ReadonlySet<string>) => [...new Set(ofCategory(v, c).map(material).filter((m): m is string => m !== null && !shown.has(m)))].sort();
  return attributeSample(v, "Material", material, absent, (value, c) => `the ${materialAdjective(value)} ${plural(c)}`);
}

/**
 * ObjectState (§3.2.1 "target state differentiation"): the lamps, TVs or monitors of a view that
 * are switched on, or those switched off (renderEpicView draws the state). Every object of the
 * category in view must be clear and show its state: P.minStatePx pixels whose brightness the
 * switch changes (a TV seen from behind shows none). Both states are asked of a category in view,
 * so a single lamp still needs looking (on: one target, off: none); a state no object in view is
 * in gives a sample with no target (capped at assembly, balance.ts).
 */
export function stateSample(v: ViewScene): Draft | null {
  const stateOf = (o: SceneObject): string => (v.view.on.has(o.id) ? "on" : "off");
  const shows = (o: SceneObject) => (v.view.statePx.get(o.id) ?? 0) >= P.minStatePx;
  const options = clearCategories(v, 1, (o) => P.stateCategories.includes(o.category)).flatMap((c) => {
    const inView = ofCategory(v, c).filter((o) => visible(v, o));
    if (!inView.every(shows)) return [];
    const shown = new Set(inView.map(stateOf));
    return ["off", "on"].map((value) => ({ c, value, zero: !shown.has(value) }));
  });
  if (options.length === 0) return null;
  const pick = v.rng.pick(options);
  const matching = ofCategory(v, pick.c).filter((o) => stateOf(o) === pick.value);
  const switchedOn = [...v.view.on].filter((id) => v.house.objectsById.get(id)?.category === pick.c).sort((a, b) => a - b);
  return tlDraft(v, "ObjectState", `the ${plural(pick.c)} that are switched ${pick.value}`, matching, false, pick.zero ? "objectstate-absent" : "objectstate", [pick.value, pick.c], { switchedOn });
}

/** The outline seen from above of an object (outline.ts). */
const outlineOf = (v: ViewScene, o: SceneObject): Outline | null => v.house.info.get(o.id)?.outline ?? null;

const FORM_WORDS: Partial<Record<OutlineShape, string>> = { round: "round or oval", square: "square", "L-shaped": "L-shaped" };

/**
 * Geometry (shapes and structural forms, §3.2.1 iii): every object wholly inside the picture whose
 * form seen from above (its plan, outline.ts) is round or oval, square, or L-shaped, whatever its
 * category (people are not objects here); written only when every clearly visible object wholly
 * inside the picture is clearly that shape or clearly not. An object cut by the picture's edge
 * does not show its form, so it is never a target.
 */
export function geometrySample(v: ViewScene): Draft | null {
  const things = describable(v).filter((o) => o.category !== "person" && insidePicture(v.view, o));
  // Slivers need no clear shape: one that has it would be a target too small to mark, and the sample is not written (tlDraft).
  const shown = things.filter((o) => visible(v, o));
  const shapes = (Object.keys(FORM_WORDS) as OutlineShape[]).filter((shape) => shown.every((o) => {
    const outline = outlineOf(v, o);
    return outline !== null && outline[shape] !== null;
  }));
  if (shapes.length === 0) return null;
  const shape = v.rng.pick(shapes);
  const matching = things.filter((o) => outlineOf(v, o)?.[shape] === true);
  return tlDraft(v, "Geometry", `every ${FORM_WORDS[shape]} object (its shape seen from above) wholly inside the picture`, matching, false, `form-${shape}`, [shape]);
}

/** Whether an object's pixels keep clear of the picture's edges (false when not in view). */
export function insidePicture(view: EpicView, o: SceneObject): boolean {
  const s = view.stats.get(o.id);
  if (!s) return false;
  const [x0, y0, x1, y1] = s.bbox; // x1, y1 exclusive
  return x0 > 0 && y0 > 0 && x1 < view.buffers.width && y1 < view.buffers.height;
}

/** How much longer one side of a silhouette's box must be than the other to be called wide or tall. */
const SILHOUETTE_RATIO = 1.3;

/** "wide" or "tall" for an object's silhouette in the picture (its pixels' box), null when nearly square or cut by the picture's edge. */
export function silhouetteOf(view: EpicView, o: SceneObject): "wide" | "tall" | null {
  if (!insidePicture(view, o)) return null;
  const [x0, y0, x1, y1] = view.stats.get(o.id)!.bbox;
  const w = x1 - x0, h = y1 - y0;
  return w >= SILHOUETTE_RATIO * h ? "wide" : h >= SILHOUETTE_RATIO * w ? "tall" : null;
}

/**
 * ObjectProjections (projected shapes under a viewpoint, §3.2.1 vi): the objects of a category
 * whose silhouette in this picture is wider than tall (or taller than wide) by 30%; every visible
 * object of the category is clearly one or the other and lies wholly inside the picture. The same
 * chair is wide seen from the front and tall from the side, so the category does not tell.
 */
export function projectionSample(v: ViewScene): Draft | null {
  const cats = clearCategories(v, 1).filter((c) => ofCategory(v, c).filter((o) => visible(v, o)).every((o) => silhouetteOf(v.view, o) !== null));
  if (cats.length === 0) return null;
  const c = v.rng.pick(cats);
  const wanted = v.rng.chance(0.5) ? "wide" : "tall";
  const phrase = wanted === "wide" ? "wider than it is tall" : "taller than it is wide";
  const matching = ofCategory(v, c).filter((o) => visible(v, o) && silhouetteOf(v.view, o) === wanted);
  return tlDraft(v, "ObjectProjections", `the ${plural(c)} whose silhouette in this picture is ${phrase}`, matching, false, `silhouette-${wanted}`, [wanted, c], { category: c, silhouette: wanted });
}

interface Comparison {
  word: string;
  /** The compared value of an object of this size. */
  value: (size: SceneObject["size"]) => number;
  /** Compared by ratio: the larger value is at least this many times the smaller. */
  ratio: number;
  /** Whether people are compared this way (by height only: a person's floor area says little). */
  people: boolean;
}

const height = (size: SceneObject["size"]) => size.height;
const footprint = (size: SceneObject["size"]) => size.width * size.depth;
/** Relative attributes (height and size, §3.2.1 v), each with the margin that makes it visible. */
const COMPARISONS: readonly Comparison[] = [
  { word: "taller than", value: height, ratio: 1.15, people: true },
  { word: "shorter than", value: (s) => 1 / height(s), ratio: 1.15, people: true },
  { word: "larger (in floor area) than", value: footprint, ratio: 1.5, people: false },
  { word: "smaller (in floor area) than", value: (s) => 1 / footprint(s), ratio: 1.5, people: false },
];

/** Whether the catalogue has models of a category on both sides of a value (by the ratio), so the category alone does not decide a comparison with it. */
function categoryUndecided(v: ViewScene, category: string, r: number, cmp: Comparison): boolean {
  let above = false, below = false;
  for (const e of v.house.entries.values()) {
    if (e.category !== category) continue;
    const x = cmp.value(e.sizeM);
    if (x >= r * cmp.ratio) above = true;
    if (x * cmp.ratio <= r) below = true;
  }
  return above && below;
}

/**
 * RelativePerception: the objects of a category that are taller / shorter / larger / smaller than a
 * reference object named in the description. Every visible object of the category differs from
 * the reference by the comparison's ratio, and either some lie on each side of it or the
 * catalogue has models of the category on both sides, so the categories alone ("beds are larger
 * than sinks") do not decide: each object must be compared.
 */
export function relativeSample(v: ViewScene): Draft | null {
  const cmp = v.rng.pick(COMPARISONS);
  const compared = (o: SceneObject) => cmp.people || o.category !== "person";
  const refs = describable(v).filter((o) => compared(o) && namePhrase(v, o) !== null);
  const options: Array<{ ref: SceneObject; c: string }> = [];
  for (const ref of refs) {
    const r = cmp.value(ref.size);
    for (const c of clearCategories(v, 1, (o) => o.category !== ref.category && compared(o))) {
      const values = ofCategory(v, c).filter((o) => visible(v, o)).map((o) => cmp.value(o.size));
      const above = values.filter((x) => x >= r * cmp.ratio).length, below = values.filter((x) => x * cmp.ratio <= r).length;
      if (above + below === values.length && ((above > 0 && below > 0) || categoryUndecided(v, c, r, cmp))) options.push({ ref, c });
    }
  }
  if (options.length === 0) return null;
  const { ref, c } = v.rng.pick(options);
  const r = cmp.value(ref.size);
  const matching = ofCategory(v, c).filter((o) => cmp.value(o.size) >= r * cmp.ratio);
  return tlDraft(v, "RelativePerception", `the ${plural(c)} that are ${cmp.word} ${namePhrase(v, ref)!}`, matching, false, `relative-${cmp.word.split(" ")[0]}`, [cmp.word, c], { category: c, reference: ref.id, comparison: cmp.word });
}

/** Categories whose models have a clear front. */
const FRONTED = new Set(["chair", "armchair", "sofa", "tv", "monitor", "laptop", "toilet", "fridge", "stove", "oven", "wardrobe", "dresser", "bench", "piano", "fireplace", "washing machine", "microwave", "bed", "person", "nightstand", "cabinet", "desk", "shelf"]);

export type Facing = "camera" | "away" | "left" | "right";

/** Which way an object faces as the camera sees it, or null in the dead bands between the bins. */
export function facingOf(v: Pick<ViewScene, "view">, o: SceneObject): Facing | null {
  const f = frontDirection(o.yaw);
  const cx = (o.bbox.min[0] + o.bbox.max[0]) / 2, cy = (o.bbox.min[1] + o.bbox.max[1]) / 2;
  const cam = v.view.camera.position;
  const toCam = [cam[0] - cx, cam[1] - cy];
  const len = Math.hypot(toCam[0]!, toCam[1]!);
  const angle = (Math.acos(Math.max(-1, Math.min(1, (f[0] * toCam[0]! + f[1] * toCam[1]!) / len))) * 180) / Math.PI;
  if (angle <= P.facingCameraDeg) return "camera";
  if (angle >= P.facingAwayDeg) return "away";
  if (angle < P.sidewaysDeg[0] || angle > P.sidewaysDeg[1]) return null;
  const right = cameraBasis(v.view.camera).right;
  return f[0] * right[0] + f[1] * right[1] > 0 ? "right" : "left";
}

const FACING_TEXT: Record<Facing, string> = {
  camera: "facing the camera",
  away: "facing away from the camera",
  left: "turned towards the left side of the picture",
  right: "turned towards the right side of the picture",
};

function orientation(v: ViewScene, leaf: string, human: boolean): Draft | null {
  const cats = clearCategories(v, 1, (o) => (human ? o.category === "person" : o.category !== "person" && FRONTED.has(o.category))).filter((c) =>
    ofCategory(v, c).filter((o) => visible(v, o)).every((o) => facingOf(v, o) !== null),
  );
  if (cats.length === 0) return null;
  const c = v.rng.pick(cats);
  const all = ofCategory(v, c);
  const shown = all.filter((o) => visible(v, o));
  const present = [...new Set(shown.map((o) => facingOf(v, o)!))].sort();
  // A distractor facing another way, or a facing none has (zero targets).
  const absent = (Object.keys(FACING_TEXT) as Facing[]).filter((f) => !present.includes(f));
  if (present.length < 2 && !(human && shown.length >= 1)) {
    if (absent.length === 0 || !v.rng.chance(0.3)) return null;
  }
  const zero = absent.length > 0 && v.rng.chance(0.15);
  const facing = zero ? v.rng.pick(absent) : v.rng.pick(present);
  const noun = c === "person" ? "people" : plural(c);
  return tlDraft(v, leaf, `the ${noun} ${FACING_TEXT[facing]}`, shown.filter((o) => facingOf(v, o) === facing), false, `facing-${facing}`, [facing, c]);
}

export const orientationSample = (v: ViewScene) => orientation(v, "Orientation", false);
export const orientationHumanSample = (v: ViewScene) => orientation(v, "OrientationHuman", true);

/** The single clearly visible object of its category (a reference the description can name by category alone), or null. */
function uniqueInView(v: ViewScene, o: SceneObject): boolean {
  const same = ofCategory(v, o.category);
  return visible(v, o) && same.every((x) => x.id === o.id || pixelsOf(v.view, x.id) === 0);
}

/** SpatialRelation: objects on a reference (the support relation), or left / right of it in the picture (disjoint pixel columns). */
export function spatialSample(v: ViewScene): Draft | null {
  const refs = describable(v).filter((o) => o.category !== "person" && uniqueInView(v, o));
  if (refs.length === 0) return null;
  if (v.rng.chance(0.4)) {
    const supports = refs.filter((r) => describable(v).some((o) => o.supportId === r.id && visible(v, o)));
    if (supports.length > 0) {
      const r = v.rng.pick(supports);
      const cats = [...new Set(describable(v).filter((o) => o.supportId === r.id && visible(v, o)).map((o) => o.category))].sort();
      const c = v.rng.pick(cats);
      const all = ofCategory(v, c);
      if (all.some((o) => sliver(v, o))) return null;
      return tlDraft(v, "SpatialRelation", `the ${plural(c)} standing on the ${singular(r.category)}`, all.filter((o) => o.supportId === r.id), false, "on", ["on", c]);
    }
  }
  const r = v.rng.pick(refs);
  const rb = v.view.stats.get(r.id)!.bbox;
  const cats = clearCategories(v, 1, (o) => o.id !== r.id && o.category !== r.category).filter((c) =>
    ofCategory(v, c).filter((o) => visible(v, o)).every((o) => {
      const b = v.view.stats.get(o.id)!.bbox;
      return b[2] <= rb[0] || b[0] >= rb[2];
    }),
  );
  if (cats.length === 0) return null;
  const c = v.rng.pick(cats);
  const left = v.rng.chance(0.5);
  const shown = ofCategory(v, c).filter((o) => visible(v, o));
  const members = shown.filter((o) => (left ? v.view.stats.get(o.id)!.bbox[2] <= rb[0] : v.view.stats.get(o.id)!.bbox[0] >= rb[2]));
  return tlDraft(v, "SpatialRelation", `the ${plural(c)} to the ${left ? "left" : "right"} of the ${singular(r.category)} in the picture`, members, false, left ? "left-of" : "right-of", [left ? "left-of" : "right-of", c]);
}

/** Side of an object relative to a person's own body (their left is +90 degrees from their front), or null when within the margin. */
export function personSide(person: SceneObject, o: SceneObject): "left" | "right" | null {
  const f = frontDirection(person.yaw);
  const leftDir = [-f[1], f[0]];
  const cx = (o.bbox.min[0] + o.bbox.max[0]) / 2 - person.position[0], cy = (o.bbox.min[1] + o.bbox.max[1]) / 2 - person.position[1];
  const lateral = cx * leftDir[0]! + cy * leftDir[1]!;
  if (lateral > P.personSideMarginM) return "left";
  if (lateral < -P.personSideMarginM) return "right";
  return null;
}

/** SpatialRelationHuman: objects on the (only visible) person's own left or right. */
export function spatialHumanSample(v: ViewScene): Draft | null {
  const people = ofCategory(v, "person");
  const shownPeople = people.filter((o) => pixelsOf(v.view, o.id) > 0);
  if (shownPeople.length !== 1 || !visible(v, shownPeople[0]!)) return null;
  const person = shownPeople[0]!;
  const cats = clearCategories(v, 1, (o) => o.category !== "person").filter((c) => ofCategory(v, c).filter((o) => visible(v, o)).every((o) => personSide(person, o) !== null));
  if (cats.length === 0) return null;
  const c = v.rng.pick(cats);
  const side = v.rng.chance(0.5) ? "left" : "right";
  const shown = ofCategory(v, c).filter((o) => visible(v, o));
  return tlDraft(v, "SpatialRelationHuman", `the ${plural(c)} on the person's own ${side}-hand side`, shown.filter((o) => personSide(person, o) === side), false, `person-${side}`, [side, c]);
}

/** The part pass pixels of the given mesh groups of an object. */
export function partMask(view: EpicView, objectId: number, groups: ReadonlySet<number>, topOnly: boolean | null): BitMask {
  const { width, height } = view.buffers;
  const m = new BitMask(width, height);
  for (let p = 0; p < view.parts.length; p++) {
    const d = decodePartInstanceId(view.parts[p]!);
    if (!d || d.objectId !== objectId) continue;
    if (topOnly !== null && d.top !== topOnly) continue;
    if (topOnly === true || groups.has(d.part)) m.set(p % width, Math.floor(p / width));
  }
  return m;
}

/** Mesh groups of an object that form a named part. */
export function groupsOf(house: EpicHouse, o: SceneObject, rule: PartRule): number[] {
  const rules = house.info.get(o.id)?.partRules ?? [];
  return rules.flatMap((r, k) => (r === rule ? [k] : []));
}

function partWhole(v: ViewScene, leaf: string, human: boolean): Draft | null {
  const options: Array<{ c: string; rule: PartRule }> = [];
  for (const c of clearCategories(v, 1, (o) => (o.category === "person") === human)) {
    const shown = ofCategory(v, c).filter((o) => visible(v, o));
    if (!shown.every((o) => v.view.partConsistent.has(o.id))) continue;
    const rules = new Set(shown.flatMap((o) => v.house.info.get(o.id)!.partRules.filter((r): r is PartRule => r !== null)));
    for (const rule of [...rules].sort((a, b) => (a.part < b.part ? -1 : 1))) if (shown.every((o) => groupsOf(v.house, o, rule).length > 0)) options.push({ c, rule });
  }
  if (options.length === 0) return null;
  const { c, rule } = v.rng.pick(options);
  const shown = ofCategory(v, c).filter((o) => visible(v, o)).sort((a, b) => a.id - b.id);
  const parts = shown.map((o) => ({ o, groups: groupsOf(v.house, o, rule), mask: partMask(v.view, o.id, new Set(groupsOf(v.house, o, rule)), null) }));
  if (parts.some((p) => p.mask.count() > 0 && p.mask.count() < P.minPartPx)) return null;
  const kept = parts.filter((p) => p.mask.count() >= P.minPartPx);
  if (kept.length === 0) return null;
  const noun = c === "person" ? (shown.length === 1 ? "the person" : "each person") : shown.length === 1 ? `the ${singular(c)}` : `each ${singular(c)}`;
  const description = `the ${rule.phrase} of ${noun}`;
  return {
    leaf,
    text: { text_label: [description], target_object_description_en: description, count_target_instance: [kept.length], precise_count: false, count_in_description: false, part: rule.part },
    masks: { masklet_target: kept.map((p) => p.mask) },
    provenance: { kind: `part-${rule.part}`, parts: { masklet_target: kept.map((p) => ({ objectId: p.o.id, groups: p.groups, top: null })) } },
  };
}

export const partWholeSample = (v: ViewScene) => partWhole(v, "PartWhole", false);
export const partWholeHumanSample = (v: ViewScene) => partWhole(v, "PartWholeHuman", true);

/** Spoken: a request in everyday words; the targets are every visible object that serves it (egopath's intent families). */
export function spokenSample(v: ViewScene): Draft | null {
  const families = INTENT_FAMILIES.filter((f) => {
    const all = describable(v).filter((o) => f.categories.includes(o.category));
    return !all.some((o) => sliver(v, o)) && all.some((o) => visible(v, o));
  });
  const zeroFamilies = INTENT_FAMILIES.filter((f) => describable(v).every((o) => !f.categories.includes(o.category) || pixelsOf(v.view, o.id) === 0));
  const zero = zeroFamilies.length > 0 && (families.length === 0 || v.rng.chance(0.15));
  if (!zero && families.length === 0) return null;
  const family = v.rng.pick(zero ? zeroFamilies : families);
  const request = v.rng.pick(family.requests);
  return tlDraft(v, "Spoken", `anything here that would help with this: "${request}"`, describable(v).filter((o) => family.categories.includes(o.category)), false, `spoken-${family.family}`, [family.family]);
}

/** How a description names one object: by category when it is the only one in view, else by a colour no other one in view has; null when neither singles it out. */
export function namePhrase(v: ViewScene, o: SceneObject): string | null {
  if (!visible(v, o)) return null;
  const same = ofCategory(v, o.category).filter((x) => x.id !== o.id && pixelsOf(v.view, x.id) > 0);
  const noun = o.category === "person" ? "person" : singular(o.category);
  if (same.length === 0) return `the ${noun}`;
  const color = viewColor(v, o);
  if (color !== null && same.every((x) => visible(v, x) && viewColor(v, x) !== null && viewColor(v, x) !== color)) return `the ${color} ${noun}`;
  return null;
}

export { visible as isVisible, sliver as isSliver, describable };
