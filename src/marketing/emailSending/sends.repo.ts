import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { OPEN_RECIPIENT_STATUSES, type EmSendsTable } from './emailSending.tables.js';
import './emailSending.tables.js';

export type SendRow = Selectable<EmSendsTable>;

export async function findSend(db: DbOrTrx, id: number): Promise<SendRow | undefined> {
  return db.selectFrom('em_sends').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The latest send of a campaign, if any. */
export async function latestSend(db: DbOrTrx, accountId: number, campaignId: number) {
  return db
    .selectFrom('em_sends')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('campaign_id', '=', campaignId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Recipients of a send per status. */
export async function recipientCounts(db: DbOrTrx, sendId: number) {
  const rows = await db
    .selectFrom('em_send_recipients')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('send_id', '=', sendId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
}

/**
 * Who built-in email events are recorded as: the user who asked for the send, or the account's
 * Owner once that user is gone. Built-in events concern the send's own recipients, so the actor
 * sees every person (role Owner).
 */
export async function senderActor(
  db: DbOrTrx,
  send: Pick<SendRow, 'account_id' | 'user_id'>,
): Promise<AuthUser> {
  let query = db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('account_id', '=', send.account_id);
  query =
    send.user_id === null
      ? query.where('role', '=', 'Owner').orderBy('id')
      : query.where('id', '=', send.user_id);
  const user = await query.executeTakeFirstOrThrow();
  return {
    accountId: send.account_id,
    userId: user.id,
    role: 'Owner',
    name: user.name,
    email: user.email,
  };
}

/**
 * Closes unfinished sends that have no recipient left to work on (all of them deleted with their
 * person, or cancelled), optionally only those of one campaign. A send's recipients are inserted
 * in the transaction that creates it, so a send being created is never closed empty.
 */
export async function closeEmptySends(db: DbOrTrx, at: string, campaignId?: number) {
  let query = db
    .updateTable('em_sends')
    .set({ status: 'done', finished_at: at })
    .where('status', '<>', 'done')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('em_send_recipients as r')
            .select('r.id')
            .whereRef('r.send_id', '=', 'em_sends.id')
            .where('r.status', 'in', [...OPEN_RECIPIENT_STATUSES]),
        ),
      ),
    );
  if (campaignId !== undefined) query = query.where('campaign_id', '=', campaignId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
