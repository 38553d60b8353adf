/**
 * Closing the window between a provider accepting a batch and the store recording its id: each
 * batch is first written as an intent (store.ts BatchIntent) under a random id, submitted with
 * that id where the API keeps a label (OpenAI metadata, Gemini display_name), and the intent is
 * replaced by the batch record once the id is known. A run killed in between finds the intent on
 * restart and looks for its batch in the provider's listing (locateIntent) before sending anything.
 */
import { randomBytes } from "node:crypto";
import type { BatchIntent } from "../../store/store.js";
import type { BatchApi, BatchContext, ListedBatch } from "./types.js";

/** A fresh intent id: 16 hex characters (64 random bits). */
export function newIntentId(): string {
  return randomBytes(8).toString("hex");
}

/** Pages of the listing read at most, and how far before an intent (clock skew) a batch may be dated. */
export const LIST_PAGE_CAP = 20;
export const CLOCK_SKEW_MS = 10 * 60 * 1000;

export type Located = { kind: "found"; id: string; state: string } | { kind: "absent" } | { kind: "undecided"; why: string };

/**
 * Where the batch of an intent is. The decision rule:
 * - found: a listed batch carries the intent's id (findBy "tag": OpenAI, Gemini); or, for
 *   Anthropic, which keeps no label on a batch (findBy "created"), the oldest batch listed above
 *   `listed_after` (the newest batch the provider listed just before the submit: the list is
 *   newest first) that holds as many requests as the intent and is not recorded in this store
 *   (`known`). Creation order needs no clock agreement with the provider, and results (custom
 *   ids) come only once a batch has ended, up to 24 h later. A wrong pick (another client's
 *   batch of the same size created in that instant) cannot store a wrong answer: a custom id is
 *   the request's store key, so results are stored only under the keys they answer and the
 *   requests it lacks become errors that --retry-errors asks again.
 * - absent: the listing was complete for the intent (it ended, or reached `listed_after`, or,
 *   newest first, batches created before the intent − CLOCK_SKEW_MS) and nothing matched: the
 *   submit never reached the provider, so its requests are submitted again.
 * - undecided: LIST_PAGE_CAP pages read without completing; nothing is resubmitted.
 */
export async function locateIntent(api: BatchApi, context: BatchContext, intent: BatchIntent, known: ReadonlySet<string>): Promise<Located> {
  const since = Date.parse(intent.created_at) - CLOCK_SKEW_MS;
  /** Anthropic: batches above the watermark that could be ours, newest first. */
  const candidates: ListedBatch[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < LIST_PAGE_CAP; page++) {
    const { batches, next } = await api.list(context, cursor);
    let complete = !next;
    for (const batch of batches) {
      if (api.findBy === "tag" && batch.intent === intent.intent) return { kind: "found", id: batch.id, state: batch.state };
      if (api.newestFirst && ((intent.listed_after && batch.id === intent.listed_after) || (batch.createdMs !== undefined && batch.createdMs < since))) {
        complete = true;
        break;
      }
      if (api.findBy === "created" && batch.requests === intent.requests.length && !known.has(batch.id)) candidates.push(batch);
    }
    if (complete) {
      const oldest = candidates.at(-1);
      return oldest ? { kind: "found", id: oldest.id, state: oldest.state } : { kind: "absent" };
    }
    cursor = next;
  }
  return { kind: "undecided", why: `${LIST_PAGE_CAP} pages of the provider's batch list read without reaching the batches listed before the intent` };
}

/**
 * Test hook (batch-window.test.ts): SPATIALPROBE_TEST_KILL_AT=before-submit | after-submit kills
 * the process with SIGKILL at that point of a batch's submission, as `kill -9` would: after the
 * intent is committed and before the submit call, or after the provider accepted the batch and
 * before its id is stored. Unset in normal use.
 */
export function testKillPoint(point: "before-submit" | "after-submit"): void {
  if (process.env.SPATIALPROBE_TEST_KILL_AT === point) process.kill(process.pid, "SIGKILL");
}
