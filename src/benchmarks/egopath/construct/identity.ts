/**
 * How a question names its target so that the image picks out exactly one object
 * (build_navigation_gt_next.py `build_truth_repair_metadata`, construction/configs/
 * cue_repair_protocol_v1.json, c_prompt_catalog_v1.json): the category alone when the view shows
 * one object of it; otherwise a cue the image shows — the extreme left or right (24 px margin),
 * the nearest or farthest (0.3 m margin), or a colour no other one has. Unresolved targets are
 * not asked about.
 */
import { EGOPATH_PARAMS as P, scalePx } from "./params.js";
import type { ViewTarget } from "./types.js";

export type CueType = "none" | "side" | "distance_rank" | "color";

export interface Identity {
  /** Noun phrase without the article, e.g. "sofa", "leftmost chair", "red chair". */
  phrase: string;
  cueType: CueType;
  cueValue: string | null;
  /** Objects of the same kind the view shows (the universe H(view)), the target included. */
  ambiguityCount: number;
}

/** A cue that singles out `target` among `universe` (the target included), or null. */
export function singlingCue(target: ViewTarget, universe: readonly ViewTarget[], imageSide: number): { type: Exclude<CueType, "none">; value: string } | null {
  const others = universe.filter((u) => u.object.id !== target.object.id);
  if (others.length === 0) return null;
  const margin = scalePx(P.sideCueMarginPx, imageSide);
  if (others.every((o) => target.screenX + margin < o.screenX)) return { type: "side", value: "leftmost" };
  if (others.every((o) => target.screenX - margin > o.screenX)) return { type: "side", value: "rightmost" };
  if (others.every((o) => target.distanceM + P.depthCueMarginM < o.distanceM)) return { type: "distance_rank", value: "nearest" };
  if (others.every((o) => target.distanceM - P.depthCueMarginM > o.distanceM)) return { type: "distance_rank", value: "farthest" };
  const colour = target.object.color.name;
  if (others.every((o) => o.object.color.name !== colour)) return { type: "color", value: colour };
  return null;
}

/** The explicit-target phrase of an a2/b2 question, or null when the view cannot single the target out. */
export function explicitIdentity(target: ViewTarget, visible: readonly ViewTarget[], imageSide: number): Identity | null {
  const category = target.object.category;
  const universe = visible.filter((v) => v.object.category === category);
  if (universe.length <= 1) return { phrase: category, cueType: "none", cueValue: null, ambiguityCount: 1 };
  const cue = singlingCue(target, universe, imageSide);
  if (!cue) return null;
  return { phrase: `${cue.value} ${category}`, cueType: cue.type, cueValue: cue.value, ambiguityCount: universe.length };
}

/** One intent family: what a person says, and the object categories it is asked for. */
export interface IntentFamily {
  family: string;
  /** Categories a question of the family may target. */
  categories: readonly string[];
  requests: readonly string[];
}

/**
 * Our request wording for the paper's intent families (c_prompt_catalog_v1.json lists the
 * families; every text here is ours). No request names a category of the family.
 */
export const INTENT_FAMILIES: readonly IntentFamily[] = [
  { family: "sit_rest", categories: ["chair", "sofa", "armchair", "stool", "bench", "ottoman"], requests: ["My feet hurt; I'd like to sit for a moment.", "Take me somewhere I can sit down."] },
  { family: "lie_down", categories: ["bed"], requests: ["I'm worn out and want to lie down.", "I need to stretch out and rest."] },
  { family: "wash_clean", categories: ["sink"], requests: ["My hands are sticky; I need to rinse them.", "I want to wash my hands."] },
  { family: "discard", categories: ["trash can"], requests: ["I have some rubbish to get rid of.", "Where can I throw this wrapper away?"] },
  { family: "store_put_away", categories: ["cabinet", "wardrobe", "dresser", "shelf"], requests: ["I'd like to put these things away.", "I need somewhere to keep my stuff tidy."] },
  { family: "place_object", categories: ["table", "desk", "coffee table", "nightstand"], requests: ["I need a surface to set my mug on.", "Where can I put this plate down?"] },
  { family: "lighting_control", categories: ["lamp"], requests: ["It's too dark to read here.", "I need some more light."] },
  { family: "plant_care", categories: ["plant"], requests: ["Something green here needs watering.", "I want to check whether the greenery is dry."] },
  { family: "laundry_cleaning", categories: ["washing machine"], requests: ["These clothes need washing.", "I have a load of laundry to do."] },
  { family: "cooking_appliance", categories: ["stove", "oven", "microwave"], requests: ["I want to heat up my dinner.", "I need to cook something warm."] },
  { family: "cold_storage", categories: ["fridge"], requests: ["I'd like a cold drink.", "This milk has to be kept cold."] },
  { family: "warmth_seek", categories: ["radiator", "fireplace"], requests: ["I'm freezing; I want to warm up.", "My hands are cold."] },
  { family: "watch_screen", categories: ["tv"], requests: ["I'd like to watch the news.", "Let's put a film on."] },
  { family: "bathe", categories: ["bathtub", "shower"], requests: ["I want to wash off after my run.", "I'd like a long soak."] },
];

