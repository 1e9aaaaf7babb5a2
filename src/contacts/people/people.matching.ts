import { sql } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import { reusableQuery } from '../../platform/db/reusable-query.js';
import type { PersonState } from './people.state.js';

/** Finds a person of the account by any of the emails (case-insensitive), else any of the phones (digits). */
export async function findMatchingPerson(
  db: DbOrTrx,
  accountId: number,
  emails: string[],
  phones: string[],
): Promise<{ personId: number; matchedBy: 'email' | 'phone' } | null> {
  const lowered = emails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (lowered.length) {
    const hit = await personByEmail(db, String(lowered.length), accountId, ...lowered);
    if (hit) return { personId: hit.person_id, matchedBy: 'email' };
  }
  const digits = phones.map(normalizePhone).filter(Boolean);
  if (digits.length) {
    const hit = await personByPhone(db, String(digits.length), accountId, ...digits);
    if (hit) return { personId: hit.person_id, matchedBy: 'phone' };
  }
  return null;
}

/**
 * The values, with the last repeated up to the next power of two: an `in (…)` list of a few
 * lengths only, so SQLite's statement cache keeps a few statements, not one per length.
 */
export function padded<T>(values: T[]): T[] {
  let size = 1;
  while (size < values.length) size *= 2;
  return values.concat(Array(size - values.length).fill(values[values.length - 1]));
}

/**
 * findMatchingPerson for many people at once (a bulk import): one query per 500 emails and 500
 * phones instead of one or two per person. `match` answers as findMatchingPerson would (any email, the
 * lowest id; else any phone) and `learn` records what the caller has written since, so people of
 * the same batch match each other.
 */
export async function matchingIndex(
  db: DbOrTrx,
  accountId: number,
  emails: string[],
  phones: string[],
) {
  const byEmail = new Map<string, number>();
  const byPhone = new Map<string, number>();
  const keep = (map: Map<string, number>, key: string, id: number) => {
    if (!map.has(key) || map.get(key)! > id) map.set(key, id);
  };
  const lowered = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  const digits = [...new Set(phones.map(normalizePhone).filter(Boolean))];
  // Each round trip asks for up to 500 emails and 500 phones at once (on PostgreSQL each query is one).
  for (let i = 0; i < Math.max(lowered.length, digits.length); i += 500) {
    const someEmails = lowered.slice(i, i + 500);
    const somePhones = digits.slice(i, i + 500);
    const byEmailQuery = db
      .selectFrom('person_emails')
      .select([sql.lit('e').as('kind'), 'email as value', 'person_id'])
      .where('account_id', '=', accountId)
      .where('email', 'in', padded(someEmails));
    const byPhoneQuery = db
      .selectFrom('person_phones')
      .select([sql.lit('p').as('kind'), 'normalized as value', 'person_id'])
      .where('account_id', '=', accountId)
      .where('normalized', 'in', padded(somePhones));
    const query = !somePhones.length
      ? byEmailQuery
      : !someEmails.length
        ? byPhoneQuery
        : byEmailQuery.unionAll(byPhoneQuery);
    for (const r of await query.execute())
      keep(r.kind === 'e' ? byEmail : byPhone, r.value, r.person_id);
  }
  const lowest = (map: Map<string, number>, keys: string[]) =>
    keys.reduce<number | undefined>((min, k) => {
      const id = map.get(k);
      return id !== undefined && (min === undefined || id < min) ? id : min;
    }, undefined);
  return {
    match(state: Pick<PersonState, 'emails' | 'phones'>) {
      const email = lowest(
        byEmail,
        state.emails.map((e) => e.value.trim().toLowerCase()),
      );
      if (email !== undefined) return { personId: email, matchedBy: 'email' as const };
      const phone = lowest(
        byPhone,
        state.phones.map((p) => normalizePhone(p.value)),
      );
      return phone === undefined ? null : { personId: phone, matchedBy: 'phone' as const };
    },
    learn(personId: number, state: Pick<PersonState, 'emails' | 'phones'>) {
      for (const e of state.emails) keep(byEmail, e.value.trim().toLowerCase(), personId);
      for (const p of state.phones) keep(byPhone, normalizePhone(p.value), personId);
    },
  };
}

// Run for every lead; one compiled form per number of emails (phones) matched.
const personByEmail = reusableQuery((db, _count, accountId: number, ...emails: string[]) =>
  db
    .selectFrom('person_emails')
    .select('person_id')
    .where('account_id', '=', accountId)
    .where('email', 'in', emails)
    .orderBy('person_id')
    .limit(1),
);
const personByPhone = reusableQuery((db, _count, accountId: number, ...digits: string[]) =>
  db
    .selectFrom('person_phones')
    .select('person_id')
    .where('account_id', '=', accountId)
    .where('normalized', 'in', digits)
    .orderBy('person_id')
    .limit(1),
);

/**
 * Digits only, so "(555) 010-2030" and "555.010.2030" match; a North American number written with
 * its country code (+1 555 010 2030) matches the same number written without it.
 */
export function normalizePhone(value: string): string {
  const digits = value.replace(/\D+/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}
