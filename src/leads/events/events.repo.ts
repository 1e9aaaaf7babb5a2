import { insertRows } from '../../platform/db/reusable-query.js';
import type { Insertable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { onlyVisiblePeople } from '../../access/visibility.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import type { LeadEventsTable } from './events.tables.js';
import './events.tables.js';

export async function insertEvent(trx: Trx, values: Insertable<LeadEventsTable>): Promise<number> {
  const [row] = await insertRows(trx, 'lead_events', [values], { returning: 'id' });
  return row.id as number;
}

/** Events of the account that `auth` may see (Agents and Lenders: only those of their people). */
export function visibleEventsQuery(db: DbOrTrx, auth: AuthUser) {
  const query = db
    .selectFrom('lead_events')
    .selectAll('lead_events')
    .where('lead_events.account_id', '=', auth.accountId);
  return onlyVisiblePeople(query, db, auth, 'lead_events.person_id');
}

export interface IdentityKey {
  kind: 'email' | 'phone';
  value: string;
}

/**
 * A concurrent request changed who this lead is (created the same new lead first, or deleted the
 * matched person): the lead's transaction is run again from the start.
 */
export class IdentityTakenError extends Error {
  constructor() {
    super('a concurrent request changed the person this lead matches');
  }
}

const KEY_COLUMNS = ['account_id', 'kind', 'value'];
const identityRows = (accountId: number, personId: number, keys: IdentityKey[]) =>
  keys.map((k) => ({ account_id: accountId, person_id: personId, kind: k.kind, value: k.value }));

async function insertKeys(
  trx: Trx,
  accountId: number,
  personId: number,
  keys: IdentityKey[],
): Promise<number> {
  const inserted = await insertRows(
    trx,
    'lead_identity_keys',
    identityRows(accountId, personId, keys),
    { onConflictDoNothing: KEY_COLUMNS, returning: 'value' },
  );
  return inserted.length;
}

/** Deletes keys whose person no longer carries that email or phone (changed since by PUT /v1/people). */
async function releaseStaleKeys(trx: Trx, accountId: number, keys: IdentityKey[]): Promise<void> {
  const emails = keys.filter((k) => k.kind === 'email').map((k) => k.value);
  const phones = keys.filter((k) => k.kind === 'phone').map((k) => k.value);
  if (emails.length) {
    await trx
      .deleteFrom('lead_identity_keys')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'email')
      .where('value', 'in', emails)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('person_emails')
              .select('person_emails.person_id')
              .whereRef('person_emails.person_id', '=', 'lead_identity_keys.person_id')
              .whereRef('person_emails.email', '=', 'lead_identity_keys.value'),
          ),
        ),
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
        not(
          exists(
            selectFrom('person_phones')
              .select('person_phones.person_id')
              .whereRef('person_phones.person_id', '=', 'lead_identity_keys.person_id')
              .whereRef('person_phones.normalized', '=', 'lead_identity_keys.value'),
          ),
        ),
      )
      .execute();
  }
}

/**
 * Claims the emails and phones of a person just created from a lead. The UNIQUE index on
 * (account_id, kind, value) decides between concurrent creations of the same lead: on PostgreSQL
 * the second insert waits for the first transaction and then finds the key taken. The loser throws
 * IdentityTakenError, and the caller runs its whole transaction again, now matching the winner.
 * Keys left behind by a person who no longer carries that email or phone are released and retaken.
 */
export async function claimIdentityKeys(
  trx: Trx,
  accountId: number,
  personId: number,
  keys: IdentityKey[],
): Promise<void> {
  if (keys.length === 0) return;
  // Sorted, so two transactions claiming overlapping sets wait on the index in the same order.
  const sorted = [...keys].sort((a, b) => (a.kind + a.value < b.kind + b.value ? -1 : 1));
  if ((await insertKeys(trx, accountId, personId, sorted)) === sorted.length) return;
  const held = await trx
    .selectFrom('lead_identity_keys')
    .select(['kind', 'value'])
    .where('account_id', '=', accountId)
    .where('person_id', '!=', personId)
    .where((eb) =>
      eb.or(sorted.map((k) => eb.and([eb('kind', '=', k.kind), eb('value', '=', k.value)]))),
    )
    .execute();
  await releaseStaleKeys(trx, accountId, held);
  if (held.length && (await insertKeys(trx, accountId, personId, held)) < held.length)
    throw new IdentityTakenError();
}

/** Records the keys of contacts a returning lead adds, without contesting keys held by someone else. */
export async function addIdentityKeys(
  trx: Trx,
  accountId: number,
  personId: number,
  keys: IdentityKey[],
): Promise<void> {
  if (keys.length === 0) return;
  await insertRows(trx, 'lead_identity_keys', identityRows(accountId, personId, keys), {
    onConflictDoNothing: KEY_COLUMNS,
  });
}

/** Errors after which the whole lead transaction is worth running again. */
export function isRetryableLeadError(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return (
    err instanceof IdentityTakenError ||
    isUniqueViolation(err) ||
    code === '40P01' ||
    code === '40001'
  );
}
