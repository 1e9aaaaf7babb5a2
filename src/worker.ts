import type { AppContext } from './context.js';
import type { BackgroundJobFactory } from './jobs/types.js';
import { notificationEmailJob } from './notifications/notifications.mailer.js';
import { enrichmentJob } from './enrichment/enrichment.service.js';
import { webhookDeliveryJob } from './webhooks/webhooks.job.js';
import { actionPlansJob } from './actionPlans/actionPlans.engine.js';
import { leadOffersJob } from './claims/claims.job.js';
import { oauthPurgeJob } from './oauth/oauth.job.js';
import { authPurgeJob } from './auth/auth.job.js';
import { campaignEmailJob } from './emailSending/campaignEmail.job.js';
import { importJob, importUndoJob } from './imports/imports.job.js';
import { idempotencyPurgeJob } from './idempotency/idempotency.job.js';

export type { BackgroundJob, BackgroundJobFactory } from './jobs/types.js';

/** Every background job; HEARTH_ROLE=all or worker runs them. Add new ones here. */
export const backgroundJobFactories: BackgroundJobFactory[] = [
  notificationEmailJob,
  enrichmentJob,
  actionPlansJob,
  leadOffersJob,
  webhookDeliveryJob,
  oauthPurgeJob,
  authPurgeJob,
  campaignEmailJob,
  importJob,
  importUndoJob,
  idempotencyPurgeJob,
];

export function startWorker(ctx: AppContext): { stop(): Promise<void> } {
  const jobs = backgroundJobFactories.map((factory) => factory(ctx));
  for (const job of jobs) {
    job.start();
    ctx.log.info({ job: job.name }, 'background job started');
  }
  return {
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
