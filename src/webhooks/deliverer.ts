import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import type { DB } from '../db/database.js';
import { evaluateWebhookHealth } from './health.js';
import type { SendResult, WebhookSender } from './sender.js';
import { hearthSignature, standardSignature } from './signing.js';
import type { SigningKeys } from './signing-keys.js';
import { writeTransaction } from './write-tx.js';
import './webhooks.tables.js';

/** Webhooks sent to at the same time by one worker, overall and per receiver host. */
export const MAX_LANES = 32;
export const MAX_LANES_PER_HOST = 4;
const BATCH = 100;
const UNSIGNABLE_BACKOFF_MS = 30_000;
const FLUSH_EVERY = 25;

interface ClaimedWebhook {
  id: number;
  account_id: number;
  system: string;
  url: string;
  failing_since: string | null;
}

interface DueDelivery {
  id: number;
  attempts: number;
  first_attempt_at: string | null;
  event_uuid: string;
  payload: string;
}

type Outcome = 'continue' | 'stop';

const iso = (ms: number) => new Date(ms).toISOString();

/** Retry plan (part 6 rule 2 and the contract): the wait before the next attempt, or null once the window has closed. */
export function nextAttemptAt(schedule: number[], windowSeconds: number, attemptsMade: number, firstAttemptMs: number, nowMs: number): number | null {
  const wait = schedule[Math.min(attemptsMade - 1, schedule.length - 1)] ?? 60;
  const next = nowMs + wait * 1000;
  return next > firstAttemptMs + windowSeconds * 1000 ? null : next;
}

/**
 * Sends deliveries. Each webhook is a "lane" held by one worker at a time through a lease on its
 * row (claimed with FOR UPDATE SKIP LOCKED on PostgreSQL, BEGIN IMMEDIATE on SQLite); the holder
 * sends that webhook's due deliveries one after another in event order. A crashed worker's
 * leases expire after the send time limit plus a margin, and another worker picks the lanes up.
 * No transaction is open while a request is in flight.
 */
export class DeliveryEngine {
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly lanes = new Map<number, Promise<void>>();
  private readonly hostLanes = new Map<string, number>();
  /** Webhooks whose signing key this process cannot decrypt (another HEARTH_SECRET): left to the workers that can. */
  private readonly unsignable = new Map<number, number>();
  private stopping = false;
  private readonly leaseMs: number;

  constructor(
    private readonly ctx: AppContext,
    private readonly sender: WebhookSender,
    private readonly keys: SigningKeys,
    private readonly onLaneDone: () => void,
  ) {
    this.leaseMs = (ctx.config.webhookTimeout + 5) * 1000;
  }

  get busy(): number {
    return this.lanes.size;
  }

