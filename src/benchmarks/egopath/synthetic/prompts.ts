/**
 * Prompt text for the synthetic release, in our own words. It keeps the release's contract:
 * numbered markers on one image, answers as a JSON array of marker numbers.
 */

export const SYSTEM_PROMPT =
  "You see the view from a camera on a robot standing in an indoor room. Numbered circular markers " +
  "are drawn on the image; each marks a candidate spot on the floor and is named by its number " +
  "(its waypoint id). Answer only with a JSON array of waypoint ids, for example [1, 4, 6], and no other text.";

export function pointTraversabilityPrompt(): string {
  return (
    "Which numbered waypoints are on free, walkable floor, rather than on or under furniture or other " +
    "objects? List every such waypoint id as a JSON array."
  );
}

export function embodiedTraversabilityPrompt(diameterM: number): string {
  return (
    `A round robot ${diameterM} m wide must stand centred on a waypoint. Which numbered waypoints are on ` +
    "free, walkable floor with enough room around them for the robot's body, away from furniture and " +
    "walls? List every such waypoint id as a JSON array."
  );
}

const routeRules = (start: number): string =>
  `Answer with the route as an ordered JSON array of waypoint ids starting at ${start}. Move only between ` +
  "waypoints that are directly reachable from one another in a straight line, and end at a waypoint " +
  "next to the goal.";

export function pointRoutePrompt(start: number, color: string, category: string): string {
  return `Plan a route from waypoint ${start} to the ${color} ${category}. ${routeRules(start)}`;
}

export function embodiedRoutePrompt(start: number, color: string, category: string, diameterM: number): string {
  return (
    `A round robot ${diameterM} m wide stands at waypoint ${start}. Plan a route for it to the ` +
    `${color} ${category}; every straight move must leave room for the robot's body. ${routeRules(start)}`
  );
}

export function intentRoutePrompt(start: number, intent: string, diameterM: number): string {
  return (
    `A round robot ${diameterM} m wide stands at waypoint ${start}. Its user says: "${intent}" Plan a route ` +
    `for the robot to the object in the room that best serves this; every straight move must leave room ` +
    `for the robot's body. ${routeRules(start)}`
  );
}

/** Intent families for task c: what a user says, and the furniture that serves it. */
export const INTENTS: ReadonlyArray<{ family: string; categories: readonly string[]; texts: readonly string[] }> = [
  {
    family: "sit_rest",
    categories: ["sofa", "chair"],
    texts: ["I want to sit down and rest for a while.", "My legs are tired, I need somewhere to sit."],
  },
  {
    family: "lie_down",
    categories: ["bed"],
    texts: ["I'd like to lie down and take a short nap.", "I'm exhausted and want to stretch out flat."],
  },
  {
    family: "place_item",
    categories: ["table"],
    texts: ["I need somewhere to put my cup down.", "Where can I set down this plate of food?"],
  },
  {
    family: "store_item",
    categories: ["cabinet"],
    texts: ["I want to put these folded towels away.", "I need a place to store some books out of sight."],
  },
];
