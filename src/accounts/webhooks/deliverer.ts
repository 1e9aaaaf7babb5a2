import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { DB } from '../../platform/db/database.js';
import type { SendResult, WebhookSender } from './sender.js';
import { hearthSignature, standardSignature } from './signing.js';
import type { SigningKeys } from './signing-keys.js';
import { writeTransaction } from './write-tx.js';
import {
  claimableWebhooks,
  dueDeliveriesOf,
  extendLease,
  leaseWebhooks,
  releaseLease,
} from './leases.js';
import {
  LaneRecorder,
  MAX_IN_FLIGHT,
  MAX_LANES,
  MAX_LANES_PER_HOST,
  type Outcome,
  Slots,
} from './lanes.js';
import {
  type DueDelivery,
  type LaneWebhook,
  recordOutcomes,
  type SentDelivery,
} from './outcomes.js';
import './webhooks.tables.js';

export { MAX_LANES, MAX_LANES_PER_HOST };
export { nextAttemptAt } from './outcomes.js';
const SLICE_MS = 2_000;
const UNSIGNABLE_BACKOFF_MS = 30_000;
/**
 * How long a lane's idle senders wait before looking for newly due deliveries again, unless this
 * worker fans out new ones for its webhook first (it wakes them at once): what another worker fanned
 * out, and retries coming due, are found by this look. A lane with nothing in flight waits once
 * before giving its webhook back, so a steady trickle keeps its lane instead of claiming and
 * releasing the lease for every delivery.
 */
const IDLE_RECHECK_MS = 100;
/**
 * How long an outcome may wait for others so that they are written together (unless a lane's
 * concurrency worth of outcomes is ready first): a write is a transaction, and one per outcome or
 * two was most of a delivery's CPU. A crash repeats at most these and the requests in flight.
 */
const OUTCOME_LINGER_MS = 10;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Sends deliveries. Each webhook is a "lane" held by one worker at a time through a lease on its
 * row (claimed with FOR UPDATE SKIP LOCKED on PostgreSQL, BEGIN IMMEDIATE on SQLite); the holder
 * sends that webhook's due deliveries, up to HEARTH_WEBHOOK_CONCURRENCY at once (so in no
 * guaranteed order; at most MAX_IN_FLIGHT for all lanes of a worker), and records outcomes in
 * groups: each write takes those that arrived during the previous one or within OUTCOME_LINGER_MS.
 * A crashed worker's
 * leases expire after the send time limit plus a margin, and another worker picks the lanes up.
 * No transaction is open while a request is in flight.
 */
export class DeliveryEngine {
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly lanes = new Map<number, Promise<void>>();
  private readonly hostLanes = new Map<string, number>();
  /** Webhooks whose signing key this process cannot decrypt (another HEARTH_SECRET): left to the workers that can. */
  private readonly unsignable = new Map<number, number>();
  /** Wakes the idle senders of a lane (by webhook id): new deliveries were fanned out for it. */
  private readonly idleLanes = new Map<number, () => void>();
  /** Requests in flight in this worker, all lanes together. */
  private readonly slots = new Slots(MAX_IN_FLIGHT);
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

  /** New deliveries were stored for these webhooks: their idle lanes look for them now. */
  notify(webhookIds: Iterable<number>): void {
    for (const id of webhookIds) this.idleLanes.get(id)?.();
  }

  /** Claims webhooks that have due deliveries and starts a lane for each, within the concurrency bounds. */
  async schedule(): Promise<number> {
    if (this.stopping) return 0;
    const free = MAX_LANES - this.lanes.size;
    if (free <= 0) return 0;
    const claimed = await writeTransaction(this.ctx, async (db) => {
      const nowMs = this.ctx.clock.now();
      const now = iso(nowMs);
      for (const [id, until] of this.unsignable) if (until < Date.now()) this.unsignable.delete(id);
      const skip = [...this.lanes.keys(), ...this.unsignable.keys()];
      const candidates = await claimableWebhooks(db, this.ctx.dialect, now, skip, free * 4);
      const chosen: LaneWebhook[] = [];
      const perHost = new Map(this.hostLanes);
      for (const hook of candidates) {
        if (chosen.length >= free) break;
        const host = new URL(hook.url).host;
        if ((perHost.get(host) ?? 0) >= MAX_LANES_PER_HOST) continue;
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        chosen.push(hook);
      }
      if (chosen.length > 0) {
        const until = iso(nowMs + this.leaseMs);
        await leaseWebhooks(
          db,
          chosen.map((h) => h.id),
          this.workerId,
          until,
        );
      }
      return chosen;
    });
    for (const hook of claimed) this.startLane(hook);
    return claimed.length;
  }

  private startLane(hook: LaneWebhook): void {
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
    await releaseLease(this.ctx.db, webhookId, this.workerId, iso(this.ctx.clock.now()));
  }

