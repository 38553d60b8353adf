/**
 * EPIC-Bench's task taxonomy (3 categories, 9 groups, 23 leaf task types), the masks and text
 * fields each task is scored on, and the images shown for it (reference: epic.md; the official
 * summary's by_type / by_group keys and their order).
 */
export type Category = "TargetLocalization" | "Navigation" | "Manipulation";

export interface LeafTask {
  category: Category;
  group: string;
  /** The official task_type (a TL leaf, FeasiblePath_Ego, ContactRelationship_TypeOne, ...). */
  leaf: string;
  /** The official summary's by_type key. */
  byType: string;
  /** The official summary's by_group key. */
  byGroup: string;
}

const TL_GROUPS: Array<[string, string[]]> = [
  ["BasicAttributes", ["Category", "Color", "Geometry", "Material", "ObjectProjections", "RelativePerception"]],
  ["SpatialRelatedAttributes", ["Orientation", "OrientationHuman", "SpatialRelation", "SpatialRelationHuman"]],
  ["EmbodiedCompositionalAttributes", ["ObjectState", "PartWhole", "PartWholeHuman", "Spoken"]],
];

export const LEAF_TASKS: LeafTask[] = [
  ...TL_GROUPS.flatMap(([group, leaves]) =>
    leaves.map((leaf) => ({ category: "TargetLocalization" as const, group, leaf, byType: `TargetLocalization/${group}/${leaf}`, byGroup: `TargetLocalization/${group}` })),
  ),
  { category: "Navigation", group: "GroundDetection", leaf: "GroundDetection", byType: "Navigation/GroundDetection", byGroup: "Navigation/GroundDetection" },
  { category: "Navigation", group: "FeasiblePath", leaf: "FeasiblePath_Ego", byType: "Navigation/FeasiblePath/FeasiblePath_Ego", byGroup: "Navigation/FeasiblePath" },
  { category: "Navigation", group: "FeasiblePath", leaf: "FeasiblePath_Exo", byType: "Navigation/FeasiblePath/FeasiblePath_Exo", byGroup: "Navigation/FeasiblePath" },
  { category: "Navigation", group: "VisualMatching", leaf: "VisualMatching", byType: "Navigation/VisualMatching", byGroup: "Navigation/VisualMatching" },
  { category: "Manipulation", group: "AffordanceRegion", leaf: "AffordanceRegion", byType: "Manipulation/AffordanceRegion", byGroup: "Manipulation/AffordanceRegion" },
  ...["TypeOne", "TypeTwo", "TypeThree"].map((t) => ({
    category: "Manipulation" as const, group: "ContactRelationship", leaf: `ContactRelationship_${t}`,
    byType: `Manipulation/ContactRelationship/ContactRelationship_${t}`, byGroup: "Manipulation/ContactRelationship",
  })),
  { category: "Manipulation", group: "PlacementRegion", leaf: "PlacementRegion", byType: "Manipulation/PlacementRegion", byGroup: "Manipulation/PlacementRegion" },
];

export const CATEGORIES: Category[] = ["TargetLocalization", "Navigation", "Manipulation"];
export const BY_GROUP_ORDER: string[] = [...new Set(LEAF_TASKS.map((t) => t.byGroup))];

export function leafTask(leaf: string): LeafTask | undefined {
  return LEAF_TASKS.find((t) => t.leaf === leaf);
}

/** The kind of scoring a leaf task gets (and so which reply keys it asks for). */
export type Scoring = "localization+count" | "localization" | "localization+feasibility" | "path";

export function scoringOf(task: LeafTask): Scoring {
  if (task.category === "TargetLocalization" || task.leaf === "VisualMatching" || task.group === "ContactRelationship") return "localization+count";
  if (task.leaf === "PlacementRegion") return "localization+feasibility";
  if (task.group === "FeasiblePath") return "path";
  return "localization";
}

/** Ground-truth mask and text fields per task (official config GT_FIELDS). */
export interface GtFields {
  localizationMask?: string;
  countField?: string;
  preciseCountFields?: string[];
  countInDescriptionField?: string;
  feasibilityFields?: string[];
  pathMask?: string;
  targetAreaMask?: string;
}

export function gtFields(task: LeafTask): GtFields {
  const counted = (mask: string, count: string, precise: string[]): GtFields => ({
    localizationMask: mask, countField: count, preciseCountFields: precise, countInDescriptionField: "count_in_description",
  });
  if (task.category === "TargetLocalization") return counted("masklet_target", "count_target_instance", ["precise_count"]);
  switch (task.group) {
    case "GroundDetection": return { localizationMask: "masklet_ground" };
    case "FeasiblePath": return { pathMask: "masklet_path", targetAreaMask: "masklet_target_area" };
    case "VisualMatching": return counted("masklet_matching_area", "count_matching_area", ["precise_count", "Precise_Count"]);
    case "AffordanceRegion": return { localizationMask: "masklet_affordance_region" };
    case "ContactRelationship": return counted("masklet_contact_target", "count_contact_target", ["precise_count"]);
    case "PlacementRegion": return { localizationMask: "masklet_placement_region", feasibilityFields: ["placement_feasibility", "placement_feasible"] };
  }
  return {};
}

/** The overlay file of a sample, by task (suffix after the sample id); Visual Matching's belongs to image a. */
export function overlaySuffix(task: LeafTask): string | undefined {
  switch (task.group) {
    case "FeasiblePath": return "_target_area_overlay.png";
    case "VisualMatching": return "_reference_area_overlay.png";
    case "AffordanceRegion": return "_reference_area_overlay.png";
    case "ContactRelationship": return "_reference_object_overlay.png";
    case "PlacementRegion": return "_reference_object_overlay.png";
  }
  return undefined;
}

/** Resolve the leaf task from a path below EPIC_Bench/ (the official folder rules). */
export function leafFromPath(parts: string[]): LeafTask | undefined {
  const at = parts.findIndex((p) => (CATEGORIES as string[]).includes(p));
  if (at < 0) return undefined;
  const category = parts[at] as Category;
  if (category === "TargetLocalization") return LEAF_TASKS.find((t) => t.category === category && t.group === parts[at + 1] && t.leaf === parts[at + 2]);
  const sub = parts[at + 1];
  if (sub === "FeasiblePath" || sub === "ContactRelationship") return LEAF_TASKS.find((t) => t.leaf === parts[at + 2]);
  return LEAF_TASKS.find((t) => t.category === category && t.leaf === sub);
}
