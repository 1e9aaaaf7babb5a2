import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { InvitesTable } from '../auth/auth.tables.js';
import '../auth/auth.tables.js';

export type InviteRow = Selectable<InvitesTable>;

/** The account's invites not used and not expired at `nowIso`, newest first (at most 500). */
export function pendingInvites(db: DbOrTrx, accountId: number, nowIso: string) {
  return db
    .selectFrom('invites')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
}

/** Deletes a pending invite; false when the account has no such invite not yet used. */
export async function withdrawInvite(db: DbOrTrx, accountId: number, id: number) {
  const deleted = await db
    .deleteFrom('invites')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return deleted.numDeletedRows !== 0n;
}
