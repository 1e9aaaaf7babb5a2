import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from '../../platform/db/database.js';
import { isoSeconds } from '../../platform/time.js';
import { CONTEXTS } from './limits.js';
import './rateLimit.tables.js';

export const HOUR_MS = 3_600_000;

export interface UsageRow {
  system: string;
  context: string;
  /** ISO start of the hour */
  hour: string;
  total: number;
  limited: number;
}

export function hourStart(ms: number): number {
  return ms - (ms % HOUR_MS);
}

/**
 * Counts requests per system, context and hour in memory; `drain()` hands the counts to a store.
 * Counting is two array increments: the per-request cost the service pays for usage reporting.
 */
export class UsageCounter {
  private pending = new Map<number, Map<string, Float64Array>>();
  private lastHour = -1;
  private lastMap: Map<string, Float64Array> | null = null;

  count(system: string, context: number, limited: boolean, now: number): void {
    const hour = now - (now % HOUR_MS);
    let bySystem = this.lastMap;
    if (hour !== this.lastHour || bySystem === null) {
      bySystem = this.pending.get(hour) ?? null;
      if (bySystem === null) {
        bySystem = new Map();
        this.pending.set(hour, bySystem);
      }
      this.lastHour = hour;
      this.lastMap = bySystem;
    }
    let counts = bySystem.get(system);
    if (counts === undefined) {
      counts = new Float64Array(CONTEXTS.length * 2);
      bySystem.set(system, counts);
    }
    counts[context * 2]++;
    if (limited) counts[context * 2 + 1]++;
  }

  /** Takes every pending count out (to be written); `restore` puts rows back when writing failed. */
  drain(): UsageRow[] {
    const rows: UsageRow[] = [];
    for (const [hour, bySystem] of this.pending) {
      const iso = isoSeconds(hour);
      for (const [system, counts] of bySystem) {
        for (let c = 0; c < CONTEXTS.length; c++) {
          const total = counts[c * 2];
          const limited = counts[c * 2 + 1];
          if (total > 0 || limited > 0)
            rows.push({ system, context: CONTEXTS[c], hour: iso, total, limited });
        }
      }
    }
    this.pending = new Map();
    this.lastHour = -1;
    this.lastMap = null;
    return rows;
  }

  restore(rows: UsageRow[]): void {
    for (const row of rows) {
      const hour = Date.parse(row.hour);
      let bySystem = this.pending.get(hour);
      if (!bySystem) {
        bySystem = new Map();
        this.pending.set(hour, bySystem);
      }
      let counts = bySystem.get(row.system);
      if (!counts) {
        counts = new Float64Array(CONTEXTS.length * 2);
        bySystem.set(row.system, counts);
      }
      const c = (CONTEXTS as readonly string[]).indexOf(row.context);
      counts[c * 2] += row.total;
      counts[c * 2 + 1] += row.limited;
    }
    this.lastMap = null;
    this.lastHour = -1;
  }
}

/** Where hourly usage is kept durably. */
export interface UsageStore {
  add(rows: UsageRow[]): Promise<void>;
  /** Rows of one system for the hours from..to inclusive (ISO hour starts). */
  read(system: string, fromHour: number, toHour: number): Promise<UsageRow[]>;
  /** Drops hours before the given one. */
  prune(beforeHour: number): Promise<void>;
}

/** Hourly usage in the database: one upsert per (system, context, hour) per flush. */
export class DbUsageStore implements UsageStore {
  constructor(private readonly db: Db) {}

  async add(rows: UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 200) {
        await trx
          .insertInto('rate_limit_usage')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) =>
            oc.columns(['system', 'hour', 'context']).doUpdateSet({
              total: sql<number>`rate_limit_usage.total + excluded.total`,
              limited: sql<number>`rate_limit_usage.limited + excluded.limited`,
            }),
          )
          .execute();
      }
    });
  }

  async read(system: string, fromHour: number, toHour: number): Promise<UsageRow[]> {
    const rows = await this.db
      .selectFrom('rate_limit_usage')
      .select(['system', 'context', 'hour', 'total', 'limited'])
      .where('system', '=', system)
      .where('hour', '>=', isoSeconds(fromHour))
      .where('hour', '<=', isoSeconds(toHour))
      .execute();
    return rows.map((r) => ({ ...r, total: Number(r.total), limited: Number(r.limited) }));
  }

  async prune(beforeHour: number): Promise<void> {
    await this.db
      .deleteFrom('rate_limit_usage')
      .where('hour', '<', isoSeconds(beforeHour))
      .execute();
  }
}

/** Hourly usage in Redis (one hash per system and hour, kept 8 days), shared by every instance. */
export class RedisUsageStore implements UsageStore {
  static readonly TTL_SECONDS = 8 * 86_400;

  constructor(
    private readonly client: Redis,
    private readonly prefix = 'hearth:rl:usage:',
  ) {}

  private key(system: string, hourIso: string): string {
    return `${this.prefix}${hourIso}:${system}`;
  }

  async add(rows: UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    const pipeline = this.client.multi();
    for (const row of rows) {
      const key = this.key(row.system, row.hour);
      if (row.total) pipeline.hincrby(key, `${row.context}|total`, row.total);
      if (row.limited) pipeline.hincrby(key, `${row.context}|limited`, row.limited);
      pipeline.expire(key, RedisUsageStore.TTL_SECONDS);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
  }

  async read(system: string, fromHour: number, toHour: number): Promise<UsageRow[]> {
    const hours: string[] = [];
    for (let h = fromHour; h <= toHour; h += HOUR_MS) hours.push(isoSeconds(h));
    const pipeline = this.client.pipeline();
    for (const hour of hours) pipeline.hgetall(this.key(system, hour));
    const results = (await pipeline.exec()) ?? [];
    const rows: UsageRow[] = [];
    results.forEach(([err, value], i) => {
      if (err) throw err;
      const fields = value as Record<string, string>;
      const byContext = new Map<string, UsageRow>();
      for (const [field, count] of Object.entries(fields)) {
        const [context, what] = field.split('|');
        let row = byContext.get(context);
        if (!row) {
          row = { system, context, hour: hours[i], total: 0, limited: 0 };
          byContext.set(context, row);
        }
        if (what === 'total') row.total = Number(count);
        else if (what === 'limited') row.limited = Number(count);
      }
      rows.push(...byContext.values());
    });
    return rows;
  }

  /** Keys expire on their own. */
  async prune(): Promise<void> {}
}
