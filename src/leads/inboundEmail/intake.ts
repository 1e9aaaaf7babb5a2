import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { enqueueJobs } from '../../platform/jobs/queue.js';
import { isoSeconds } from '../../platform/time.js';
import {
  type Delivery,
  inboundRow,
  PARSE_JOB,
  recipientPerAccount,
  storeMessage,
} from './store.js';

/** A batch stops growing at this many messages or bytes (the raw bytes are held until it commits). */
const MAX_BATCH = 200;
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

interface Pending {
  raw: Buffer;
  delivery: Delivery;
  resolve(ids: number[]): void;
  reject(error: unknown): void;
}

/**
 * Group commit for received messages: those that arrive while a batch is being written are stored
 * together in the next one transaction (one commit, one fsync on PostgreSQL), and each sender hears
 * 250/202 only once its batch has committed. A batch that fails is retried one message at a time,
 * so one bad message costs the others nothing. Each way in (the SMTP listener, POST /e/inbound)
 * owns one.
 */
export class InboundIntake {
  #pending: Pending[] = [];
  #writing = false;
  #scheduled = false;

  constructor(private readonly ctx: AppContext) {}

  /** Stores the message for each account it was sent to; the ids stored (none for a repeat). */
  store(raw: Buffer, delivery: Delivery): Promise<number[]> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ raw, delivery, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#writing || this.#scheduled || !this.#pending.length) return;
    this.#scheduled = true;
    // The messages already read in this turn of the event loop join the batch.
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush();
    });
  }

  #take(): Pending[] {
    let bytes = 0;
    let count = 0;
    while (count < this.#pending.length && count < MAX_BATCH && bytes < MAX_BATCH_BYTES)
      bytes += this.#pending[count++].raw.length;
    return this.#pending.splice(0, count);
  }

  async #flush(): Promise<void> {
    this.#writing = true;
    const batch = this.#take();
    try {
      const ids = await this.ctx.db
        .transaction()
        .execute((trx) => storeBatch(this.ctx, trx, batch));
      batch.forEach((p, i) => p.resolve(ids[i]));
    } catch {
      // Alone, each message either stores or hears its own error.
      for (const p of batch)
        await storeMessage(this.ctx, p.raw, p.delivery).then(p.resolve, p.reject);
    } finally {
      this.#writing = false;
      this.#schedule();
    }
  }
}

/** One multi-row insert of the batch's messages (a repeat stores nothing) and one of their jobs. */
async function storeBatch(ctx: AppContext, trx: Trx, batch: Pending[]): Promise<number[][]> {
  const receivedAt = isoSeconds(ctx.clock.now());
  const rows = new Map<string, { slot: number; values: ReturnType<typeof inboundRow> }>();
  batch.forEach(({ raw, delivery }, slot) => {
    for (const { address, owner } of recipientPerAccount(delivery)) {
      const values = inboundRow(raw, delivery.mailFrom, address, owner, receivedAt);
      const key = `${owner.accountId} ${values.message_key}`;
      if (!rows.has(key)) rows.set(key, { slot, values });
    }
  });
  const ids: number[][] = batch.map(() => []);
  if (!rows.size) return ids;
  const inserted = await trx
    .insertInto('inbound_emails')
    .values([...rows.values()].map((r) => r.values))
    .onConflict((oc) => oc.columns(['account_id', 'message_key']).doNothing())
    .returning(['id', 'account_id', 'message_key'])
    .execute();
  const jobs = [];
  for (const row of inserted) {
    const stored = rows.get(`${row.account_id} ${row.message_key}`);
    if (!stored) continue;
    ids[stored.slot].push(row.id);
    jobs.push({ accountId: row.account_id, kind: PARSE_JOB, payload: { inboundEmailId: row.id } });
  }
  await enqueueJobs(ctx, trx, jobs);
  return ids;
}
