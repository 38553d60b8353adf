/**
 * The words of the generated descriptions: plural nouns, material classes read from the models'
 * material names, and the named parts a model's mesh groups form. All wording is ours.
 */
import type { Category } from "../../../world/assets/catalog.js";

const IRREGULAR: Record<string, string> = {
  person: "people", shelf: "shelves", glass: "glasses", shoes: "pairs of shoes", "tv": "TVs",
  "trash can": "trash cans", bus: "buses",
};

/** The plural of a category noun ("bench" -> "benches", "person" -> "people"). */
export function plural(noun: string): string {
  if (IRREGULAR[noun]) return IRREGULAR[noun]!;
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** How the singular reads in a phrase ("tv" -> "TV"). */
export function singular(noun: string): string {
  return noun === "tv" ? "TV" : noun;
}

/** Material classes, by keywords of the models' MTL material names, first match wins. */
export const MATERIAL_CLASSES: ReadonlyArray<{ word: string; adjective: string; pattern: RegExp }> = [
  { word: "glass", adjective: "glass", pattern: /glass|cristal|crystal|vidrio/i },
  { word: "leather", adjective: "leather", pattern: /leather|cuir/i },
  { word: "fabric", adjective: "fabric-covered", pattern: /fabric|cloth|tela|textile|cotton|linen|velvet|wool|felt|upholster|pillow|cushion|mattress|matress|blanket|duvet|bed_?sheet|^sheet\b/i },
  { word: "wood", adjective: "wooden", pattern: /wood|oak|pine|walnut|wenge|cherry|beech|maple|teak|mahogany|parquet|madera|bamboo/i },
  { word: "metal", adjective: "metal", pattern: /metal|steel|chrome|alum|brass|iron|inox|copper|silver|gold|stainless/i },
  { word: "plastic", adjective: "plastic", pattern: /plastic|plastico|pvc|acrylic|bakelite/i },
  { word: "ceramic", adjective: "ceramic", pattern: /ceramic|porcelain|fayence|faience/i },
  { word: "stone", adjective: "stone", pattern: /marble|stone|granite|concrete/i },
];

/** The material class a material name names, or null. */
export function materialClass(name: string): string | null {
  return MATERIAL_CLASSES.find((m) => m.pattern.test(name))?.word ?? null;
}

export function materialAdjective(word: string): string {
  return MATERIAL_CLASSES.find((m) => m.word === word)?.adjective ?? word;
}

/**
 * Named parts: a mesh group (one MTL material) of a model is that part when its material name
 * matches, for the given categories (any when absent). Which models have which part is decided by
 * their own material names, so only models whose authors split the part out get part questions.
 */
export interface PartRule {
  part: string;
  /** "the <phrase> of the <object>" reads naturally with this noun phrase. */
  phrase: string;
  pattern: RegExp;
  categories?: readonly Category[];
  human?: boolean;
}

export const PART_RULES: readonly PartRule[] = [
  { part: "handle", phrase: "handles", pattern: /handle|knob/i },
  { part: "lampshade", phrase: "lampshade", pattern: /shade|pantall/i, categories: ["lamp", "ceiling lamp", "wall lamp"] },
  { part: "screen", phrase: "screen", pattern: /screen|display/i, categories: ["tv", "laptop", "monitor", "phone", "microwave", "oven"] },
  { part: "keyboard", phrase: "keyboard", pattern: /keyboard/i },
  { part: "pillow", phrase: "pillows", pattern: /pillow/i, categories: ["bed", "sofa"] },
  { part: "mattress", phrase: "mattress", pattern: /mat+ress/i, categories: ["bed"] },
  { part: "seat", phrase: "seat", pattern: /^seat$/i },
  { part: "armrest", phrase: "armrests", pattern: /armrest/i },
  { part: "legs", phrase: "legs", pattern: /(^|_|\b)legs?(_|\b|$)|^feet$/i },
  { part: "burners", phrase: "burners", pattern: /burner/i, categories: ["stove"] },
  { part: "leaves", phrase: "leaves", pattern: /^lea(f|ves)/i, categories: ["plant"] },
  { part: "pot", phrase: "pot", pattern: /^pot$|maceta/i, categories: ["plant"] },
  { part: "mirror", phrase: "mirror", pattern: /mirror/i },
  { part: "faucet", phrase: "faucet", pattern: /faucet/i },
  { part: "books", phrase: "books", pattern: /^books/i, categories: ["shelf"] },
  // People (PartWholeHuman): only models whose mesh groups name the body part or garment.
  { part: "hair", phrase: "hair", pattern: /hair/i, categories: ["person"], human: true },
  { part: "shoes", phrase: "shoes", pattern: /shoe/i, categories: ["person"], human: true },
  { part: "upper clothing", phrase: "top (shirt or jacket)", pattern: /shirt|suit|_upper|^rl_upper/i, categories: ["person"], human: true },
  { part: "lower clothing", phrase: "skirt or trousers", pattern: /skirt|trouser|pants|_lower|^rl_lower/i, categories: ["person"], human: true },
];

/** The rule a material name of an object of this category belongs to, or null. */
export function partOf(category: Category, material: string | null): PartRule | null {
  if (material === null) return null;
  return PART_RULES.find((r) => (!r.categories || r.categories.includes(category)) && (category === "person") === !!r.human && r.pattern.test(material)) ?? null;
}
