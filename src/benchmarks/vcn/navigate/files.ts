/** The files of a navigation run folder (runner.ts writes them; the reports and the viewer read them). */

/** What the run is (agent, mode, intervention, data, settings); a resumed run must match it. */
export const RUN_HEADER = "navigate.json";
/** One EpisodeRecord per line. */
export const EPISODES_FILE = "episodes.jsonl";

/** An episode or scene id as a folder name (ids are data: anything but [A-Za-z0-9._-] becomes _). */
export function safeName(id: string): string {
  const name = id.replace(/[^A-Za-z0-9._-]+/g, "_");
  return name === "" || name === "." || name === ".." ? `_${name}` : name;
}
