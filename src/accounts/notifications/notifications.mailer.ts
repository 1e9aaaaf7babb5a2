import type { AppContext } from '../../platform/context.js';
import type { BackgroundJobFactory } from '../../platform/jobs/types.js';
import { idleJob } from '../../platform/jobs/types.js';
import { queueWorker } from '../../platform/jobs/queue-worker.js';
import { NOTIFICATION_EMAIL_JOB, type NotificationEmailPayload } from './notifications.service.js';

/** Retries of a failed send: 1 min, 5 min, 15 min, 1 h, 3 h, then the email is given up. */
const RETRY_SCHEDULE = [60, 300, 900, 3600, 10800];

/** Sends queued agent emails through HEARTH_SMTP_URL. Without it nothing is queued, and the job does not run. */
export const notificationEmailJob: BackgroundJobFactory = (ctx: AppContext) => {
  const transport = ctx.smtp;
  if (!transport) return idleJob('notification-emails');
  const from = `Hearth <notifications@${new URL(ctx.config.publicUrl).hostname}>`;
  const job = queueWorker(ctx, {
    name: 'notification-emails',
    kind: NOTIFICATION_EMAIL_JOB,
    retrySchedule: RETRY_SCHEDULE,
    async handle(row) {
      const payload = JSON.parse(row.payload) as NotificationEmailPayload;
      // The person (and so the notification) may have been deleted since: nothing to tell then.
      const still = await ctx.db
        .selectFrom('notifications')
        .select('id')
        .where('id', '=', payload.notificationId)
        .executeTakeFirst();
      if (!still) return;
      await transport.sendMail({
        from,
        to: payload.to,
        subject: payload.subject,
        text: payload.text,
      });
    },
  });
  return {
    name: job.name,
    start: () => job.start(),
    stop: () => job.stop(),
  };
};
