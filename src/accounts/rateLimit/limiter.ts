import type { Redis } from 'ioredis';
import type { AppContext } from '../../platform/context.js';
import { systemClock } from '../../platform/time.js';
import { LimitTable, type StoredOverride, type Tier, WINDOW_SECONDS } from './limits.js';
import { loadOverrides } from './overrides.js';
import { presentHourlyUsage, presentUsage } from './report.js';
import {
  DbUsageStore,
  HOUR_MS,
  hourStart,
  RedisUsageStore,
  UsageCounter,
  type UsageStore,
} from './usage.js';
import { connectRedis, RedisWindowStore, waitUntilReady } from './redis-window.js';
import { MemoryWindowStore, type WindowStore } from './window.js';

/** How often usage counts are written and operator overrides re-read. */
export const FLUSH_INTERVAL_MS = 5_000;
/** Hourly usage kept in the database. */
const USAGE_RETENTION_MS = 8 * 24 * HOUR_MS;

/**
 * Everything the rate limiter holds for one API process: the limits in force, the window store
 * (memory or Redis), the in-memory usage counts and the store they are flushed to.
 */
export class RateLimiter {
  table: LimitTable;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private lastPrunedHour = -1;
  private lastOverrides = '';

  private constructor(
    private readonly ctx: AppContext,
    readonly enforced: boolean,
    readonly store: WindowStore,
    readonly usage: UsageCounter,
    readonly usageStore: UsageStore,
    private readonly redis: Redis | null,
    overrides: StoredOverride[],
  ) {
    this.table = this.buildTable(overrides);
  }

  static async create(ctx: AppContext): Promise<RateLimiter> {
    const enforced = ctx.config.rateLimits !== 'off';
    let redis: Redis | null = null;
    let store: WindowStore;
    let usageStore: UsageStore;
    if (ctx.config.redisUrl) {
      redis = connectRedis(ctx.config.redisUrl, ctx.log);
      if (!(await waitUntilReady(redis, 2000)))
        ctx.log.warn('redis not reachable at start-up: rate limits fail open until it answers');
      // Production takes the time from Redis so that every instance agrees; an injected clock (tests) wins.
      store = new RedisWindowStore(redis, ctx.log, ctx.clock === systemClock);
      usageStore = new RedisUsageStore(redis);
    } else {
      store = new MemoryWindowStore();
      usageStore = new DbUsageStore(ctx.db);
    }
    const limiter = new RateLimiter(
      ctx,
      enforced,
      store,
      new UsageCounter(),
      usageStore,
      redis,
      await loadOverrides(ctx.db),
    );
    return limiter;
  }

  private buildTable(overrides: StoredOverride[]): LimitTable {
    this.lastOverrides = JSON.stringify(overrides);
    const file = typeof this.ctx.config.rateLimits === 'object' ? this.ctx.config.rateLimits : null;
    return new LimitTable(file, overrides);
  }

  /** Re-reads operator overrides (set by `admin set-rate-limit` from another process). */
  async refreshOverrides(): Promise<void> {
    const overrides = await loadOverrides(this.ctx.db);
    if (JSON.stringify(overrides) !== this.lastOverrides) this.table = this.buildTable(overrides);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const now = this.ctx.clock.now();
    this.store.sweep(now);
    try {
      await this.refreshOverrides();
    } catch (err) {
      this.ctx.log.warn({ err: (err as Error).message }, 'could not reload rate limit overrides');
    }
    await this.flush();
    const hour = hourStart(now);
    if (hour !== this.lastPrunedHour) {
      this.lastPrunedHour = hour;
      await this.usageStore.prune(hour - USAGE_RETENTION_MS).catch(() => undefined);
    }
  }

  /** Writes the pending usage counts; on failure they stay pending for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const rows = this.usage.drain();
      if (rows.length === 0) return;
      try {
        await this.usageStore.add(rows);
      } catch (err) {
        this.usage.restore(rows);
        this.ctx.log.warn(
          { err: (err as Error).message, rows: rows.length },
          'could not write rate limit usage; kept for the next flush',
        );
      }
    });
    return this.flushing;
  }

  describeLimits(system: string): {
    enforced: boolean;
    window: number;
    limits: Record<Tier, Record<string, number | null>>;
  } {
    return { enforced: this.enforced, window: WINDOW_SECONDS, limits: this.table.describe(system) };
  }

  /** The 24-hour rolling report of one system: the current hour and the 23 before it. */
  async usageReport(system: string) {
    await this.flush();
    const now = this.ctx.clock.now();
    const fromHour = hourStart(now) - 23 * HOUR_MS;
    const rows = await this.usageStore.read(system, fromHour, hourStart(now));
    return presentUsage(system, rows, fromHour, now, this.describeLimits(system));
  }

  /** Hour by hour, for the admin area's chart: the current hour and the `hours - 1` before it. */
  async hourlyUsage(system: string, hours: number) {
    await this.flush();
    const now = this.ctx.clock.now();
    const fromHour = hourStart(now) - (hours - 1) * HOUR_MS;
    const rows = await this.usageStore.read(system, fromHour, hourStart(now));
    return presentHourlyUsage(system, rows, fromHour, hours, now, this.describeLimits(system));
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
    await this.store.close();
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
