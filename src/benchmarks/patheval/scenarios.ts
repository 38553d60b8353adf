/**
 * The seven path descriptors and the fifteen decision scenarios of PathEval (paper Tables 6-7).
 * Scenario wording is ours (same agent and the same descriptor directions as the paper); sets
 * loaded from the release keep the release's own text.
 */

/** Descriptor keys, in the release's order and spelling. */
export const DESCRIPTORS = [
  "Minimum clearance",
  "Maximum clearance",
  "Average clearance",
  "Path length",
  "Smoothness",
  "Sharp turns",
  "Maximum angle",
] as const;

export type DescriptorName = (typeof DESCRIPTORS)[number];
export type Descriptors = Record<DescriptorName, number>;

/** -1: smaller is better; 1: larger is better; 0: does not matter for the scenario. */
export type Direction = -1 | 0 | 1;
export type Directions = Partial<Record<DescriptorName, Direction>>;

/** Minimum difference for a descriptor to decide (paper §3; equal to the threshold counts). */
export const PAPER_THRESHOLDS: Descriptors = {
  "Minimum clearance": 0.8,
  "Maximum clearance": 0.8,
  "Average clearance": 0.8,
  "Path length": 50,
  "Smoothness": 90,
  "Sharp turns": 1,
  "Maximum angle": 30,
};

export interface Scenario {
  id: number;
  agent: string;
  /** Our wording of the scenario (used for generated sets). */
  text: string;
  directions: Directions;
}

const turns: Directions = { "Sharp turns": -1, "Maximum angle": -1, "Smoothness": -1 };
const keepAway: Directions = { "Minimum clearance": 1, "Average clearance": 1 };

export const SCENARIOS: Scenario[] = [
  {
    id: 1, agent: "large truck", directions: { ...turns },
    text: "A large truck must drive through this maze in dense traffic. Turns of 90 degrees or more are hard for it, and between turns it should keep going straight.",
  },
  {
    id: 2, agent: "firefighting robot", directions: { ...keepAway, "Path length": 1 },
    text: "A firefighting robot searches a burning building for fires and trapped people. It should cover as much ground as it can while staying well away from the walls, which may be damaged.",
  },
  {
    id: 3, agent: "military vehicle", directions: { "Average clearance": -1, "Maximum clearance": -1, "Path length": -1 },
    text: "A vehicle crossing a war zone has to stay hidden: it should hug walls and other cover and avoid open ground, and it should reach point 2 as fast as possible.",
  },
  {
    id: 4, agent: "delivery drone", directions: { ...keepAway, "Path length": -1, ...turns },
    text: "A delivery drone carries a parcel from point 1 to point 2 with little fuel, so its route must be as short as possible. For a steady flight it should keep clear of the buildings and fly as straight as it can.",
  },
  {
    id: 5, agent: "aid robot", directions: { "Minimum clearance": 1, "Path length": -1 },
    text: "A robot rushes an aid package from point 1 to point 2 through an area hit by an earthquake. It must get there quickly, and at no moment may it come close to a wall that could collapse on it.",
  },
  {
    id: 6, agent: "museum robot", directions: { "Minimum clearance": 1, "Sharp turns": -1, "Smoothness": -1 },
    text: "A robot moves through a museum whose walls hold fragile, valuable artworks. It must never come near or touch a wall, and it should avoid abrupt turns that could alarm visitors.",
  },
  {
    id: 7, agent: "articulated bus", directions: { ...turns },
    text: "A long articulated bus has to cross this construction site, and it struggles with turns of 90 degrees or more.",
  },
  {
    id: 8, agent: "combine harvester", directions: { ...keepAway },
    text: "A wide combine harvester drives along this trail. Its driver sees obstacles poorly, so anything close to its route is hard to avoid.",
  },
  {
    id: 9, agent: "forklift", directions: { "Minimum clearance": 1, ...turns },
    text: "A long forklift works in a busy warehouse. Sharp or sudden turns are difficult for it, and it must keep a safe distance from obstacles at all times.",
  },
  {
    id: 10, agent: "mobile crane", directions: { ...turns },
    text: "A crane with a long boom has to move across a crowded construction site; sharp turns and tight passages are very hard for it.",
  },
  {
    id: 11, agent: "autonomous taxi", directions: { ...keepAway, ...turns },
    text: "A self-driving taxi drives its passengers through busy city streets. It should make as few sharp turns as it can, take every left or right turn gently for comfort and safety, and keep a safe distance from everything around it.",
  },
  {
    id: 12, agent: "Mars rover", directions: { "Path length": -1, "Sharp turns": -1, "Smoothness": -1 },
    text: "A Mars rover travels from point 1 to point 2 across the Martian surface. To save energy it should take the shortest route and avoid needless turning; turns sharper than 90 degrees cost extra power and strain its navigation system.",
  },
  {
    id: 13, agent: "guide vehicle", directions: { ...keepAway, ...turns },
    text: "A small vehicle guides a blind person through a shopping centre. For the person's safety and comfort it should move in straight lines without sudden or sharp turns, and keep away from the walls.",
  },
  {
    id: 14, agent: "soil-monitoring robot", directions: { "Average clearance": -1, "Maximum clearance": -1, "Path length": 1 },
    text: "A robot collects soil-health data across farm fields. It should cover as much of the field as possible and pass as close to the walls as it can, where the sensors it must read are mounted.",
  },
  {
    id: 15, agent: "inspection robot", directions: { "Average clearance": -1, "Maximum clearance": -1, "Path length": 1, ...turns },
    text: "A robot inspects a nuclear power plant for radiation leaks and structural damage. In a single mission it should visit as many sections as possible and stay close to the walls to spot small leaks or cracks, while following the straightest route possible without sudden or sharp turns.",
  },
];

export function scenarioById(id: number): Scenario {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new RangeError(`scenario id must be 1..15, got ${id}`);
  return scenario;
}

/** The descriptors that matter for a scenario (the attribute-abstraction probe's truth, Table 7). */
export function relevantDescriptors(directions: Directions): DescriptorName[] {
  return DESCRIPTORS.filter((d) => (directions[d] ?? 0) !== 0);
}
