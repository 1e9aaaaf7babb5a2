import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AppContext } from '../../platform/context.js';
import { connectRedis } from '../../accounts/rateLimit/redis-window.js';

/**
 * A flood from one sender to one lead address is slowed (SMTP 451, the sender retries later)
 * instead of filling the store: at most HEARTH_INBOUND_FLOOD_LIMIT messages a minute for each pair.
 * With REDIS_URL the count is shared by every listener, as the API's rate limits are; without
 * it, or while Redis does not answer, each listener counts on its own.
 */
const WINDOW_MS = 60_000;
const MAX_KEYS = 100_000;

export interface FloodGuard {
  allow(key: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Fixed one-minute windows in this process. */
export class MemoryFloodGuard implements FloodGuard {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly now: () => number,
    private readonly limit: number,
  ) {}

  async allow(key: string): Promise<boolean> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      if (this.windows.size >= MAX_KEYS) this.windows.clear();
      this.windows.set(key, { start: now, count: 1 });
      return true;
    }
    window.count++;
    return window.count <= this.limit;
  }

  async close(): Promise<void> {}
}

/** One counter per pair and minute in Redis (INCR, expiring with its minute), shared by all. */
export class RedisFloodGuard implements FloodGuard {
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly ctx: Pick<AppContext, 'log'>,
    private readonly now: () => number,
    private readonly limit: number,
    /** counts while Redis cannot be asked: the flood is still slowed, per listener */
    private readonly fallback = new MemoryFloodGuard(now, limit),
  ) {}

  async allow(key: string): Promise<boolean> {
    const now = this.now();
    const minute = Math.floor(now / WINDOW_MS);
    const pair = createHash('sha256').update(key).digest('base64url').slice(0, 22);
    const redisKey = `hearth:inbound-flood:${minute}:${pair}`;
    try {
      const [[incrError, count], [expireError]] = (await this.redis
        .multi()
        .incr(redisKey)
        .pexpire(redisKey, WINDOW_MS * 2)
        .exec()) as [[Error | null, number], [Error | null, unknown]];
      if (incrError || expireError) throw incrError ?? expireError;
      return count <= this.limit;
    } catch (err) {
      if (Date.now() - this.lastWarning > 30_000) {
        this.lastWarning = Date.now();
        this.ctx.log.warn(
          { err: (err as Error).message },
          'inbound flood limit: redis unreachable, counting in this listener',
        );
      }
      return this.fallback.allow(key);
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

export function floodGuardFor(ctx: AppContext): FloodGuard {
  const now = () => ctx.clock.now();
  const limit = ctx.config.inbound.floodLimit;
  if (!ctx.config.redisUrl) return new MemoryFloodGuard(now, limit);
  return new RedisFloodGuard(connectRedis(ctx.config.redisUrl, ctx.log), ctx, now, limit);
}
