/**
 * EPIC-Bench task names, spelled as the official code spells them (epic_eval/config.py,
 * tools/formatting/format_response.py). 3 categories, 9 groups, 23 task types.
 */

export const EPIC_CATEGORIES = ["TargetLocalization", "Navigation", "Manipulation"] as const;
export type EpicCategory = (typeof EPIC_CATEGORIES)[number];

/** Target Localization groups and their leaves, in the order of the official summary tables. */
export const TL_GROUPS = {
  BasicAttributes: ["Category", "Color", "Geometry", "Material", "ObjectProjections", "RelativePerception"],
  SpatialRelatedAttributes: ["Orientation", "OrientationHuman", "SpatialRelation", "SpatialRelationHuman"],
  EmbodiedCompositionalAttributes: ["ObjectState", "PartWhole", "PartWholeHuman", "Spoken"],
} as const;
export type TlGroup = keyof typeof TL_GROUPS;
export type TlLeaf = (typeof TL_GROUPS)[TlGroup][number];
export const TL_LEAVES: readonly TlLeaf[] = Object.values(TL_GROUPS).flat();

export const NAVIGATION_TASKS = ["GroundDetection", "FeasiblePath_Ego", "FeasiblePath_Exo", "VisualMatching"] as const;
export const MANIPULATION_TASKS = [
  "AffordanceRegion",
  "ContactRelationship_TypeOne",
  "ContactRelationship_TypeTwo",
  "ContactRelationship_TypeThree",
  "PlacementRegion",
] as const;

/** The 23 task types a release sample can have. */
export const EPIC_TASK_TYPES = [...TL_LEAVES, ...NAVIGATION_TASKS, ...MANIPULATION_TASKS] as const;
export type EpicTaskType = TlLeaf | (typeof NAVIGATION_TASKS)[number] | (typeof MANIPULATION_TASKS)[number];

/**
 * Base names the official path parser falls back to when a FeasiblePath / ContactRelationship
 * folder has no recognised sub-folder. The formatter handles them like their sub-types.
 */
export const EPIC_BASE_TASK_TYPES = ["FeasiblePath", "ContactRelationship"] as const;
export type EpicBaseTaskType = (typeof EPIC_BASE_TASK_TYPES)[number];

const CATEGORY_OF = new Map<string, EpicCategory>([
  ...TL_LEAVES.map((leaf) => [leaf, "TargetLocalization"] as const),
  ...[...NAVIGATION_TASKS, "FeasiblePath"].map((t) => [t, "Navigation"] as const),
  ...[...MANIPULATION_TASKS, "ContactRelationship"].map((t) => [t, "Manipulation"] as const),
]);

/** The category of a task type (sub-types and the two base names included); undefined if unknown. */
export function categoryOf(taskType: string): EpicCategory | undefined {
  return CATEGORY_OF.get(taskType);
}

/** The Target Localization group of a leaf; undefined for other task types. */
export function tlGroupOf(taskType: string): TlGroup | undefined {
  for (const [group, leaves] of Object.entries(TL_GROUPS) as Array<[TlGroup, readonly string[]]>) {
    if (leaves.includes(taskType)) return group;
  }
  return undefined;
}
