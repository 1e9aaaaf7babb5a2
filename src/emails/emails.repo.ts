import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../db/database.js';
import { touchLastActivity } from '../people/people.access.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import type { EmailsTable } from './emails.tables.js';

export type EmailRow = Selectable<EmailsTable>;

export interface NewEmail {
  personId: number;
  subject?: string;
  body?: string;
  isHtml?: boolean;
  from?: string;
  to?: string[];
  cc?: string[];
  isIncoming?: boolean;
  /** ISO 8601; defaults to the time of the change. */
  sentAt?: string | null;
  userId?: number | null;
  system?: string;
  /** Time of the change (ms); defaults to now. Pass ctx.clock.now() so tests can move time. */
  now?: number;
}

/**
 * Logs an email on a person's timeline (Hearth records it, it sends nothing), records
 * `emailsCreated` and updates the person's lastActivity, all in the caller's transaction;
 * returns the new id. The caller has checked that the person belongs to `accountId`.
 * Shared with action plans: keep this signature stable.
 */
export async function insertEmail(trx: Trx, accountId: number, values: NewEmail): Promise<number> {
  const now = values.now ?? Date.now();
  const at = isoSeconds(now);
  const row = await trx
    .insertInto('emails')
    .values({
      account_id: accountId,
      person_id: values.personId,
      subject: values.subject ?? '',
      body: values.body ?? '',
      is_html: values.isHtml ? 1 : 0,
      from_address: values.from ?? '',
      to_addresses: JSON.stringify(values.to ?? []),
      cc_addresses: JSON.stringify(values.cc ?? []),
      is_incoming: values.isIncoming ? 1 : 0,
      sent_at: values.sentAt ?? at,
      user_id: values.userId ?? null,
      system: values.system ?? '',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await touchLastActivity(trx, accountId, values.personId, at);
  await emit(trx, accountId, 'emailsCreated', [row.id], undefined, now);
  return row.id;
}

export function emailsQuery(db: DbOrTrx, accountId: number) {
  return db.selectFrom('emails').selectAll('emails').where('emails.account_id', '=', accountId);
}

export async function findEmail(db: DbOrTrx, accountId: number, id: number): Promise<EmailRow | undefined> {
  return emailsQuery(db, accountId).where('emails.id', '=', id).executeTakeFirst();
}
