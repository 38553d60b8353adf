/**
 * The furniture catalogue: every model of the Sweet Home 3D furniture libraries (.sh3f) in a
 * folder, in metres, with its licence and creator, mapped onto the object categories the
 * benchmarks use.
 *
 * A .sh3f file is a zip holding `PluginFurnitureCatalog.properties` (library keys `id`, `name`,
 * `description`, `version`, `license`, `provider`; per model N the keys `name#N`, `id#N`,
 * `category#N`, `tags#N`, `model#N`, `icon#N`, `width#N` / `depth#N` / `height#N` (cm),
 * `elevation#N`, `dropOnTopElevation#N`, `doorOrWindow#N`, `movable#N`, `creator#N`,
 * `modelRotation#N`, ...), `LICENSE.TXT`, and the OBJ/MTL/texture files. Localised catalogues
 * (`PluginFurnitureCatalog_de.properties`, ...) are not read: names are the default (English)
 * ones. Reading follows Sweet Home 3D's DefaultFurnitureCatalog: models are numbered from 1 and
 * the list ends at the first missing `name#N`; model and icon paths are zip entry names with a
 * leading "/"; the creator defaults to "eTeks".
 *
 * `dropOnTopElevation#N` is documented by Sweet Home 3D (DefaultFurnitureCatalog.PropertyKey
 * DROP_ON_TOP_ELEVATION) as "the preferred elevation (from the bottom of a piece) at which should
 * be placed an object dropped on a piece (optional). A negative value means that the piece should
 * be ignored when an object is dropped on it. By default, this elevation is equal to its height."
 * So here: absent -> the model's height (dropOnTopDeclared false); negative (the files use -1)
 * -> null, nothing goes on it; otherwise that value in metres (dropOnTopDeclared true).
 *
 * Installed by Debian/Ubuntu's `sweethome3d-furniture` package in /usr/share/sweethome3d/furniture
 * (five libraries, 820 models, CC0 and CC-BY 3.0); `--assets DIR` points at any folder of .sh3f
 * files instead (downloadable from sweethome3d.com).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { appendAll } from "../../core/problems.js";
import { parseProperties } from "./properties.js";
import { ZipArchive, ZipLimitError } from "./zip.js";

export const DEFAULT_ASSETS_DIR = "/usr/share/sweethome3d/furniture";
export const ASSETS_APT_PACKAGE = "sweethome3d-furniture";

export type LicenseId = "CC0" | "CC-BY 3.0";

/** The categories the benchmarks need; every one has at least one model in the installed libraries. */
export const REQUIRED_CATEGORIES = [
  "bed", "sofa", "armchair", "chair", "table", "desk", "cabinet", "shelf", "fridge", "stove",
  "sink", "toilet", "bathtub", "shower", "tv", "plant", "lamp", "door", "window", "person",
] as const;

/** Further categories common in the catalogue (each has at least one installed model). */
export const EXTRA_CATEGORIES = [
  "wardrobe", "dresser", "nightstand", "coffee table", "tv stand", "stool", "bench", "ottoman",
  "deck chair", "oven", "microwave", "range hood", "washing machine", "coffee machine", "toaster",
  "kettle", "radiator", "fireplace", "piano", "ceiling lamp", "wall lamp", "outdoor lamp", "candle",
  "rug", "curtain", "picture", "clock", "book", "bottle", "cup", "glass", "bowl", "plate", "vase",
  "laptop", "monitor", "phone", "speaker", "trash can", "box", "toy", "bag", "shoes", "towel", "tree",
  "dog", "cat", "car",
] as const;

export type Category = (typeof REQUIRED_CATEGORIES)[number] | (typeof EXTRA_CATEGORIES)[number];
export const CATEGORIES: readonly Category[] = [...REQUIRED_CATEGORIES, ...EXTRA_CATEGORIES];

/**
 * One line of the keyword table. All given conditions must hold; `name` and `notName` test the
 * lower-cased English name, `tag` any one lower-cased tag, `source` the library's own category
 * (lower-cased). `category: null` stops the search: the model is left uncategorised on purpose.
 */
export interface CategoryRule {
  category: Category | null;
  name?: RegExp;
  notName?: RegExp;
  tag?: RegExp;
  source?: RegExp;
}

