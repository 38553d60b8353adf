/**
 * Built-in models (no key, no network). They choose among the frames the prompt showed and reply
 * with the label the prompt used ({"frame": n}), so shuffled-frames and thinning apply to them
 * like to any model. Their exact expectations are in scores.json (chance levels; chance over the
 * shown frames when a prompt showed fewer than the whole tour).
 */
import { createRng, seedFromString } from "../../stats/rng.js";
import { frameInCategory, frameSucceeds } from "./chance.js";
import { planShown, shownLabels } from "./prompt.js";
import { shownOf } from "./score.js";
import type { ShownFrames, VcnItem } from "./types.js";

type Baseline = { describe: string; reply: (item: VcnItem, seed: number, prompt: Record<string, unknown>) => string };

function shownFor(item: VcnItem, prompt: Record<string, unknown>): ShownFrames {
  return shownOf(prompt) ?? planShown(item, "plain", 0);
}

const reply = (label: number) => JSON.stringify({ frame: label });

/** Pick uniformly (seeded per item) among the shown positions that pass `keep` (all when none pass). */
function pick(item: VcnItem, seed: number, prompt: Record<string, unknown>, salt: string, keep: (tourIndex: number) => boolean): string {
  const shown = shownFor(item, prompt);
  const labels = shownLabels(shown);
  const positions = shown.shown.map((_, k) => k);
  const eligible = positions.filter((k) => keep(shown.shown[k]!));
  const pool = eligible.length > 0 ? eligible : positions;
  const rng = createRng(seedFromString(`${item.id}#${salt}`, seed));
  return reply(labels[rng.pick(pool)]!);
}

export const vcnBaselines: Record<string, Baseline> = {
  random: {
    describe: "a seeded uniform random frame among those shown (expectation: the complete chance level)",
    reply: (item, seed, prompt) => pick(item, seed, prompt, "random", () => true),
  },
  "random-category": {
    describe: "a seeded uniform random frame among the shown frames of the target's category (expectation: the category chance level)",
    reply: (item, seed, prompt) => pick(item, seed, prompt, "random-category", (i) => frameInCategory(item.target, item.annotations[i]!)),
  },
  oracle: {
    describe: "the first shown frame that satisfies the success rule (upper bound; 0 only when thinning hid every success frame)",
    reply: (item, _seed, prompt) => {
      const shown = shownFor(item, prompt);
      const k = shown.shown.findIndex((i) => frameSucceeds(item.target, item.annotations[i]!));
      return reply(shownLabels(shown)[Math.max(0, k)]!);
    },
  },
  "first-frame": {
    describe: "always the first frame shown (an order-bias floor)",
    reply: (item, _seed, prompt) => reply(shownLabels(shownFor(item, prompt))[0]!),
  },
  "last-frame": {
    describe: "always the last frame shown (an order-bias control: a window that ends as the target room is entered gives its answer away here)",
    reply: (item, _seed, prompt) => reply(shownLabels(shownFor(item, prompt)).at(-1)!),
  },
};
