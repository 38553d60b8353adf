/**
 * What a benchmark's loader checks beyond scoring when it is asked to: everything a request
 * needs (the fields each task's prompt reads, the media files it sends, frames a video must
 * have). `validate` asks for it (for the prompt variant given with --prompt, else the default);
 * `run` asks for it with the variant it runs (core/session.ts), so that a clean `validate` means a model's
 * run can start on every item and `run` refuses what `validate` reports. `score` and the reports
 * do not send requests and leave it out (they stay fast: no video is probed).
 */
import type { DataRootOptions } from "../core/dataroot.js";

export interface RequestOptions {
  /** The prompt source / variant the requests are built with (the benchmark's --prompt). */
  source: string;
  /** The control, for benchmarks that have them (--control). */
  control?: string;
  /** A template file given with --template (the placeholders it uses are the fields needed). */
  templateFile?: string;
}

/** Load options with the request checks asked for. */
export interface RequestCheckedLoad extends DataRootOptions {
  requests?: RequestOptions;
}
