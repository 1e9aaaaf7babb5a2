import { insertRows } from '../../platform/db/reusable-query.js';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { isoSeconds } from '../../platform/time.js';
import { enqueueJob } from '../../platform/jobs/queue.js';
import type { NotificationKind } from './notifications.tables.js';
import './notifications.tables.js';

export const NOTIFICATION_EMAIL_JOB = 'notificationEmail';

export interface NotificationEmailPayload {
  notificationId: number;
  to: string;
  subject: string;
  text: string;
}

export interface LeadNotice {
  accountId: number;
  userId: number;
  personId: number;
  eventId: number | null;
  kind: NotificationKind;
  personName: string;
  eventType: string;
  source: string;
  message: string;
}

/** Pure: the title and text an agent gets about a lead. */
export function describeLead(
  notice: LeadNotice,
  personUrl: string,
): { title: string; text: string } {
  const who = notice.personName || 'A lead';
  const from = notice.source ? ` from ${notice.source}` : '';
  const title =
    notice.kind === 'newLead'
      ? `New lead: ${who} (${notice.eventType}${from})`
      : notice.kind === 'leadOffer'
        ? `Lead to claim: ${who}${from} (the first to claim it gets it)`
        : notice.kind === 'handOver'
          ? `${notice.personName || 'A person'} is now yours`
          : `${who} is back: ${notice.eventType}${from}`;
  const lines = [title, ''];
  if (notice.message) lines.push(notice.message, '');
  lines.push(`Open the contact: ${personUrl}`);
  return { title, text: lines.join('\n') };
}

/**
 * Tells the assigned agent about a lead: a notification row, and when SMTP is configured an email
 * queued for the background worker (sent after the transaction commits, never inside it).
 */
export async function notifyAgent(trx: Trx, ctx: AppContext, notice: LeadNotice): Promise<number> {
  const at = ctx.clock.now();
  const { title, text } = describeLead(
    notice,
    `${ctx.config.publicUrl}/v1/people/${notice.personId}`,
  );
  const [{ id }] = (await insertRows(
    trx,
    'notifications',
    [
      {
        account_id: notice.accountId,
        user_id: notice.userId,
        person_id: notice.personId,
        event_id: notice.eventId,
        kind: notice.kind,
        title,
        message: notice.message,
        read_at: null,
        created_at: isoSeconds(at),
      },
    ],
    { returning: 'id' },
  )) as { id: number }[];
  if (ctx.config.smtpUrl) {
    const user = await trx
      .selectFrom('users')
      .select('email')
      .where('id', '=', notice.userId)
      .executeTakeFirst();
    if (user?.email) {
      const payload: NotificationEmailPayload = {
        notificationId: id,
        to: user.email,
        subject: title,
        text,
      };
      await enqueueJob(ctx, trx, {
        accountId: notice.accountId,
        kind: NOTIFICATION_EMAIL_JOB,
        payload,
      });
    }
  }
  return id;
}
