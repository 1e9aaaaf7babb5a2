import { performance } from 'node:perf_hooks';

/**
 * Temporary capacity protection. A timer measures how late the event loop runs it (the lag); when
 * `strikes` samples in a row (3) are later than `maxLagMs`, the process is overloaded and /v1 requests
 * are refused with 429 until a sample is on time again. One long block (start-up, a big GC) is a
 * single late sample and does not trip it; sustained overload does.
 */
export class CapacityGuard {
  overloaded = false;
  private late = 0;
  private timer: NodeJS.Timeout | null = null;
  private expected = 0;

  constructor(
    readonly maxLagMs = 1000,
    readonly strikes = 3,
    readonly intervalMs = 250,
  ) {}

  /** Feeds one lag sample (ms). */
  record(lagMs: number): void {
    this.late = lagMs > this.maxLagMs ? this.late + 1 : 0;
    this.overloaded = this.late >= this.strikes;
  }

  /** Seconds a refused client should wait: one more sampling round after the lag we saw. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.maxLagMs + this.intervalMs) / 1000));
  }

  start(): void {
    if (this.timer) return;
    this.expected = performance.now() + this.intervalMs;
    this.timer = setInterval(() => {
      const now = performance.now();
      this.record(now - this.expected);
      this.expected = now + this.intervalMs;
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
