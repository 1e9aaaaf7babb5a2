import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { WINDOW_MS } from './limits.js';
import type { Decision, WindowStore } from './window.js';

/**
 * One atomic step of the sliding window. KEYS[1]: the window (a ZSET of allowed requests scored by
 * time in ms). ARGV: now (ms, or 0 to use the Redis server's clock so that every instance agrees),
 * window ms, limit, a unique member, 1 to record / 0 to only look.
 * Returns {allowed, count after, oldest score or -1, now}.
 */
const SLIDING_WINDOW_LUA = `
local now = tonumber(ARGV[1])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local win = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  allowed = 1
  if ARGV[5] == '1' then
    redis.call('ZADD', KEYS[1], now, ARGV[4])
    redis.call('PEXPIRE', KEYS[1], win)
    count = count + 1
  end
end
local oldest = -1
if count > 0 then
  oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
end
return {allowed, count, oldest, now}
`;

type WindowReply = [number, number, number, number];

interface HearthRedis extends Redis {
  hearthWindow(
    key: string,
    now: number,
    win: number,
    limit: number,
    member: string,
    record: string,
  ): Promise<WindowReply>;
}

/** ioredis settings that never let a request wait on an unreachable Redis. */
export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2000,
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  let lastLog = 0;
  client.on('error', (err: Error) => {
    // ioredis emits an error for every failed reconnect attempt; one line a minute is enough.
    if (Date.now() - lastLog > 60_000) {
      lastLog = Date.now();
      log.warn(
        { err: err.message },
        'redis connection error (rate limits fail open until it returns)',
      );
    }
  });
  return client;
}

/** Waits briefly for the first connection so that the first requests are already limited. */
export async function waitUntilReady(client: Redis, ms: number): Promise<boolean> {
  if (client.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    const onReady = () => done(true);
    function done(ok: boolean) {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ok);
    }
    client.once('ready', onReady);
  });
}

export interface FailOpenStats {
  /** checks answered "allowed" because Redis could not be asked */
  failOpen: number;
}

/**
 * Windows shared by every instance through Redis. When Redis cannot answer, requests are allowed
 * (fail open: the service keeps serving), counted in `stats.failOpen` and logged at most every 30 s;
 * ioredis reconnects on its own and the next successful check logs the recovery.
 */
export class RedisWindowStore implements WindowStore {
  readonly name = 'redis' as const;
  readonly stats: FailOpenStats = { failOpen: 0 };
  private readonly client: HearthRedis;
  private readonly member = `${randomBytes(6).toString('base64url')}:`;
  private seq = 0;
  private failing = false;
  private lastWarning = 0;

  constructor(
    client: Redis,
    private readonly log: FastifyBaseLogger,
    /** true: take time from the Redis server (production); false: from the injected clock (tests) */
    private readonly serverTime: boolean,
    private readonly prefix = 'hearth:rl:',
  ) {
    client.defineCommand('hearthWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    this.client = client as HearthRedis;
  }

  private key(kind: number, id: string, context: number): string {
    return `${this.prefix}${kind}:${context}:${id}`;
  }

  private async run(
    kind: number,
    id: string,
    context: number,
    limit: number,
    now: number,
    out: Decision,
    record: boolean,
  ): Promise<void> {
    try {
      const [allowed, count, oldest, at] = await this.client.hearthWindow(
        this.key(kind, id, context),
        this.serverTime ? 0 : now,
        WINDOW_MS,
        limit,
        record ? this.member + (this.seq++).toString(36) : '',
        record ? '1' : '0',
      );
      out.allowed = allowed === 1;
      out.remaining = limit > count ? limit - count : 0;
      out.resetMs = oldest >= 0 ? oldest + WINDOW_MS - at : 0;
      if (this.failing) {
        this.failing = false;
        this.log.info('redis answers again: rate limits enforced');
      }
    } catch (err) {
      this.stats.failOpen++;
      this.failing = true;
      const wallClock = Date.now();
      if (wallClock - this.lastWarning > 30_000) {
        this.lastWarning = wallClock;
        this.log.warn(
          { err: (err as Error).message, failOpen: this.stats.failOpen },
          'rate limit check failed: redis unreachable, request allowed (fail open)',
        );
      }
      out.allowed = true;
      out.remaining = limit > 0 ? limit - 1 : 0;
      out.resetMs = 0;
    }
  }

  hit(
    kind: number,
    id: string,
    context: number,
    limit: number,
    now: number,
    out: Decision,
  ): Promise<void> {
    return this.run(kind, id, context, limit, now, out, true);
  }

  peek(
    kind: number,
    id: string,
    context: number,
    limit: number,
    now: number,
    out: Decision,
  ): Promise<void> {
    return this.run(kind, id, context, limit, now, out, false);
  }

  /** Redis expires idle windows itself (PEXPIRE on every write). */
  sweep(): void {}

  async close(): Promise<void> {
    // The client is shared with the usage store and closed by the limiter.
  }
}
