import { createRng, seedFromString } from "../../stats/rng.js";
import { labelDetail } from "./label.js";
import { leftPath, type ShownPair } from "./prompt.js";
import { abstractionFormatOf, trueStances } from "./probes.js";
import { DESCRIPTORS, scenarioById } from "./scenarios.js";
import type { PathEvalItem } from "./types.js";

/** Built-in models; they reply in the prompt's answer format with the names shown. */
const answer = (shown: ShownPair, left: boolean) => `Answer: ${left ? shown.names[0] : shown.names[1]}.\nExplanation: built-in baseline.`;
const WORD = { "-1": "smaller", "0": "irrelevant", "1": "larger" } as const;
const stances = (pick: (d: (typeof DESCRIPTORS)[number]) => -1 | 0 | 1) => DESCRIPTORS.map((d) => `${d}: ${WORD[String(pick(d)) as "-1" | "0" | "1"]}`).join("\n");
/** The paper's list format (App. C.1.3): "Answer: a; b" with the descriptors picked. */
const list = (pick: (d: (typeof DESCRIPTORS)[number]) => boolean) => `Answer: ${DESCRIPTORS.filter(pick).join("; ") || "none"}.\nExplanation: built-in baseline.`;
const isList = (item: PathEvalItem) => item.probe?.kind === "attribute-abstraction" && abstractionFormatOf(item.probe) === "list";

export const pathevalBaselines: Record<string, { describe: string; reply: (item: PathEvalItem, seed: number, prompt: Record<string, unknown>) => string }> = {
  random: {
    describe: "a seeded coin flip (chance level 0.5)",
    reply: (item, seed, prompt) => {
      const rng = createRng(seedFromString(item.id, seed));
      if (isList(item)) return list(() => rng.next() < 0.5);
      if (item.probe?.kind === "attribute-abstraction") return stances(() => (rng.below(3) - 1) as -1 | 0 | 1);
      return answer(prompt as unknown as ShownPair, rng.next() < 0.5);
    },
  },
  "always-first": {
    describe: "always the path on the left (shows the position-bias floor)",
    reply: (item, _seed, prompt) => (isList(item) ? list((d) => d === DESCRIPTORS[0]) : item.probe?.kind === "attribute-abstraction" ? stances(() => 0) : answer(prompt as unknown as ShownPair, true)),
  },
  "descriptor-oracle": {
    describe: "decides from the true descriptors by the scenario's rule (upper bound for a perfect perceiver)",
    reply: (item, _seed, prompt) => {
      const shown = prompt as unknown as ShownPair;
      const probe = item.probe;
      if (probe?.kind === "attribute-abstraction" && isList(item)) return list((d) => trueStances(probe.scenarioId)[d] !== 0);
      if (probe?.kind === "attribute-abstraction") return stances((d) => trueStances(probe.scenarioId)[d]);
      if (probe?.kind === "fine-grained") return answer(shown, probe.smaller === leftPath(shown));
      if (item.scenarioId === undefined) return "Answer: unknown scenario.";
      const { label } = labelDetail(item.metrics["Path 1"], item.metrics["Path 2"], scenarioById(item.scenarioId).directions);
      if (label === "Unresolved") return "Answer: neither path is clearly better.";
      return answer(shown, label === leftPath(shown));
    },
  },
};
