/**
 * Prompt text of the generated release, in our own words. The fields and the output contract are
 * the paper's (Table S2): numbered candidate points on one image, the start id, the target or a
 * person's request, the robot's 0.6 m body, and a JSON array of display ids as the answer.
 */

export const SYSTEM_PROMPTS = {
  perception: "You help a mobile robot understand the floor in front of it.",
  planning: "You plan routes for a mobile robot over the numbered points in its camera image.",
  embodied: "You are a mobile robot with a round body. Using the numbered points in the image, plan a route your whole body can follow without touching anything.",
  intent:
    "You are a mobile robot with a round body. A person asks for something without naming the object they need; work out which object in the scene serves the request, then plan a route your whole body can follow to it without touching anything.",
} as const;

const POINTS = "The image is marked with numbered candidate points.";

export function pointTraversabilityPrompt(): string {
  return `${POINTS} Reply with a JSON array of the numbers of every point a person could walk to and stand on.`;
}

export function embodiedTraversabilityPrompt(diameterM: number): string {
  return `${POINTS} The robot is round and ${diameterM.toFixed(1)} m across. Reply with a JSON array of the numbers of every point where the robot's body fits.`;
}

export function pointPathPrompt(start: number, target: string): string {
  return `${POINTS} Begin at point ${start} and go to the ${target}. Reply with the route as a JSON array of point numbers, in order.`;
}

export function embodiedPathPrompt(start: number, target: string, diameterM: number): string {
  return `${POINTS} You are the robot; your body is ${diameterM.toFixed(1)} m across. Begin at point ${start} and go to the ${target}. Reply with the route as a JSON array of point numbers, in order, that your body can follow without collisions.`;
}

export function intentPathPrompt(start: number, request: string, diameterM: number): string {
  return `${POINTS} You are the robot; your body is ${diameterM.toFixed(1)} m across. Begin at point ${start}. A person tells you: "${request}" Reply with a collision-free route to the object they need, as a JSON array of point numbers, in order.`;
}
