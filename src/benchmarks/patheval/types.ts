import type { DescriptorName, Descriptors } from "./scenarios.js";

export type Dim = "2D" | "3D";
export type PathName = "Path 1" | "Path 2";

/** One PathEval question: a scenario and a pair of paths shown side by side (Path 1 left). */
export interface PathEvalItem {
  /** "<dim>/<record id>" */
  id: string;
  /** The record's own id. */
  recordId: string | number;
  task: Dim;
  /** Bootstrap cluster: the environment when known, else the record. */
  cluster: string;
  /** The side-by-side image (absolute path). */
  imagePath: string;
  /** The record's question text (the release's human turn). */
  question: string;
  /** Scenario id 1..15 when known (generated sets store it; release texts are matched by their agent). */
  scenarioId?: number;
  truth: PathName;
  metrics: Record<PathName, Descriptors>;
  /** The two paths' points, when the record carries them (generated sets). */
  paths?: Record<PathName, Array<[number, number]>>;
  environment?: string;
  source: { file: string; index: number };
  /** Set on the probe items derived from records (attribute abstraction, fine-grained perception). */
  probe?: AbstractionProbe | FineGrainedProbe;
}

/** "Which descriptors matter for this scenario, and in which direction?" (truth: Table 7). */
export interface AbstractionProbe {
  kind: "attribute-abstraction";
  scenarioId: number;
}

/** "Which path has the smaller <descriptor>?" (Table 8). */
export interface FineGrainedProbe {
  kind: "fine-grained";
  descriptor: DescriptorName;
  /** The path with the smaller value. */
  smaller: PathName;
  difference: number;
  /** The largest ε subset the pair belongs to (ε1 ⊇ ε2 ⊇ ε3), or "below" when under ε1. */
  level: "below" | "ε1" | "ε2" | "ε3";
}

/** A record in the release's JSON format (train/test files), with our optional extra fields. */
export interface PathEvalRecord {
  id: string | number;
  image: string;
  conversations: Array<{ from: string; value: string }>;
  metrics: Record<PathName, Descriptors>;
  scenario_id?: number;
  scenario?: string;
  environment?: string;
  paths?: Record<PathName, Array<[number, number]>>;
}
