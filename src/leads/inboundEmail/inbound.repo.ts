import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { InboundEmailsTable } from './inboundEmail.tables.js';

export const LISTED = [
  'id',
  'received_at',
  'mail_from',
  'rcpt_to',
  'subject',
  'status',
  'parser',
  'person_id',
  'event_id',
  'user_id',
  'error',
  'parsed_at',
  'raw_purged_at',
] as const;

export type InboundRow = Pick<Selectable<InboundEmailsTable>, (typeof LISTED)[number]>;

/** The account's messages (an mbox upload's too); `unparsed` includes those awaiting the parser. */
export function inboundList(db: DbOrTrx, accountId: number, status: string | undefined) {
  let query = db.selectFrom('inbound_emails').select(LISTED).where('account_id', '=', accountId);
  if (status === 'unparsed') query = query.where('status', 'in', ['unparsed', 'received']);
  else if (status) query = query.where('status', '=', status as InboundEmailsTable['status']);
  return query;
}

export function findInbound(db: DbOrTrx, accountId: number, id: number) {
  return db
    .selectFrom('inbound_emails')
    .select([...LISTED, 'raw'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function presentInbound(row: InboundRow) {
  return {
    id: row.id,
    receivedAt: row.received_at,
    from: row.mail_from,
    to: row.rcpt_to,
    subject: row.subject,
    status: row.status === 'received' ? 'unparsed' : row.status,
    parser: row.parser,
    personId: row.person_id,
    eventId: row.event_id,
    userId: row.user_id,
    error: row.error,
    parsedAt: row.parsed_at,
    rawPurgedAt: row.raw_purged_at,
  };
}