  /** Claims webhooks that have due deliveries and starts a lane for each, within the concurrency bounds. */
  async schedule(): Promise<number> {
    if (this.stopping) return 0;
    const free = MAX_LANES - this.lanes.size;
    if (free <= 0) return 0;
    const claimed = await writeTransaction(this.ctx, async (db) => {
      const nowMs = this.ctx.clock.now();
      const now = iso(nowMs);
      let query = db
        .selectFrom('webhooks as w')
        .select(['w.id', 'w.account_id', 'w.system', 'w.url', 'w.failing_since'])
        .where('w.status', '=', 'Active')
        .where((eb) => eb.or([eb('w.locked_until', 'is', null), eb('w.locked_until', '<', now)]))
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('webhook_deliveries as d')
              .select('d.id')
              .whereRef('d.webhook_id', '=', 'w.id')
              .where('d.state', '=', 'pending')
              .where('d.next_attempt_at', '<=', now),
          ),
        )
        .orderBy('w.locked_until')
        .orderBy('w.id')
        .limit(free * 4);
      for (const [id, until] of this.unsignable) if (until < Date.now()) this.unsignable.delete(id);
      const skip = [...this.lanes.keys(), ...this.unsignable.keys()];
      if (skip.length > 0) query = query.where('w.id', 'not in', skip);
      if (this.ctx.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const candidates = await query.execute();
      const chosen: ClaimedWebhook[] = [];
      const perHost = new Map(this.hostLanes);
      for (const hook of candidates) {
        if (chosen.length >= free) break;
        const host = new URL(hook.url).host;
        if ((perHost.get(host) ?? 0) >= MAX_LANES_PER_HOST) continue;
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        chosen.push(hook);
      }
      if (chosen.length > 0) {
        await db
          .updateTable('webhooks')
          .set({ locked_by: this.workerId, locked_until: iso(nowMs + this.leaseMs) })
          .where('id', 'in', chosen.map((h) => h.id))
          .execute();
      }
      return chosen;
    });
    for (const hook of claimed) this.startLane(hook);
    return claimed.length;
  }

  private startLane(hook: ClaimedWebhook): void {
    const host = new URL(hook.url).host;
    this.hostLanes.set(host, (this.hostLanes.get(host) ?? 0) + 1);
    const lane = this.runLane(hook)
      .catch((err) => this.ctx.log.error({ err, webhookId: hook.id }, 'webhook lane failed'))
      .finally(async () => {
        await this.release(hook.id).catch(() => {});
        this.lanes.delete(hook.id);
        const left = (this.hostLanes.get(host) ?? 1) - 1;
        if (left <= 0) this.hostLanes.delete(host);
        else this.hostLanes.set(host, left);
        this.onLaneDone();
      });
    this.lanes.set(hook.id, lane);
  }

  private async release(webhookId: number): Promise<void> {
    await this.ctx.db
      .updateTable('webhooks')
      .set({ locked_by: null, locked_until: null })
      .where('id', '=', webhookId)
      .where('locked_by', '=', this.workerId)
      .execute();
  }

  private async dueDeliveries(webhookId: number): Promise<DueDelivery[]> {
    return this.ctx.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(['d.id', 'd.attempts', 'd.first_attempt_at', 'e.event_uuid', 'e.payload'])
      .where('d.webhook_id', '=', webhookId)
      .where('d.state', '=', 'pending')
      .where('d.next_attempt_at', '<=', iso(this.ctx.clock.now()))
      .orderBy('d.id')
      .limit(BATCH)
      .execute();
  }

  private async runLane(hook: ClaimedWebhook): Promise<void> {
    let key: string;
    try {
      key = await this.keys.get(hook.system);
    } catch (err) {
      // Not an attempt: retrying cannot help until the operator fixes HEARTH_SECRET, and a
      // correctly configured worker may still send it. Nothing is lost; it stays pending.
      this.ctx.log.error({ err, webhookId: hook.id, system: hook.system }, 'cannot sign webhook deliveries here; leaving them to other workers');
      this.unsignable.set(hook.id, Date.now() + UNSIGNABLE_BACKOFF_MS);
      return;
    }
    // Results are written in small groups: at most FLUSH_EVERY of them, a failure at once, and at
    // least once a second, so the lease (renewed at each write) always covers the next request.
    let pending: { delivery: DueDelivery; result: SendResult; startedMs: number }[] = [];
    let lastFlush = Date.now();
    const flush = async (): Promise<Outcome> => {
      const group = pending;
      pending = [];
      lastFlush = Date.now();
      if (group.length === 0) return 'continue';
      return writeTransaction(this.ctx, async (db) => {
        for (const item of group) {
          const outcome = await this.record(db, hook, item.delivery, item.result, item.startedMs);
          if (outcome === 'stop') return 'stop';
        }
        return this.renewLease(db, hook.id);
      });
    };
    while (!this.stopping) {
      const batch = await this.dueDeliveries(hook.id);
      if (batch.length === 0) break;
      for (const delivery of batch) {
        if (this.stopping) break;
        const startedMs = this.ctx.clock.now();
        const result = await this.deliver(hook, key, delivery);
        pending.push({ delivery, result, startedMs });
        if (!result.success || pending.length >= FLUSH_EVERY || Date.now() - lastFlush >= 1000) {
          if ((await flush()) === 'stop') return;
        }
      }
      if ((await flush()) === 'stop') return;
    }
    await flush();
  }

  private async deliver(hook: ClaimedWebhook, key: string, delivery: DueDelivery): Promise<SendResult> {
    const timestamp = Math.floor(Date.now() / 1000);
    return this.sender.send(hook.url, delivery.payload, {
      [this.ctx.config.signatureHeader]: hearthSignature(key, delivery.payload),
      'webhook-id': delivery.event_uuid,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignature(key, delivery.event_uuid, timestamp, delivery.payload),
    });
  }

  /** Stores the attempt and moves the delivery on; the compare-and-set on `attempts` records each attempt once. */
  private async record(db: Kysely<DB>, hook: ClaimedWebhook, delivery: DueDelivery, result: SendResult, startedMs: number): Promise<Outcome> {
    const { config, clock } = this.ctx;
    const nowMs = clock.now();
    const attempt = delivery.attempts + 1;
    const firstMs = delivery.first_attempt_at ? Date.parse(delivery.first_attempt_at) : startedMs;
    const gone = result.statusCode === 406 || result.statusCode === 410;
    const next = result.success || gone ? null : nextAttemptAt(config.webhookRetrySchedule, config.webhookRetryWindow, attempt, firstMs, nowMs);
    const state = result.success ? 'delivered' : next === null ? 'abandoned' : 'pending';
    const updated = await db
      .updateTable('webhook_deliveries')
      .set({
        attempts: attempt,
        first_attempt_at: iso(firstMs),
        state,
        next_attempt_at: next === null ? iso(nowMs) : iso(next),
        finished_at: state === 'pending' ? null : iso(nowMs),
      })
      .where('id', '=', delivery.id)
      .where('attempts', '=', delivery.attempts)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return 'stop'; // the webhook was deleted, or another worker took over
    await db
      .insertInto('webhook_attempts')
      .values({
        account_id: hook.account_id,
        webhook_id: hook.id,
        delivery_id: delivery.id,
        attempt,
        attempted_at: iso(startedMs),
        success: result.success ? 1 : 0,
        status_code: result.statusCode,
        latency_ms: result.latencyMs,
        error: result.error,
        response: result.response,
      })
      .execute();
    if (gone) {
      // Part 6 rule 3: a callback answering 406 or 410 is deleted at once (its deliveries go with it).
      await db.deleteFrom('webhooks').where('id', '=', hook.id).execute();
      this.ctx.log.info({ webhookId: hook.id, status: result.statusCode }, 'webhook deleted: callback answered 406/410');
      return 'stop';
    }
    if (!result.success || hook.failing_since !== null) {
      const health = await evaluateWebhookHealth(db, hook, nowMs);
      hook.failing_since = health.failingSince;
      if (health.disabled) {
        this.ctx.log.warn({ webhookId: hook.id }, 'webhook disabled: more than half of its deliveries failed for a week');
        return 'stop';
      }
    }
    return 'continue';
  }

  /** Extends this worker's lease on a webhook; 'stop' when it was lost (or the webhook is no longer Active). */
  private async renewLease(db: Kysely<DB>, webhookId: number): Promise<Outcome> {
    const lease = await db
      .updateTable('webhooks')
      .set({ locked_until: iso(this.ctx.clock.now() + this.leaseMs) })
      .where('id', '=', webhookId)
      .where('locked_by', '=', this.workerId)
      .where('status', '=', 'Active')
      .executeTakeFirst();
    return Number(lease.numUpdatedRows) === 0 ? 'stop' : 'continue';
  }

  /** Stops claiming, lets every lane finish its in-flight request, and gives the leases back. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.lanes.values()]);
  }
}
