/**
 * The records of a closed-loop VCN-Bench navigation run (`spatialprobe navigate vcn`): one
 * EpisodeRecord per line of episodes.jsonl, each with every step the agent took.
 */
import type { EpisodeEnd, NavAction, Vec3, ViewName } from "../../../sim/types.js";

/** How one model reply was read (navigate/reply.ts). */
export type ReplyReading =
  | {
      ok: true;
      /** The prior-video frame the reply names as the goal (goal identification at this step), null when it names none. */
      frame: number | null;
      /** Action mode: the action. */
      action?: NavAction;
      /** Waypoint mode: a pixel of one current view ... */
      view?: ViewName;
      pixel?: [number, number];
      /** ... and whether to stop once there (or, with no pixel, at once). */
      stop?: boolean;
      rule: string;
    }
  | { ok: false; reason: string };

/** One decision of the agent (one model call for model agents). */
export interface Decision {
  /** Index of the decision in the episode, from 0. */
  index: number;
  /** Actions taken before this decision. */
  at_step: number;
  /** Model agents: the reply text (capped), how it was read, the store key and usage. */
  reply?: string;
  reading?: ReplyReading;
  request_key?: string;
  cached?: boolean;
  /** Milliseconds the provider took (stored replies: the original call's). */
  latency_ms?: number;
  usage?: { input_tokens?: number; output_tokens?: number };
  /** A provider error that persisted after retries: the episode stops here with status "error". */
  error?: { kind: string; status?: number; message: string };
  /** What the decision asked for: one action, or a point the executor drives to. */
  kind: "action" | "goto" | "none";
  action?: NavAction;
  goto?: { targets: Vec3[]; radius_m: number; then: "stop" | "decide"; why: string };
  /** Goal identification at this decision: the frame named and whether it is a success frame. */
  goal_frame?: number | null;
  goal_correct?: boolean | null;
}

/** One primitive action and where it left the agent. */
export interface StepRecord {
  /** 1-based: the t-th action of the episode. */
  t: number;
  action: NavAction;
  position: Vec3;
  heading_deg: number;
  collided: boolean;
  /** The decision this action carries out. */
  decision: number;
  /** Observation pictures saved for the viewer (relative to the run folder), when saved. */
  views?: string;
}

export type EpisodeStatus =
  /** The episode ended (STOP, action limit, unreadable reply, executor stuck). */
  | "done"
  /** A provider error persisted; the trajectory is incomplete and the episode is not scored. */
  | "error";

export interface EpisodeRecord {
  episode_id: string;
  scene_id: string;
  task_type: string | null;
  agent: string;
  /** The intervention (§6.3) the run used: "none", "shuffled-prior", "counterfactual", "no-prior", "oracle-frame". */
  intervention: string;
  status: EpisodeStatus;
  /**
   * How it ended: the environment's end; "unreadable-reply" (no move could be read); "no-path"
   * (the executor's target cannot be reached); "stalled" (STALL_DECISIONS decisions in a row moved
   * nothing); "error" (a provider error).
   */
  end: EpisodeEnd | "unreadable-reply" | "no-path" | "stalled" | "error";
  start: { position: Vec3; heading_deg: number; views?: string };
  steps: StepRecord[];
  decisions: Decision[];
  /** The instruction as sent (counterfactual runs: the rewritten one). */
  instruction: string;
  /** Prior-video attributes (Fig. 7): frames, rooms covered, floor area covered (m^2); null without a goal-identification item. */
  prior: { frames: number; rooms: number; area_m2: number | null } | null;
  /** The environment's geodesic distance to the nearest goal view point at the start and at the end (null: unreachable). */
  shortest_path_m: number | null;
  final_distance_m: number | null;
  wall_ms: number;
}
