import { WINDOW_MS } from './limits.js';

/** Bucket kinds: a system that proved its key, a system name without a valid key, an API key (or address). */
export const VERIFIED_SYSTEM = 0;
export const CLAIMED_SYSTEM = 1;
export const KEY_BUCKET = 2;

/** The outcome of one check, filled in place (one small object per request, nothing else allocated). */
export interface Decision {
  allowed: boolean;
  /** requests left in the window after this one */
  remaining: number;
  /** ms until the oldest request in the window leaves it (a slot frees); 0 when the window is empty */
  resetMs: number;
}

/** Where the sliding windows live: this process, or Redis when several instances must share them. */
export interface WindowStore {
  readonly name: 'memory' | 'redis';
  /**
   * Exact sliding window: allowed iff fewer than `limit` requests were allowed in the preceding
   * WINDOW_MS (timestamps t with now - WINDOW_MS < t <= now); an allowed request is recorded.
   */
  hit(
    kind: number,
    id: string,
    context: number,
    limit: number,
    now: number,
    out: Decision,
  ): void | Promise<void>;
  /** Reads the window without recording anything (for responses refused before the limiter ran). */
  peek(
    kind: number,
    id: string,
    context: number,
    limit: number,
    now: number,
    out: Decision,
  ): void | Promise<void>;
  /** Forgets buckets idle for a whole window. */
  sweep(now: number): void;
  close(): Promise<void>;
}

/** Timestamps of allowed requests, oldest first, in a ring that grows up to the limit. */
class Ring {
  times: Float64Array;
  head = 0;
  count = 0;

  constructor(capacity: number) {
    this.times = new Float64Array(capacity);
  }

  prune(edge: number): void {
    const { times } = this;
    const cap = times.length;
    while (this.count > 0 && times[this.head] <= edge) {
      this.head = this.head + 1 === cap ? 0 : this.head + 1;
      this.count--;
    }
  }

  oldest(): number {
    return this.times[this.head];
  }

  newest(): number {
    return this.times[(this.head + this.count - 1) % this.times.length];
  }

  push(at: number): void {
    if (this.count === this.times.length) {
      const bigger = new Float64Array(this.times.length * 2);
      for (let i = 0; i < this.count; i++)
        bigger[i] = this.times[(this.head + i) % this.times.length];
      this.times = bigger;
      this.head = 0;
    }
    this.times[(this.head + this.count) % this.times.length] = at;
    this.count++;
  }
}

function fill(
  ring: Ring | undefined,
  limit: number,
  now: number,
  out: Decision,
  allowed: boolean,
): void {
  out.allowed = allowed;
  const count = ring ? ring.count : 0;
  out.remaining = limit > count ? limit - count : 0;
  out.resetMs = count > 0 ? ring!.oldest() + WINDOW_MS - now : 0;
}

/** Windows held in this process: per bucket an array of rings indexed by context. */
export class MemoryWindowStore implements WindowStore {
  readonly name = 'memory' as const;
  private readonly buckets: Map<string, (Ring | undefined)[]>[] = [new Map(), new Map(), new Map()];

  hit(kind: number, id: string, context: number, limit: number, now: number, out: Decision): void {
    const map = this.buckets[kind];
    let rings = map.get(id);
    if (rings === undefined) {
      rings = [];
      map.set(id, rings);
    }
    let ring = rings[context];
    if (ring === undefined) {
      ring = new Ring(limit < 16 ? Math.max(limit, 1) : 16);
      rings[context] = ring;
    } else {
      ring.prune(now - WINDOW_MS);
    }
    if (ring.count < limit) {
      ring.push(now);
      fill(ring, limit, now, out, true);
    } else {
      fill(ring, limit, now, out, false);
    }
  }

  peek(kind: number, id: string, context: number, limit: number, now: number, out: Decision): void {
    const ring = this.buckets[kind].get(id)?.[context];
    ring?.prune(now - WINDOW_MS);
    fill(ring, limit, now, out, ring === undefined || ring.count < limit);
  }

  sweep(now: number): void {
    const edge = now - WINDOW_MS;
    for (const map of this.buckets) {
      for (const [id, rings] of map) {
        if (rings.every((ring) => ring === undefined || ring.count === 0 || ring.newest() <= edge))
          map.delete(id);
      }
    }
  }

  /** Number of buckets held (for tests of the idle clean-up). */
  size(): number {
    return this.buckets.reduce((n, map) => n + map.size, 0);
  }

  async close(): Promise<void> {
    for (const map of this.buckets) map.clear();
  }
}