const SEATS = ["chair", "sofa", "armchair", "stool", "bench", "ottoman", "deck chair", "bed"];
const LYING_PLACES = ["bed", "sofa", "deck chair"];
const SURFACES = ["table", "desk", "coffee table", "nightstand", "dresser", "tv stand", "cabinet", "shelf"];
const STORAGE = ["cabinet", "wardrobe", "dresser", "shelf", "nightstand", "tv stand", "box"];
const LIGHTS = ["lamp", "ceiling lamp", "wall lamp", "outdoor lamp"];
const SCREENS = ["tv", "monitor", "laptop"];

/**
 * Every category a person could go to for each request (paper §3 "Question text": an intent is
 * kept only when it identifies the target uniquely, so every shown object of these categories
 * competes with the target). Wider than the family's targets: one can sit on a bed, set a mug on
 * a dresser, keep things in a nightstand, watch the news on a monitor; a long soak needs a bath,
 * not a shower. A request is asked only for a target it lists.
 */
export const REQUEST_SERVED_BY: ReadonlyMap<string, readonly string[]> = new Map([
  ["My feet hurt; I'd like to sit for a moment.", SEATS],
  ["Take me somewhere I can sit down.", SEATS],
  ["I'm worn out and want to lie down.", LYING_PLACES],
  ["I need to stretch out and rest.", LYING_PLACES],
  ["My hands are sticky; I need to rinse them.", ["sink"]],
  ["I want to wash my hands.", ["sink"]],
  ["I have some rubbish to get rid of.", ["trash can"]],
  ["Where can I throw this wrapper away?", ["trash can"]],
  ["I'd like to put these things away.", STORAGE],
  ["I need somewhere to keep my stuff tidy.", STORAGE],
  ["I need a surface to set my mug on.", SURFACES],
  ["Where can I put this plate down?", SURFACES],
  ["It's too dark to read here.", LIGHTS],
  ["I need some more light.", LIGHTS],
  ["Something green here needs watering.", ["plant", "tree"]],
  ["I want to check whether the greenery is dry.", ["plant", "tree"]],
  ["These clothes need washing.", ["washing machine"]],
  ["I have a load of laundry to do.", ["washing machine"]],
  ["I want to heat up my dinner.", ["stove", "oven", "microwave"]],
  ["I need to cook something warm.", ["stove", "oven", "microwave"]],
  ["I'd like a cold drink.", ["fridge"]],
  ["This milk has to be kept cold.", ["fridge"]],
  ["I'm freezing; I want to warm up.", ["radiator", "fireplace"]],
  ["My hands are cold.", ["radiator", "fireplace"]],
  ["I'd like to watch the news.", SCREENS],
  ["Let's put a film on.", SCREENS],
  ["I want to wash off after my run.", ["shower", "bathtub"]],
  ["I'd like a long soak.", ["bathtub"]],
]);

/** The categories that serve a request (REQUEST_SERVED_BY); an unknown request throws. */
export function servingCategories(request: string): readonly string[] {
  const served = REQUEST_SERVED_BY.get(request);
  if (!served) throw new Error(`no serving categories for the request "${request}"`);
  return served;
}

export function familyOf(category: string): IntentFamily | undefined {
  return INTENT_FAMILIES.find((f) => f.categories.includes(category));
}

/** Our wording of a residual cue (the family alone is ambiguous): no category word, only what the image shows. */
function cueSentence(cue: { type: Exclude<CueType, "none">; value: string }): string {
  switch (cue.value) {
    case "leftmost": return "The one farthest to the left.";
    case "rightmost": return "The one farthest to the right.";
    case "nearest": return "The closest one, please.";
    case "farthest": return "The one farthest from me.";
    default: return `The ${cue.value} one.`;
  }
}

export interface IntentIdentity {
  family: string;
  request: string;
  /** The request with its residual cue, as the question quotes it. */
  text: string;
  residualCue: Exclude<CueType, "none"> | "none";
  ambiguityCount: number;
}

/**
 * The intent of a c question for the target of an accepted b2 route: a request of its family that
 * the target serves, with a residual cue when the view shows other objects serving the same
 * request (REQUEST_SERVED_BY); null when the target has no family or no request resolves to it.
 * `pick` chooses the request tried first; the others follow in the family's order.
 */
export function intentIdentity(target: ViewTarget, visible: readonly ViewTarget[], imageSide: number, pick: (n: number) => number): IntentIdentity | null {
  const family = familyOf(target.object.category);
  if (!family) return null;
  const fitting = family.requests.filter((r) => servingCategories(r).includes(target.object.category));
  if (fitting.length === 0) return null;
  const first = pick(fitting.length);
  for (let k = 0; k < fitting.length; k++) {
    const request = fitting[(first + k) % fitting.length]!;
    const served = servingCategories(request);
    const rivals = visible.filter((v) => v.object.id !== target.object.id && served.includes(v.object.category));
    if (rivals.length === 0) return { family: family.family, request, text: request, residualCue: "none", ambiguityCount: 1 };
    const cue = singlingCue(target, [target, ...rivals], imageSide);
    if (cue) return { family: family.family, request, text: `${request} ${cueSentence(cue)}`, residualCue: cue.type, ambiguityCount: rivals.length + 1 };
  }
  return null;
}