/**
 * The keyword table, first match wins, ordered narrow to broad: deliberate exclusions first
 * (names that contain a category word but are something else: "Toilet brush", "Table tennis",
 * "Christmas tree", "Wheelchair", mannequins), then compound names before the words inside them
 * ("Desk lamp" before desk, "Sink cabinet" before cabinet, "Coffee table" before table,
 * "Shower door" before door, "Bedside table" before table), then single words, then the few
 * library categories and tags that are reliable on their own (Characters + Human -> person,
 * Exterior + Tree -> tree, Vehicles + Car -> car). Names decide before tags because tags are
 * loose ("Hammock" and "Sleeping bag" are tagged Bed, "Video projector" Television, "Desk" Table).
 */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  // Deliberately uncategorised.
  { category: null, name: /christmas tree|dog house|doll house|wheelchair|cup ?cake|toilet (paper|brush)|table (tennis|fan)|(pool|football) table|abdominal bench|workbench|flashlight|shutter|\bblind\b|^elevator$|mannequin|^(sun)?glasses$|air mattress|sleeping bag|hammock|hot dog|remote control|dryer|jacuzzi|swimming pool|children game|ceiling fan/ },
  // Living things.
  { category: "person", source: /^characters$/, tag: /^(human|people)$/ },
  { category: "dog", name: /\b(bull)?dog\b/ },
  { category: "cat", name: /\bcat\b/ },
  { category: "tree", source: /^exterior$/, tag: /^tree$/ },
  { category: "tree", source: /^exterior$/, name: /\b(tree|bush|hedge|pine|palm|acacia|cypress|poplar|maple|beech|blossom|bamboo|ficus)\b/ },
  { category: "car", source: /^vehicles$/, tag: /^car$/, notName: /truck|\bbus\b|\bvan\b/ },
  { category: "car", source: /^vehicles$/, name: /\bcar\b|sedan|beetle/, notName: /truck|\bbus\b|\bvan\b/ },
  // Lights, before anything their names contain ("Desk lamp", "Pedestal vase lamp", "Wall light").
  { category: "outdoor lamp", name: /lamp|light|lantern/, tag: /^(outdoor|exterior)$/ },
  { category: "outdoor lamp", name: /^outdoor lamp$|lamppost/ },
  { category: "ceiling lamp", source: /^lights$/, name: /chandelier|pendant|hanging|ceiling|fluorescent|track light/ },
  { category: "ceiling lamp", source: /^lights$/, tag: /^ceiling$/ },
  { category: "wall lamp", source: /^lights$/, name: /\bwall\b|spotlight/ },
  { category: "candle", name: /\bcandle\b/ },
  { category: "lamp", source: /^lights$/, name: /lamp|light|lantern/ },
  // Television and computers.
  { category: "tv stand", name: /tv stand|tv cabinet|television cabinet/ },
  { category: "tv", name: /\btv\b|television/ },
  { category: "monitor", name: /\bimac\b|monitor/ },
  { category: "laptop", name: /laptop|\bibook\b|notebook/ },
  { category: "phone", name: /\bi?phone\b/ },
  // Seats.
  { category: "bed", name: /opened convertible sofa/ },
  { category: "sofa", name: /sofa|couch|loveseat|settee/ },
  { category: "armchair", name: /armchair|arm chair/ },
  { category: "armchair", name: /\bchair\b/, tag: /^armchair$/ },
  { category: "ottoman", name: /\b(puff|pouf|ottoman)\b/ },
  { category: "deck chair", name: /deck chair|beach chair|relax chair|pool lounge|lounger/ },
  { category: "stool", name: /\bstool\b/ },
  { category: "bench", name: /\bbench\b/ },
  { category: "bench", source: /^exterior$/, name: /\bbank\b/ },
  { category: "chair", name: /\bchairs?\b|\bclass seat\b/ },
  // Beds and bedroom storage.
  { category: "nightstand", name: /bedside table|night ?stand/ },
  { category: "dresser", name: /dresser|dressing table|chest of drawers|changing table|^chest$/ },
  { category: "bed", name: /\bbed\b|\bcrib\b|\bfuton\b/ },
  // Tables.
  { category: "desk", name: /\bdesk\b|technical table/ },
  { category: "coffee table", name: /coffee table/ },
  // Kitchen.
  { category: "fridge", name: /fridge|refrigerator|freezer/ },
  { category: "microwave", name: /microwave/ },
  { category: "range hood", name: /\bhood\b/ },
  { category: "oven", name: /\boven\b/ },
  { category: "stove", name: /stove|cooktop|\bhob\b|induction cooker/ },
  { category: "washing machine", name: /washing machine|\bwasher\b/ },
  { category: "kettle", name: /kettle|boiler|teapot/, source: /^kitchen$/ },
  { category: "coffee machine", name: /coffee (machine|maker|brewer|press)/ },
  { category: "toaster", name: /toaster/ },
  // Bathroom.
  { category: "sink", name: /wash ?basin|\bsink\b|lavatory|\bvanity\b/ },
  { category: "toilet", name: /\btoilets?\b/ },
  { category: "bathtub", name: /\bbath\b|bathtub|\btub\b/ },
  { category: "shower", name: /\bshower\b/ },
  { category: "towel", name: /^towel$/ },
  // Storage.
  { category: "wardrobe", name: /wardrobe|closet|cupboard/ },
  { category: "cabinet", name: /cabinet|sideboard|\bisland\b/ },
  { category: "cabinet", name: /^box$/, source: /^(living room|office)$/ },
  { category: "shelf", name: /bookcase|bookshelf|shelf|shelves|contemporary living room/ },
  { category: "table", name: /\btable\b/ },
  // Heating, instruments.
  { category: "radiator", name: /radiator/ },
  { category: "fireplace", name: /fireplace/ },
  { category: "piano", name: /piano/ },
  // Furnishings and small objects.
  { category: "rug", name: /\brug\b|carpet|bath ?mat|doormat|tatami/ },
  { category: "curtain", name: /curtain/ },
  { category: "picture", name: /\bframe\b|picture|painting|poster/ },
  { category: "clock", name: /clock/ },
  { category: "book", name: /\bbook\b/ },
  { category: "bottle", name: /bottle|flacon|^milk$/ },
  { category: "cup", name: /\bcup\b|\bmug\b/ },
  { category: "glass", name: /^(beer |cocktail )?glass$/ },
  { category: "bowl", name: /\bbowl\b/ },
  { category: "plate", name: /\bplate\b/ },
  { category: "vase", name: /\bvase\b|\bjar\b|pottery/ },
  { category: "plant", name: /plant|cactus|orchid|bonsai|yucca|spathiphyllum|ficus|bamboo|flower|tulip|lily|succulent/ },
  { category: "speaker", name: /speaker/ },
  { category: "trash can", name: /trash ?can|dustbin|recycling bin/ },
  { category: "box", name: /^box$|cardboard box|\bcrate\b|^trunc?k$|barrel/ },
  { category: "toy", name: /\btoy\b|teddy|\bdoll\b|rubik|puzzle|rocking horse|xylophone|car model|biplane/ },
  { category: "bag", name: /suitcase|backpack|handbag|briefcase/ },
  { category: "shoes", name: /shoes|sneakers|slippers|bootie|mocassin/ },
  // Openings (after "Shower door", "Glass door cabinet", "Window shutter").
  { category: "window", name: /window/ },
  { category: "door", name: /\bdoor\b/ },
];

