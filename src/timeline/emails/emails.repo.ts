import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { toBool } from '../../platform/http/schemas.js';
import { touchLastActivity } from '../../contacts/people/people.activity.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { isoSeconds } from '../../platform/time.js';
import { personRecords } from '../personRecords.js';
import { isoField, requirePerson } from '../timeline.shared.js';
import type { EmailCreateBody, EmailListQuery, EmailUpdateBody } from './emails.schemas.js';
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
  /** From a connected mailbox: the Message-ID, its conversation's first one, the sanitised HTML. */
  messageId?: string | null;
  threadId?: string | null;
  htmlBody?: string | null;
  mailboxId?: number | null;
  /** Time of the change (ms); defaults to now. Pass ctx.clock.now() so tests can move time. */
  now?: number;
}

/** The stored columns of a logged email (sentAt defaults to the time it is logged). */
export function emailColumns(values: Omit<NewEmail, 'now'>, at: string) {
  return {
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
    message_id: values.messageId ?? null,
    thread_id: values.threadId ?? values.messageId ?? null,
    html_body: values.htmlBody ?? null,
    mailbox_id: values.mailboxId ?? null,
  };
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
    .values({ ...emailColumns(values, at), account_id: accountId, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await touchLastActivity(trx, accountId, values.personId, at);
  await emit(trx, accountId, 'emailsCreated', [row.id], undefined, now);
  return row.id;
}

export const emails = personRecords({
  table: 'emails',
  label: 'Email',
  events: { created: 'emailsCreated', updated: 'emailsUpdated', deleted: 'emailsDeleted' },
  sorts: { sentAt: "coalesce(emails.sent_at, '')" },
});

export function emailsList(db: DbOrTrx, auth: AuthUser, q: Static<typeof EmailListQuery>) {
  let query = emails.visible(db, auth);
  if (q.personId !== undefined) query = query.where('emails.person_id', '=', q.personId);
  if (q.system) query = query.where('emails.system', '=', q.system);
  return query;
}

/** One address or several, trimmed; empty entries dropped. */
const addressList = (value: string | string[] | undefined) =>
  value === undefined
    ? undefined
    : (Array.isArray(value) ? value : [value]).map((a) => a.trim()).filter(Boolean);

const sentAt = (raw: string | undefined) =>
  raw === undefined ? undefined : isoField(raw, 'sentAt');

export async function newEmailValues(
  trx: Trx,
  auth: AuthUser,
  b: Static<typeof EmailCreateBody>,
  system: string,
  at: string,
) {
  const values = {
    personId: await requirePerson(trx, auth, b.personId),
    subject: b.subject,
    body: b.body,
    isHtml: toBool(b.isHtml),
    from: b.from,
    to: addressList(b.to),
    cc: addressList(b.cc),
    isIncoming: toBool(b.isIncoming),
    sentAt: sentAt(b.sentAt),
    userId: auth.userId,
    system,
  };
  return emailColumns(values, at);
}

/** Only the fields sent change. */
export async function changedEmailValues(
  trx: Trx,
  auth: AuthUser,
  row: EmailRow,
  b: Static<typeof EmailUpdateBody>,
) {
  if (b.personId !== undefined && b.personId !== row.person_id)
    await requirePerson(trx, auth, b.personId);
  const to = addressList(b.to);
  const cc = addressList(b.cc);
  return {
    person_id: b.personId ?? row.person_id,
    subject: b.subject ?? row.subject,
    body: b.body ?? row.body,
    is_html: b.isHtml === undefined ? row.is_html : toBool(b.isHtml) ? 1 : 0,
    from_address: b.from ?? row.from_address,
    to_addresses: to ? JSON.stringify(to) : row.to_addresses,
    cc_addresses: cc ? JSON.stringify(cc) : row.cc_addresses,
    is_incoming: b.isIncoming === undefined ? row.is_incoming : toBool(b.isIncoming) ? 1 : 0,
    sent_at: sentAt(b.sentAt) ?? row.sent_at,
  };
}
