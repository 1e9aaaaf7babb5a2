import type { DbOrTrx } from '../../platform/db/database.js';
import { loadMergeData } from '../templates/merge-data.js';
import type { MergeData } from '../templates/merge-fields.js';
import { stageIdNamed } from '../../contacts/people/people.repo.js';
import type { RecipientRow } from './recipients.queue.js';

/** Email statuses (set by unsubscribe, spam report and hard-bounce events) that stop sending. */
const SUPPRESSED_STATUSES = new Set(['unsubscribed', 'bad']);
const SUPPRESSING_EVENTS = ['unsubscribe', 'spamreport', 'hard-bounce'] as const;

export type Target =
  | { kind: 'send'; email: string; data: MergeData }
  | { kind: 'skipped' | 'dropped'; email: string; reason: string };

interface StoredEmail {
  value: string;
  status?: string;
  isPrimary?: boolean;
}

/**
 * Whom one recipient's message goes to, or why it does not: skipped (no email, Trash stage,
 * deleted) or dropped (the address unsubscribed, reported spam or hard-bounced, by its status or
 * by any built-in or third-party event for it).
 */
export async function targetOf(
  db: DbOrTrx,
  row: RecipientRow,
  senderId: number | null,
): Promise<Target> {
  const person = await db
    .selectFrom('people')
    .select(['emails', 'stage_id'])
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.person_id)
    .executeTakeFirst();
  if (!person) return { kind: 'skipped', email: '', reason: 'the person was deleted' };
  const emails = JSON.parse(person.emails) as StoredEmail[];
  const primary = emails.find((e) => e.isPrimary) ?? emails[0];
  const email = primary?.value?.trim() ?? '';
  if (!email) return { kind: 'skipped', email: '', reason: 'the person has no email address' };
  const trashId = await stageIdNamed(db, row.account_id, 'Trash');
  if (trashId !== null && person.stage_id === trashId)
    return { kind: 'skipped', email, reason: 'the person is in the Trash stage' };
  if (SUPPRESSED_STATUSES.has((primary.status ?? '').toLowerCase()))
    return { kind: 'dropped', email, reason: `the address is marked ${primary.status}` };
  const events = await db
    .selectFrom('em_events')
    .select(['type', 'recipient'])
    .where('account_id', '=', row.account_id)
    .where('person_id', '=', row.person_id)
    .where('type', 'in', SUPPRESSING_EVENTS)
    .execute();
  const lower = email.toLowerCase();
  const stop = events.find((e) => !e.recipient || e.recipient.trim().toLowerCase() === lower);
  if (stop) return { kind: 'dropped', email, reason: `the address had a ${stop.type} event` };
  const merge = await loadMergeData(db, row.account_id, row.person_id, senderId);
  if (!merge) return { kind: 'skipped', email, reason: 'the person was deleted' };
  return { kind: 'send', email, data: merge.data };
}
