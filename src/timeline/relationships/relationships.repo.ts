import type { Static } from '@sinclair/typebox';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { normalizePhone } from '../../contacts/people/people.matching.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { isoSeconds } from '../../platform/time.js';
import { personRecords } from '../personRecords.js';
import { requirePerson } from '../timeline.shared.js';
import type { RelationshipRow } from './relationships.presenter.js';
import type {
  RelationshipCreateBody,
  RelationshipListQuery,
  RelationshipUpdateBody,
} from './relationships.schemas.js';
import './relationships.tables.js';

type ContactInput =
  string | { value: string; type?: string; isPrimary?: boolean | number | string };
function contacts(items: ContactInput[] | undefined, phone: boolean) {
  return items?.map((item, i) => {
    const c = typeof item === 'string' ? { value: item } : item;
    const value = c.value.trim();
    const out = {
      value,
      type: c.type ?? '',
      isPrimary: c.isPrimary === undefined ? i === 0 : toBool(c.isPrimary) === true,
    };
    return phone ? { ...out, normalized: normalizePhone(value) } : out;
  });
}
function names(b: { name?: string; firstName?: string; lastName?: string }, row?: RelationshipRow) {
  let first = b.firstName ?? row?.first_name ?? '';
  let last = b.lastName ?? row?.last_name ?? '';
  if (b.name !== undefined && b.firstName === undefined && b.lastName === undefined) {
    const parts = b.name.trim().split(/\s+/);
    first = parts[0] ?? '';
    last = parts.slice(1).join(' ');
  }
  const name = b.name ?? [first, last].filter(Boolean).join(' ');
  return { name: name.trim(), first_name: first, last_name: last };
}

/** A relationship is part of its person: the person's `updated` moves and peopleUpdated fires with it. */
async function personChanged(trx: Trx, accountId: number, personIds: number[], now: number) {
  await trx
    .updateTable('people')
    .set({ updated_at: isoSeconds(now) })
    .where('account_id', '=', accountId)
    .where('id', 'in', personIds)
    .execute();
  await emit(trx, accountId, 'peopleUpdated', personIds, undefined, now);
}

/** A relationship is part of its person: each write also changes the person (see personChanged). */
export const relationships = personRecords({
  table: 'people_relationships',
  label: 'Relationship',
  events: {
    created: 'peopleRelationshipCreated',
    updated: 'peopleRelationshipUpdated',
    deleted: 'peopleRelationshipDeleted',
  },
});

/** The people a write changed: the relationship's person, and its former one after a move. */
export const personOfRelationshipChanged = (
  trx: Trx,
  row: RelationshipRow,
  write: { before?: RelationshipRow; now: number },
) =>
  personChanged(
    trx,
    row.account_id,
    [...new Set([write.before?.person_id ?? row.person_id, row.person_id])],
    write.now,
  );

export function relationshipsList(
  db: DbOrTrx,
  auth: AuthUser,
  q: Static<typeof RelationshipListQuery>,
) {
  let query = relationships.visible(db, auth);
  if (q.personId !== undefined)
    query = query.where('people_relationships.person_id', '=', q.personId);
  return query;
}

export async function newRelationshipValues(
  trx: Trx,
  auth: AuthUser,
  b: Static<typeof RelationshipCreateBody>,
) {
  const n = names(b);
  if (!n.name) throw badRequest("Give the relation's 'name' or 'firstName'/'lastName'");
  return {
    person_id: await requirePerson(trx, auth, b.personId),
    ...n,
    type: b.type ?? '',
    emails: JSON.stringify(contacts(b.emails, false) ?? []),
    phones: JSON.stringify(contacts(b.phones, true) ?? []),
    addresses: JSON.stringify(b.addresses ?? []),
  };
}

/** Only the fields sent change; emails, phones and addresses, when sent, are replaced whole. */
export async function changedRelationshipValues(
  trx: Trx,
  auth: AuthUser,
  row: RelationshipRow,
  b: Static<typeof RelationshipUpdateBody>,
) {
  const personId = b.personId ?? row.person_id;
  if (personId !== row.person_id) await requirePerson(trx, auth, personId);
  const n = names(b, row);
  if (!n.name) throw badRequest('A relationship needs a name');
  const emails = contacts(b.emails, false);
  const phones = contacts(b.phones, true);
  return {
    person_id: personId,
    ...n,
    type: b.type ?? row.type,
    emails: emails ? JSON.stringify(emails) : row.emails,
    phones: phones ? JSON.stringify(phones) : row.phones,
    addresses: b.addresses ? JSON.stringify(b.addresses) : row.addresses,
  };
}