  /** Due deliveries of one webhook, oldest first, leaving out those this lane already holds. */
  private async dueDeliveries(
    webhookId: number,
    held: Set<number>,
    limit: number,
  ): Promise<DueDelivery[]> {
    return dueDeliveriesOf(this.ctx.db, webhookId, held, limit, iso(this.ctx.clock.now()));
  }

  /**
   * Sends one webhook's due deliveries for a time slice: `parallel` senders take deliveries from
   * a shared queue (refilled from the database when it runs dry, without waiting for the slowest
   * request of a batch), and a LaneRecorder writes outcomes as they arrive. A delivery is "held"
   * from when it is read until its outcome is written, so it is never sent twice by this lane.
   */
  private async runLane(hook: LaneWebhook): Promise<void> {
    let key: string;
    try {
      key = await this.keys.get(hook.system);
    } catch (err) {
      // Not an attempt: retrying cannot help until the operator fixes HEARTH_SECRET, and a
      // correctly configured worker may still send it. Nothing is lost; it stays pending.
      this.ctx.log.error(
        { err, webhookId: hook.id, system: hook.system },
        'cannot sign webhook deliveries here; leaving them to other workers',
      );
      this.unsignable.set(hook.id, Date.now() + UNSIGNABLE_BACKOFF_MS);
      return;
    }
    const held = new Set<number>();
    const lane = new LaneRecorder<SentDelivery>(
      (group) =>
        writeTransaction(this.ctx, async (db) => {
          const outcome = await recordOutcomes(this.ctx, db, hook, group);
          return outcome === 'stop' ? 'stop' : this.renewLease(db, hook.id);
        }),
      (sent) => held.delete(sent.delivery.id),
      { lingerMs: OUTCOME_LINGER_MS, fullAt: this.ctx.config.webhookConcurrency },
    );
    const parallel = this.ctx.config.webhookConcurrency;
    const queue: DueDelivery[] = [];
    let inFlight = 0;
    let refilling: Promise<void> | null = null;
    // Idle senders wait together, so a lane looks again once per IDLE_RECHECK_MS, not once per sender.
    let idle: Promise<void> | null = null;
    const idleWait = () =>
      (idle ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => wake(), IDLE_RECHECK_MS);
        const wake = () => {
          clearTimeout(timer);
          this.idleLanes.delete(hook.id);
          idle = null;
          resolve();
        };
        this.idleLanes.set(hook.id, wake);
      }));
    const refill = () =>
      (refilling ??= this.dueDeliveries(hook.id, held, Math.max(100, parallel * 2))
        .then((rows) => {
          for (const row of rows) held.add(row.id);
          queue.push(...rows);
        })
        .finally(() => (refilling = null)));
    // A lane gives its place back after a time slice, so that more webhooks than MAX_LANES with
    // steady traffic all get their turn.
    const sliceEnds = Date.now() + SLICE_MS;
    const sender = async (): Promise<void> => {
      let waitedIdle = false;
      while (!this.stopping && !lane.stopped && Date.now() < sliceEnds) {
        if (queue.length === 0) await refill();
        const next = queue.shift();
        if (next === undefined) {
          // Nothing due now: stay while this lane's other requests are out (their outcomes, or
          // new events, may bring more), and for one idle wait after that; then give it back.
          if (inFlight === 0 && waitedIdle) return;
          waitedIdle = inFlight === 0;
          await idleWait();
          continue;
        }
        waitedIdle = false;
        inFlight += 1;
        await this.slots.acquire();
        const startedMs = this.ctx.clock.now();
        let result: SendResult;
        try {
          result = await this.deliver(hook, key, next);
        } finally {
          this.slots.release();
          inFlight -= 1;
        }
        lane.add({ delivery: next, result, startedMs });
      }
    };
    try {
      await Promise.all(Array.from({ length: parallel }, sender));
    } finally {
      // Read but not sent (the slice ended or the lane stopped): no longer held, still pending.
      for (const d of queue.splice(0)) held.delete(d.id);
      await lane.settled();
    }
  }

  private async deliver(
    hook: LaneWebhook,
    key: string,
    delivery: DueDelivery,
  ): Promise<SendResult> {
    const timestamp = Math.floor(Date.now() / 1000);
    return this.sender.send(hook.url, delivery.payload, {
      [this.ctx.config.signatureHeader]: hearthSignature(key, delivery.payload),
      'webhook-id': delivery.event_uuid,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignature(key, delivery.event_uuid, timestamp, delivery.payload),
    });
  }

  /** Extends this worker's lease on a webhook; 'stop' when it was lost (or the webhook is no longer Active). */
  private async renewLease(db: Kysely<DB>, webhookId: number): Promise<Outcome> {
    const renewed = await extendLease(
      db,
      '',
      iso(this.ctx.clock.now() + this.leaseMs),
      webhookId,
      this.workerId,
    );
    return renewed === 0 ? 'stop' : 'continue';
  }

  /** Stops claiming, lets every lane finish its in-flight request, and gives the leases back. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of [...this.idleLanes.values()]) wake();
    await Promise.all([...this.lanes.values()]);
  }
}