/** Our category for a model, from the keyword table (null: uncategorised). */
export function categorize(piece: { name: string; tags: readonly string[]; sourceCategory: string }): Category | null {
  const name = piece.name.toLowerCase().trim();
  const tags = piece.tags.map((t) => t.toLowerCase().trim());
  const source = piece.sourceCategory.toLowerCase().trim();
  for (const rule of CATEGORY_RULES) {
    if (rule.name && !rule.name.test(name)) continue;
    if (rule.notName && rule.notName.test(name)) continue;
    if (rule.source && !rule.source.test(source)) continue;
    if (rule.tag && !tags.some((t) => rule.tag!.test(t))) continue;
    return rule.category;
  }
  return null;
}

export interface FurnitureLibrary {
  /** Absolute path of the .sh3f file. */
  file: string;
  fileName: string;
  /** Library keys of PluginFurnitureCatalog.properties. */
  id: string;
  name: string;
  description: string;
  version: string;
  provider: string;
  license: LicenseId;
  /** The `license=` text as written (for example "Creative Commons Attribution 3.0 United States license  Copyright © ..."). */
  licenseDeclared: string;
  /** The Creative Commons deed named in LICENSE.TXT. */
  licenseUrl: string;
  licenseText: string;
  /** Models read (name#1 .. name#N). */
  modelCount: number;
}

