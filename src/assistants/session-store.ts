import type { Redis } from 'ioredis';
import type { InitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** Sessions idle this long end (the client starts a new one). */
export const IDLE_MS = 30 * 60_000;

/**
 * What any API instance needs to continue a session another one opened: who owns it and the
 * client's initialize parameters (protocol version, capabilities), replayed into a fresh server.
 */
export interface SessionRecord {
  owner: string;
  init: InitializeRequest['params'];
}

/** Where sessions live: this process (one API instance), or Redis (any instance continues one). */
export interface SessionStore {
  /** The live session's record, its idle clock restarted; null when unknown or ended. */
  touch(id: string): Promise<SessionRecord | null>;
  put(id: string, record: SessionRecord): Promise<void>;
  delete(id: string): Promise<void>;
  /** Drops what idled out (Redis expires keys by itself). */
  sweep(now: number): void;
}

export class MemorySessionStore implements SessionStore {
  private readonly records = new Map<string, SessionRecord & { lastSeen: number }>();
  constructor(private readonly now: () => number) {}

  async touch(id: string) {
    const record = this.records.get(id);
    if (!record || record.lastSeen < this.now() - IDLE_MS) return null;
    record.lastSeen = this.now();
    return record;
  }
  async put(id: string, record: SessionRecord) {
    this.records.set(id, { ...record, lastSeen: this.now() });
  }
  async delete(id: string) {
    this.records.delete(id);
  }
  sweep(now: number) {
    for (const [id, record] of this.records)
      if (record.lastSeen < now - IDLE_MS) this.records.delete(id);
  }
}

export const sessionKey = (id: string) => `hearth:mcp:session:${id}`;
export const eventsKey = (id: string) => `hearth:mcp:events:${id}`;

/** Sessions in Redis, each key expiring after IDLE_MS without a request. */
export class RedisSessionStore implements SessionStore {
  constructor(private readonly redis: Redis) {}

  async touch(id: string) {
    const text = await this.redis.getex(sessionKey(id), 'PX', IDLE_MS);
    if (text === null) return null;
    await this.redis.pexpire(eventsKey(id), IDLE_MS);
    return JSON.parse(text) as SessionRecord;
  }
  async put(id: string, record: SessionRecord) {
    await this.redis.set(sessionKey(id), JSON.stringify(record), 'PX', IDLE_MS);
  }
  async delete(id: string) {
    await this.redis.del(sessionKey(id), eventsKey(id));
  }
  sweep() {}
}
