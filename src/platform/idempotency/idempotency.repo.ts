import type { DbOrTrx } from '../db/database.js';
import './idempotency.tables.js';

/** Keys are kept 24 hours, as Stripe keeps them. */
export const KEY_LIFETIME_MS = 24 * 3600_000;

export function findKey(db: DbOrTrx, accountId: number, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function deleteKey(db: DbOrTrx, accountId: number, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .execute();
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Stores the answer on the row the request's transaction claimed. */
export async function storeClaimedAnswer(
  db: DbOrTrx,
  accountId: number,
  key: string,
  answer: StoredAnswer,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      status: answer.status,
      response_headers: JSON.stringify(answer.headers),
      response_body: answer.body,
    })
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .execute();
}

/** Stores the answer of a request that committed no transaction (unless another request got the key). */
export async function storeUnclaimedAnswer(
  db: DbOrTrx,
  row: { accountId: number; key: string; fingerprint: string; createdAt: string },
  answer: StoredAnswer,
): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values({
      account_id: row.accountId,
      idempotency_key: row.key,
      fingerprint: row.fingerprint,
      created_at: row.createdAt,
      status: answer.status,
      response_headers: JSON.stringify(answer.headers),
      response_body: answer.body,
    })
    .onConflict((oc) => oc.columns(['account_id', 'idempotency_key']).doNothing())
    .execute();
}

export async function purgeExpiredKeys(db: DbOrTrx, nowMs: number): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(nowMs - KEY_LIFETIME_MS).toISOString())
    .execute();
}
