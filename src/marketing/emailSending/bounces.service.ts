import type { AppContext } from '../../platform/context.js';
import { recordEmEvents } from '../emEvents/emEvents.service.js';
import { bounceKind, type DsnReport, type DsnRecipient } from './dsn.js';
import { BUILT_IN_SYSTEM } from './outcomes.js';
import type { RecipientRow } from './recipients.queue.js';
import type { RecipientStatus } from './emailSending.tables.js';
import { findSend, senderActor } from './sends.repo.js';
import { tokenOfMessageId, type LinkKeys } from './tracking-links.js';

export interface BounceResult {
  recorded: { email: string; type: string; campaignId: number; personId: number }[];
  ignored: { email: string; reason: string }[];
}

/**
 * The recipient a report is about: by the Message-ID Hearth set (token and signature) when the
 * report quotes it and the address matches; else the latest message Hearth sent to that address.
 */
async function recipientOf(
  ctx: AppContext,
  keys: LinkKeys,
  report: DsnReport,
  r: DsnRecipient,
): Promise<RecipientRow | undefined> {
  const address = r.email.toLowerCase();
  for (const id of report.messageIds) {
    const token = tokenOfMessageId(keys, id);
    if (!token) continue;
    const row = await ctx.db
      .selectFrom('em_send_recipients')
      .selectAll()
      .where('token', '=', token)
      .executeTakeFirst();
    if (row && row.email.toLowerCase() === address) return row;
  }
  return ctx.db
    .selectFrom('em_send_recipients')
    .selectAll()
    .where('email', 'in', [...new Set([r.email, address])])
    .where('status', 'in', ['sent', 'soft-bounce'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Records what a bounce report says: per failed recipient a `hard-bounce` (5.x.x; the address is
 * marked Bad and dropped from later sends) or `soft-bounce` (4.x.x) emEvent on the campaign and
 * person, and the recipient's outcome in the send. A report repeated, or about a message Hearth
 * did not send, changes nothing.
 */
export async function recordBounceReport(
  ctx: AppContext,
  keys: LinkKeys,
  report: DsnReport,
): Promise<BounceResult> {
  const result: BounceResult = { recorded: [], ignored: [] };
  for (const r of report.recipients.slice(0, 100)) {
    const type = bounceKind(r);
    if (!type) {
      result.ignored.push({
        email: r.email,
        reason: `not a failure (${r.action || 'no action'}, status ${r.status || 'none'})`,
      });
      continue;
    }
    const row = await recipientOf(ctx, keys, report, r);
    if (!row) {
      result.ignored.push({
        email: r.email,
        reason: 'no campaign email Hearth sent to this address',
      });
      continue;
    }
    const from: RecipientStatus[] = type === 'hard-bounce' ? ['sent', 'soft-bounce'] : ['sent'];
    const changed = await ctx.db.transaction().execute(async (trx) => {
      const update = await trx
        .updateTable('em_send_recipients')
        .set({ status: type, reason: (r.diagnostic || `status ${r.status}`).slice(0, 1000) })
        .where('id', '=', row.id)
        .where('status', 'in', from)
        .executeTakeFirst();
      if (Number(update.numUpdatedRows) !== 1) return null;
      const send = (await findSend(trx, row.send_id))!;
      await recordEmEvents(
        trx,
        { auth: await senderActor(trx, send), system: BUILT_IN_SYSTEM },
        [{ campaignId: send.campaign_id, personId: row.person_id, recipient: row.email, type }],
        { now: ctx.clock.now(), dialect: ctx.dialect },
      );
      return send.campaign_id;
    });
    if (changed === null)
      result.ignored.push({ email: r.email, reason: 'this bounce was already recorded' });
    else
      result.recorded.push({
        email: row.email,
        type,
        campaignId: changed,
        personId: row.person_id,
      });
  }
  return result;
}
