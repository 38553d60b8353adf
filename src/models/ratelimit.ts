/**
 * Requests-per-minute limiter (a token bucket kept as one "next free slot" time, i.e. GCRA).
 * With the default burst of 1, grants are spaced evenly 60 000 / rpm ms apart.
 */
import { sleep as realSleep, type SleepFn } from "./retry.js";

export interface Clock {
  now(): number;
  sleep: SleepFn;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: realSleep };

export interface RateLimiterOptions {
  /** Grants allowed back to back after an idle spell (default 1). */
  burst?: number;
  clock?: Clock;
}

export class RateLimiter {
  readonly rpm: number;
  readonly intervalMs: number;
  private readonly toleranceMs: number;
  private readonly clock: Clock;
  /** Theoretical arrival time of the next grant. */
  private tat = -Infinity;

  constructor(rpm: number, options: RateLimiterOptions = {}) {
    if (!(rpm > 0) || !Number.isFinite(rpm)) throw new RangeError(`rpm must be a positive number, got ${rpm}`);
    this.rpm = rpm;
    this.intervalMs = 60_000 / rpm;
    this.toleranceMs = (Math.max(1, Math.floor(options.burst ?? 1)) - 1) * this.intervalMs;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Wait for a slot. Slots are reserved in call order; an abort while waiting hands the slot
   * back when no later caller has reserved after it, and rejects with the signal's reason.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    const now = this.clock.now();
    const tat = Math.max(this.tat, now);
    const grantAt = Math.max(now, tat - this.toleranceMs);
    const reservedTat = (this.tat = tat + this.intervalMs);
    if (grantAt <= now) return;
    try {
      await this.clock.sleep(grantAt - now, signal);
    } catch (err) {
      if (this.tat === reservedTat) this.tat -= this.intervalMs;
      throw err;
    }
  }
}
