import type { Readable } from 'node:stream';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../accounts/auth/authenticate.js';
import { ApiError, badRequest, notFound } from '../../platform/http/errors.js';
import { enqueueJob } from '../../platform/jobs/queue.js';
import { isoSeconds } from '../../platform/time.js';
import { MboxTooLarge, mboxMessages } from './mbox.js';
import { insertInbound } from './store.js';

export const HISTORIC_JOB = 'inboundHistoric';
/** The largest mbox file taken in one upload. */
export const MAX_MBOX_BYTES = 200 * 1024 * 1024;
/** Messages stored per transaction while an upload is read. */
const BATCH = 100;

async function addError(ctx: AppContext, historicId: number, row: number, message: string) {
  await ctx.db
    .insertInto('inbound_historic_errors')
    .values({ historic_id: historicId, row, message: message.slice(0, 1000) })
    .execute();
}

/**
 * Stores each message of an mbox upload (a repeat of one the account has is skipped) and queues
 * its parsing. Messages are numbered from 1 in file order: an error names its number.
 */
export async function receiveMbox(
  ctx: AppContext,
  auth: AuthUser,
  body: Readable,
): Promise<number> {
  const at = isoSeconds(ctx.clock.now());
  const { id } = await ctx.db
    .insertInto('inbound_historic')
    .values({
      account_id: auth.accountId,
      user_id: auth.userId,
      status: 'queued',
      total: null,
      message: null,
      created_at: at,
      updated_at: at,
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let seq = 0;
  let skipped = 0;
  let batch: { seq: number; raw: Buffer }[] = [];
  const store = async () => {
    const rows = batch;
    batch = [];
    await ctx.db.transaction().execute(async (trx) => {
      for (const row of rows) {
        const stored = await insertInbound(trx, {
          accountId: auth.accountId,
          userId: null,
          historicId: id,
          seq: row.seq,
          raw: row.raw,
          mailFrom: '',
          rcptTo: '',
          receivedAt: at,
        });
        if (stored === null) skipped++;
      }
    });
  };
  try {
    for await (const message of mboxMessages(body, ctx.config.inbound.maxBytes, MAX_MBOX_BYTES)) {
      seq++;
      if (Buffer.isBuffer(message)) batch.push({ seq, raw: message });
      else
        await addError(
          ctx,
          id,
          seq,
          `Message ${seq} is larger than HEARTH_INBOUND_MAX_BYTES (${message.tooLarge} bytes); not read`,
        );
      if (batch.length >= BATCH) await store();
    }
    if (batch.length) await store();
  } catch (err) {
    // Nothing half-stored: the messages go with their upload (on delete cascade).
    await ctx.db.deleteFrom('inbound_historic').where('id', '=', id).execute();
    if (err instanceof MboxTooLarge)
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `${err.message}; split the mbox file`);
    throw err;
  }
  if (seq === 0) {
    await ctx.db.deleteFrom('inbound_historic').where('id', '=', id).execute();
    throw badRequest('No message found: an mbox file starts each message with a "From " line');
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('inbound_historic')
      .set({ total: seq, skipped, processed: skipped, updated_at: isoSeconds(ctx.clock.now()) })
      .where('id', '=', id)
      .execute();
    await enqueueJob(ctx, trx, {
      accountId: auth.accountId,
      kind: HISTORIC_JOB,
      payload: { historicId: id },
    });
  });
  return id;
}

export async function historicReport(ctx: AppContext, accountId: number, id: number) {
  const row = await ctx.db
    .selectFrom('inbound_historic')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`Historic parsing ${id}`);
  const errors = await ctx.db
    .selectFrom('inbound_historic_errors')
    .select(['row', 'message'])
    .where('historic_id', '=', id)
    .orderBy('row')
    .limit(100)
    .execute();
  return {
    id: row.id,
    status: row.status,
    total: row.total,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    skipped: row.skipped,
    errors,
    message: row.message,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
