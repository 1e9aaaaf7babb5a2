import type { DbOrTrx } from '../../platform/db/database.js';
import { responsibleAgentId } from '../../contacts/people/assignment.js';
import type {} from '../../leads/events/events.tables.js';
import type { MergeAddress, MergeAgent, MergeData } from './merge-fields.js';

function streetOf(property: unknown): string | null {
  let value = property;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const street = (value as { street?: unknown } | null)?.street;
  return typeof street === 'string' ? street : null;
}

/**
 * `property.street` of the person's latest lead event whose type ends with "Inquiry" (Property
 * Inquiry, Seller Inquiry, General Inquiry), or null when there is none.
 */
export async function lastInquiryStreet(
  db: DbOrTrx,
  accountId: number,
  personId: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('lead_events')
    .select('property')
    .where('account_id', '=', accountId)
    .where('person_id', '=', personId)
    .where('type', 'like', '%Inquiry')
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? streetOf(row.property) : null;
}

export async function loadAgent(
  db: DbOrTrx,
  accountId: number,
  userId: number | null,
): Promise<MergeAgent | null> {
  if (userId === null) return null;
  const user = await db
    .selectFrom('users')
    .select(['name', 'first_name', 'last_name', 'email', 'phone'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return user
    ? {
        name: user.name,
        firstName: user.first_name,
        lastName: user.last_name,
        email: user.email,
        phone: user.phone,
      }
    : null;
}

/**
 * Everything the merge fields of a person need: the person, their assigned agent (or
 * `fallbackAgentId` when nobody is assigned) and their last inquiry's street.
 * Null when the person is not in the account.
 */
export async function loadMergeData(
  db: DbOrTrx,
  accountId: number,
  personId: number,
  fallbackAgentId: number | null,
): Promise<{ data: MergeData; agentId: number | null; email: string | null } | null> {
  const person = await db
    .selectFrom('people')
    .select([
      'name',
      'first_name',
      'last_name',
      'emails',
      'phones',
      'addresses',
      'source',
      'assigned_user_id',
      'assigned_pond_id',
    ])
    .where('account_id', '=', accountId)
    .where('id', '=', personId)
    .executeTakeFirst();
  if (!person) return null;
  const agentId =
    (await responsibleAgentId(db, accountId, {
      assignedUserId: person.assigned_user_id,
      assignedPondId: person.assigned_pond_id,
    })) ?? fallbackAgentId;
  const emails = JSON.parse(person.emails) as { value: string }[];
  const data: MergeData = {
    agent: await loadAgent(db, accountId, agentId),
    contact: {
      name: person.name,
      firstName: person.first_name,
      lastName: person.last_name,
      emails,
      phones: JSON.parse(person.phones) as { value: string }[],
      addresses: JSON.parse(person.addresses) as MergeAddress[],
      source: person.source,
    },
    inquiryStreet: await lastInquiryStreet(db, accountId, personId),
  };
  return { data, agentId, email: emails[0]?.value ?? null };
}
