/** Webhooks sent to at the same time by one worker, overall and per receiver host. */
export const MAX_LANES = 128;
export const MAX_LANES_PER_HOST = 4;
/** Deliveries in flight at once in one worker, all webhooks together. */
export const MAX_IN_FLIGHT = 512;

export type Outcome = 'continue' | 'stop';

/** A counting semaphore: the worker-wide bound on requests in flight (MAX_IN_FLIGHT). */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

/** How long a lane's outcomes may wait to be written together, unless a full group is ready first. */
export interface GroupingOptions {
  /** the longest an outcome waits for others before its write starts (ms) */
  lingerMs: number;
  /** a group this large is written at once */
  fullAt: number;
}

const NO_LINGER: GroupingOptions = { lingerMs: 0, fullAt: 1 };

/**
 * Writes a lane's outcomes as they arrive: one write at a time, each taking every outcome that
 * arrived while the previous one ran, or within `lingerMs` of the first of them (until `fullAt`
 * have arrived). So an outcome waits at most one write and the linger (a crash repeats little more
 * than the requests in flight), and writes stay few when sends are fast: each costs a transaction,
 * which is most of a delivery's CPU when it holds only one or two outcomes.
 * Once the lane has stopped (the webhook is gone, the lease was lost, or a write failed), later
 * outcomes are dropped: those deliveries are still pending and will be sent again.
 */
export class LaneRecorder<T> {
  stopped = false;
  private pending: T[] = [];
  private writing: Promise<void> | null = null;
  private failure: unknown = null;
  /** ends the current linger early (a full group is ready) */
  private fill: (() => void) | null = null;

  constructor(
    private readonly write: (group: T[]) => Promise<Outcome>,
    /** called with every item once it is written or dropped */
    private readonly done: (item: T) => void = () => {},
    private readonly grouping: GroupingOptions = NO_LINGER,
  ) {}

  add(item: T): void {
    if (this.stopped) {
      this.done(item);
      return;
    }
    this.pending.push(item);
    if (this.pending.length >= this.grouping.fullAt) this.fill?.();
    // Only ever started with something to write, so `writing` is cleared by drain() itself.
    if (!this.writing) this.writing = this.drain();
  }

  /**
   * Resolves once everything added so far is written (or the lane stopped); a failed write throws.
   * Called when the lane has nothing more in flight.
   */
  async settled(): Promise<void> {
    // The lane is finishing: no more outcomes will join the group, so it is written now.
    this.fill?.();
    while (this.writing) await this.writing;
    if (this.failure) throw this.failure;
  }

  /** Waits up to lingerMs for a full group. */
  private linger(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.fill?.(), this.grouping.lingerMs);
      this.fill = () => {
        clearTimeout(timer);
        this.fill = null;
        resolve();
      };
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0 && !this.stopped) {
        if (this.grouping.lingerMs > 0 && this.pending.length < this.grouping.fullAt)
          await this.linger();
        const group = this.pending;
        this.pending = [];
        try {
          if ((await this.write(group)) === 'stop') this.stopped = true;
        } finally {
          group.forEach(this.done);
        }
      }
    } catch (err) {
      // Nobody awaits this promise: the lane learns of the failure at its next settled().
      this.failure = err;
      this.stopped = true;
    } finally {
      this.pending.forEach(this.done);
      this.pending = [];
      this.writing = null;
    }
  }
}