export interface CatalogEntry {
  /** `id#N`, unique over the catalogue (Sweet Home 3D drops later duplicates; so do we). */
  id: string;
  /** Position N in the library's properties file. */
  index: number;
  name: string;
  /** Library name (`name=` of the library). */
  library: string;
  libraryId: string;
  /** Absolute path of the .sh3f file holding the model. */
  libraryFile: string;
  license: LicenseId;
  licenseUrl: string;
  /** The library's `license=` text (for CC-BY libraries it carries the copyright notice to keep). */
  licenseNotice: string;
  creator: string;
  /** The library's own category ("Bedroom", "Kitchen", ...). */
  sourceCategory: string;
  tags: string[];
  category: Category | null;
  sizeM: { width: number; depth: number; height: number };
  elevationM: number;
  /** See the file comment: absent -> height, negative -> null. */
  dropOnTopElevationM: number | null;
  dropOnTopDeclared: boolean;
  doorOrWindow: boolean;
  movable: boolean;
  /** Zip entry name of the OBJ file (the properties' path without its leading "/"). */
  modelPath: string;
  /** Rows of the 3x3 matrix that orients the model, or null. */
  modelRotation: [number, number, number][] | null;
  /** Zip entry name of the icon, or null when absent from the zip. */
  icon: string | null;
  /** Every `key#N` of this model, by key, as written. */
  properties: Record<string, string>;
}

export interface CatalogProblem {
  file: string;
  index?: number;
  id?: string;
  reason: string;
}

export interface Catalogue {
  dir: string;
  libraries: FurnitureLibrary[];
  entries: CatalogEntry[];
  /** Libraries or models that could not be used, with the reason. */
  problems: CatalogProblem[];
}

export class AssetsNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AssetsNotFoundError";
  }
}

/** Which licence a library's text names, or null when it is neither CC0 nor CC-BY 3.0. */
export function classifyLicense(text: string): LicenseId | null {
  const t = text.replace(/\s+/g, " ");
  const by = /creative commons attribution 3\.0|\bcc[- ]by[- ]3\.0\b|creativecommons\.org\/licenses\/by\/3\.0/i.test(t);
  const zero = /creative commons zero|\bcc-?0\b|creativecommons\.org\/(choose\/zero|publicdomain\/zero)|\bpublic domain\b/i.test(t);
  if (by && !zero) return "CC-BY 3.0";
  if (zero && !by) return "CC0";
  return null;
}

const PROPERTIES_FILE = "PluginFurnitureCatalog.properties";
const LICENSE_FILE = "LICENSE.TXT";

const zipName = (p: string) => p.replace(/^\/+/, "");

function number(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const v = Number(value.trim());
  return Number.isFinite(v) ? v : NaN;
}

const cmToM = (cm: number) => Math.round(cm * 1e4) / 1e6; // cm -> m, rounded to 0.01 mm

function parseRotation(value: string | undefined): [number, number, number][] | null {
  if (value === undefined || value.trim() === "") return null;
  const v = value.trim().split(/\s+/).map(Number);
  if (v.length !== 9 || v.some((x) => !Number.isFinite(x))) return null; // as Sweet Home 3D: ignored
  return [
    [v[0]!, v[1]!, v[2]!],
    [v[3]!, v[4]!, v[5]!],
    [v[6]!, v[7]!, v[8]!],
  ];
}

