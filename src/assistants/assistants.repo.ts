import { sql } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import { stamp } from '../accounts/oauth/oauth.repo.js';
import '../accounts/oauth/oauth.tables.js';

/**
 * The account's AI assistants: clients that registered themselves (RFC 7591) or hold tokens bound
 * to /mcp, with how many users have a live authorization and when one was last refreshed.
 */
export function assistantsQuery(db: DbOrTrx, accountId: number, now: number) {
  const live = stamp(now);
  return db
    .selectFrom('oauth_clients as c')
    .select([
      'c.id',
      'c.identifier',
      'c.name',
      'c.redirect_uris',
      'c.created_at',
      (eb) =>
        eb
          .selectFrom('oauth_tokens as t')
          .select(sql<number>`count(distinct t.user_id)`.as('n'))
          .whereRef('t.client_id', '=', 'c.id')
          .where('t.revoked_at', 'is', null)
          .where('t.refresh_expires_at', '>', live)
          .as('users'),
    ])
    .where('c.account_id', '=', accountId)
    .where((eb) =>
      eb.or([
        eb('c.dynamic', '=', 1),
        eb.exists(
          eb
            .selectFrom('oauth_tokens as r')
            .select('r.id')
            .whereRef('r.client_id', '=', 'c.id')
            .where('r.resource', 'is not', null),
        ),
      ]),
    );
}

/**
 * Disconnects an assistant: the client and with it every code and token it holds (cascade). It
 * may register again, and then needs a user's consent again. False when not the account's.
 */
export async function removeAssistant(
  db: DbOrTrx,
  accountId: number,
  id: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('oauth_clients')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
