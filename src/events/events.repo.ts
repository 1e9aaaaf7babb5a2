import type { Insertable } from 'kysely';
import type { DbOrTrx, Trx } from '../db/database.js';
import type { AuthUser } from '../http/auth.js';
import { visiblePersonIds } from '../people/people.access.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { LeadEventsTable } from './events.tables.js';
import './events.tables.js';

export async function insertEvent(trx: Trx, values: Insertable<LeadEventsTable>): Promise<number> {
  const { id } = await trx.insertInto('lead_events').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Events of the account that `auth` may see (Agents and Lenders: only those of their people). */
export function visibleEventsQuery(db: DbOrTrx, auth: AuthUser) {
  let query = db.selectFrom('lead_events').selectAll('lead_events').where('lead_events.account_id', '=', auth.accountId);
  if (auth.role !== 'Owner' && auth.role !== 'Admin') query = query.where('lead_events.person_id', 'in', visiblePersonIds(db, auth));
  return query;
}

export interface IdentityKey {
  kind: 'email' | 'phone';
  value: string;
}

/**
 * Claims the emails and phones of a person just created from a lead. The UNIQUE index on
 * (account_id, kind, value) makes a second, concurrent creation of the same lead fail here; the
 * caller then retries its whole transaction and finds the first person. Keys left behind by a
 * person who no longer carries that email or phone are released first.
 */
export async function claimIdentityKeys(trx: Trx, accountId: number, personId: number, keys: IdentityKey[]): Promise<void> {
  if (keys.length === 0) return;
  // Sorted, so two transactions claiming overlapping sets lock the index in the same order.
  const sorted = [...keys].sort((a, b) => (a.kind + a.value < b.kind + b.value ? -1 : 1));
  const emails = sorted.filter((k) => k.kind === 'email').map((k) => k.value);
  const phones = sorted.filter((k) => k.kind === 'phone').map((k) => k.value);
  if (emails.length) {
    await trx
      .deleteFrom('lead_identity_keys')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'email')
      .where('value', 'in', emails)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('person_emails').select('person_emails.person_id').whereRef('person_emails.person_id', '=', 'lead_identity_keys.person_id').whereRef('person_emails.email', '=', 'lead_identity_keys.value'))),
      )
      .execute();
  }
  if (phones.length) {
    await trx
      .deleteFrom('lead_identity_keys')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'phone')
      .where('value', 'in', phones)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('person_phones').select('person_phones.person_id').whereRef('person_phones.person_id', '=', 'lead_identity_keys.person_id').whereRef('person_phones.normalized', '=', 'lead_identity_keys.value'))),
      )
      .execute();
  }
  await trx.insertInto('lead_identity_keys').values(sorted.map((k) => ({ account_id: accountId, person_id: personId, kind: k.kind, value: k.value }))).execute();
}

/** Records the keys of contacts a returning lead adds, without contesting keys held by someone else. */
export async function addIdentityKeys(trx: Trx, accountId: number, personId: number, keys: IdentityKey[]): Promise<void> {
  if (keys.length === 0) return;
  await trx
    .insertInto('lead_identity_keys')
    .values(keys.map((k) => ({ account_id: accountId, person_id: personId, kind: k.kind, value: k.value })))
    .onConflict((oc) => oc.columns(['account_id', 'kind', 'value']).doNothing())
    .execute();
}

/** Errors after which the whole lead transaction is worth running again. */
export function isRetryableLeadError(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return isUniqueViolation(err) || code === '40P01' || code === '40001';
}