/** Read one .sh3f library. Throws for an unreadable zip, a missing properties file or an unknown licence. */
export function readLibrary(file: string): { library: FurnitureLibrary; entries: CatalogEntry[]; problems: CatalogProblem[] } {
  const zip = ZipArchive.open(file);
  try {
    if (!zip.has(PROPERTIES_FILE)) throw new Error(`${file}: no ${PROPERTIES_FILE} (not a Sweet Home 3D furniture library)`);
    const props = parseProperties(zip.read(PROPERTIES_FILE), { encoding: "latin1", source: `${file}:${PROPERTIES_FILE}` });
    const licenseText = zip.has(LICENSE_FILE) ? zip.read(LICENSE_FILE).toString("latin1") : "";
    const licenseDeclared = props.get("license") ?? "";
    const fromDeclared = classifyLicense(licenseDeclared);
    const fromText = classifyLicense(licenseText);
    const license = fromDeclared ?? fromText;
    if (!license || (fromDeclared && fromText && fromDeclared !== fromText))
      throw new Error(
        `${file}: licence not recognised as CC0 or CC-BY 3.0 (license=${JSON.stringify(licenseDeclared)}, ${LICENSE_FILE} ${licenseText ? `says ${JSON.stringify(licenseText.trim().slice(0, 120))}` : "missing"})`,
      );
    const licenseUrl =
      /https?:\/\/creativecommons\.org\/[^\s"'<>]+/.exec(licenseText)?.[0].replace(/^http:/, "https:") ??
      (license === "CC0" ? "https://creativecommons.org/publicdomain/zero/1.0/" : "https://creativecommons.org/licenses/by/3.0/");

    // Group the per-model keys by index in one pass.
    const perIndex = new Map<number, Record<string, string>>();
    for (const [key, value] of props) {
      const m = /^(.+)#(\d+)$/.exec(key);
      if (!m) continue;
      const n = Number(m[2]);
      let rec = perIndex.get(n);
      if (!rec) perIndex.set(n, (rec = {}));
      rec[m[1]!] = value;
    }

    const library: FurnitureLibrary = {
      file,
      fileName: basename(file),
      id: props.get("id") ?? basename(file),
      name: props.get("name") ?? basename(file, ".sh3f"),
      description: props.get("description") ?? "",
      version: props.get("version") ?? "",
      provider: props.get("provider") ?? "",
      license,
      licenseDeclared,
      licenseUrl,
      licenseText,
      modelCount: 0,
    };
    const entries: CatalogEntry[] = [];
    const problems: CatalogProblem[] = [];
    for (let n = 1; ; n++) {
      const p = perIndex.get(n);
      if (!p || !p.name) break; // Sweet Home 3D stops at the first missing name#N
      library.modelCount++;
      const id = p.id ?? `${library.id}#${n}`;
      const problem = (reason: string) => problems.push({ file, index: n, id, reason });
      const width = number(p.width);
      const depth = number(p.depth);
      const height = number(p.height);
      if (![width, depth, height].every((v) => v !== undefined && v > 0)) {
        problem(`width/depth/height must be positive numbers (got ${p.width}, ${p.depth}, ${p.height})`);
        continue;
      }
      if (!p.model) {
        problem("no model#N");
        continue;
      }
      const modelPath = zipName(p.model);
      if (!zip.has(modelPath)) {
        problem(`model ${JSON.stringify(p.model)} is not in the zip`);
        continue;
      }
      const elevation = number(p.elevation) ?? 0;
      const drop = number(p.dropOnTopElevation);
      if (Number.isNaN(elevation) || Number.isNaN(drop)) {
        problem(`elevation or dropOnTopElevation is not a number (${p.elevation}, ${p.dropOnTopElevation})`);
        continue;
      }
      const tags = (p.tags ?? "").split(/\s*,\s*/).map((t) => t.trim()).filter(Boolean);
      const sourceCategory = p.category ?? "";
      const iconPath = p.icon ? zipName(p.icon) : null;
      entries.push({
        id,
        index: n,
        name: p.name,
        library: library.name,
        libraryId: library.id,
        libraryFile: file,
        license,
        licenseUrl,
        licenseNotice: licenseDeclared,
        creator: p.creator ?? "eTeks",
        sourceCategory,
        tags,
        category: categorize({ name: p.name, tags, sourceCategory }),
        sizeM: { width: cmToM(width!), depth: cmToM(depth!), height: cmToM(height!) },
        elevationM: cmToM(elevation),
        dropOnTopElevationM: drop === undefined ? cmToM(height!) : drop < 0 ? null : cmToM(drop),
        dropOnTopDeclared: drop !== undefined,
        doorOrWindow: p.doorOrWindow === "true",
        movable: p.movable === "true",
        modelPath,
        modelRotation: parseRotation(p.modelRotation),
        icon: iconPath && zip.has(iconPath) ? iconPath : null,
        properties: { ...p },
      });
    }
    return { library, entries, problems };
  } finally {
    zip.close();
  }
}

/**
 * Read every .sh3f library in `dir` (sorted by file name). Throws AssetsNotFoundError naming the
 * folder and the apt package when the folder has none, or none of them can be read. A library
 * that cannot be read is skipped (listed in `problems`), except one refused by the zip reader's
 * budget (ZipLimitError, zip.ts): that is a zip bomb or far outside what a furniture library
 * holds, so it stops the run with its message (naming the file, the entry and the limit) rather
 * than leaving the user's set silently without it.
 */
export function readLibraries(dir: string = DEFAULT_ASSETS_DIR): Catalogue {
  const abs = resolve(dir);
  const hint = `install them with \`apt-get install ${ASSETS_APT_PACKAGE}\` (Debian/Ubuntu, installs ${DEFAULT_ASSETS_DIR}) or pass --assets DIR with a folder of .sh3f files (https://www.sweethome3d.com/freeModels.jsp)`;
  if (!existsSync(abs) || !statSync(abs).isDirectory())
    throw new AssetsNotFoundError(`no Sweet Home 3D furniture libraries: the folder ${abs} does not exist; ${hint}`);
  const files = readdirSync(abs)
    .filter((f) => f.toLowerCase().endsWith(".sh3f"))
    .sort()
    .map((f) => join(abs, f))
    .filter((f) => statSync(f).isFile());
  if (files.length === 0) throw new AssetsNotFoundError(`no Sweet Home 3D furniture libraries (.sh3f files) in ${abs}; ${hint}`);
  const catalogue: Catalogue = { dir: abs, libraries: [], entries: [], problems: [] };
  const seen = new Set<string>();
  for (const file of files) {
    let lib: ReturnType<typeof readLibrary>;
    try {
      lib = readLibrary(file);
    } catch (err) {
      if (err instanceof ZipLimitError) throw err;
      catalogue.problems.push({ file, reason: (err as Error).message });
      continue;
    }
    catalogue.libraries.push(lib.library);
    appendAll(catalogue.problems, lib.problems);
    for (const e of lib.entries) {
      if (seen.has(e.id)) {
        catalogue.problems.push({ file, index: e.index, id: e.id, reason: "duplicate id (an earlier library has it; skipped)" });
        continue;
      }
      seen.add(e.id);
      catalogue.entries.push(e);
    }
  }
  if (catalogue.libraries.length === 0)
    throw new AssetsNotFoundError(
      `none of the ${files.length} .sh3f files in ${abs} could be read (${catalogue.problems.map((p) => p.reason).join("; ")}); ${hint}`,
    );
  return catalogue;
}

/**
 * The body of an ATTRIBUTION file for the models a generated set used (pass the entries used;
 * repeats are merged). CC-BY 3.0 models are listed one by one under their library, with creator,
 * library, licence and its deed, as the licence requires. CC0 models need no attribution; they
 * are listed briefly (name, id, creator) for provenance, since their libraries ask users to credit
 * authors where they can and it costs one line each. Deterministic: sorted by library, then name,
 * then id.
 */
export function attributionText(entries: readonly CatalogEntry[]): string {
  const byId = new Map<string, CatalogEntry>();
  for (const e of entries) if (!byId.has(e.id)) byId.set(e.id, e);
  const used = [...byId.values()].sort(
    (a, b) => cmp(a.library, b.library) || cmp(a.name, b.name) || cmp(a.id, b.id),
  );
  const ccby = used.filter((e) => e.license === "CC-BY 3.0");
  const cc0 = used.filter((e) => e.license === "CC0");
  const lines: string[] = [
    "ATTRIBUTION",
    "",
    "The scenes of this set are built from 3D furniture models of the Sweet Home 3D furniture",
    "libraries (https://www.sweethome3d.com/, Debian package sweethome3d-furniture), scaled,",
    "oriented, placed and rendered into the images; the models are not otherwise modified.",
    "",
  ];
  if (ccby.length) {
    lines.push(`Creative Commons Attribution 3.0 (CC BY 3.0) models: ${ccby.length}`, "");
    for (const [library, group] of groupBy(ccby, (e) => e.library)) {
      const first = group[0]!;
      lines.push(`Library: ${library} (${basename(first.libraryFile)})`);
      lines.push(`Licence: CC BY 3.0, ${first.licenseUrl}`);
      if (first.licenseNotice) lines.push(`Notice: ${first.licenseNotice.replace(/\s+/g, " ").trim()}`);
      for (const e of group) lines.push(`- "${e.name}" (${e.id}) by ${e.creator}, from ${library}, licensed CC BY 3.0`);
      lines.push("");
    }
  }
  if (cc0.length) {
    lines.push(
      `Public-domain (CC0) models: ${cc0.length}. CC0 requires no attribution; listed for provenance.`,
      "",
    );
    for (const [library, group] of groupBy(cc0, (e) => e.library)) {
      lines.push(`Library: ${library} (${basename(group[0]!.libraryFile)})`);
      for (const e of group) lines.push(`- "${e.name}" (${e.id}) by ${e.creator}`);
      lines.push("");
    }
  }
  if (!used.length) lines.push("No third-party models were used.", "");
  return lines.join("\n");
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const g = out.get(k);
    if (g) g.push(it);
    else out.set(k, [it]);
  }
  return out;
}
