import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import { isoSeconds } from '../../platform/time.js';
import type { EmSendRecipientsTable } from './emailSending.tables.js';
import './emailSending.tables.js';

export type RecipientRow = Selectable<EmSendRecipientsTable>;

/**
 * Takes up to `limit` due recipients under one new random claim, leased for `leaseMs`: queued ones
 * whose time has come, and claimed ones whose worker let the lease run out (it died before the
 * final dot, so the server never took the message). FOR UPDATE SKIP LOCKED on PostgreSQL.
 */
export async function claimRecipients(ctx: AppContext, limit: number, leaseMs: number) {
  const now = ctx.clock.now();
  const at = isoSeconds(now);
  const claim = randomBytes(12).toString('base64url');
  let due = ctx.db
    .selectFrom('em_send_recipients')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', at)]),
        eb.and([eb('status', '=', 'claimed'), eb('locked_until', '<', at)]),
      ]),
    )
    .orderBy('id')
    .limit(limit);
  if (ctx.dialect === 'postgres') due = due.forUpdate().skipLocked();
  const rows = await ctx.db
    .updateTable('em_send_recipients')
    .set((eb) => ({
      status: 'claimed',
      claim,
      locked_until: isoSeconds(now + leaseMs),
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
  return { claim, rows: rows.sort((a, b) => a.id - b.id) };
}

/**
 * Commits "being handed to the SMTP server" right before the final dot, if the claim still holds
 * (no other worker took the recipient over). False: do not finish the message.
 */
export async function markHanding(
  ctx: AppContext,
  row: RecipientRow,
  email: string,
  leaseMs: number,
): Promise<boolean> {
  const result = await ctx.db
    .updateTable('em_send_recipients')
    .set({ status: 'handing', email, locked_until: isoSeconds(ctx.clock.now() + leaseMs) })
    .where('id', '=', row.id)
    .where('claim', '=', row.claim)
    .where('status', '=', 'claimed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Recipients left in `handing` by a worker that stopped between the final dot and recording the
 * server's answer: the server had the whole message, so they count as sent (never sent again).
 */
export async function abandonedHandovers(ctx: AppContext, limit: number): Promise<RecipientRow[]> {
  return ctx.db
    .selectFrom('em_send_recipients')
    .selectAll()
    .where('status', '=', 'handing')
    .where('locked_until', '<', isoSeconds(ctx.clock.now()))
    .orderBy('id')
    .limit(limit)
    .execute();
}
