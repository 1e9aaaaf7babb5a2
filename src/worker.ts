import type { AppContext } from './platform/context.js';
import type { BackgroundJobFactory } from './platform/jobs/types.js';
import { notificationEmailJob } from './accounts/notifications/notifications.mailer.js';
import { enrichmentJob } from './leads/enrichment/enrichment.service.js';
import { webhookDeliveryJob } from './accounts/webhooks/webhooks.job.js';
import { actionPlansJob } from './marketing/actionPlans/actionPlans.engine.js';
import { leadOffersJob } from './leads/claims/claims.job.js';
import { oauthPurgeJob } from './accounts/oauth/oauth.job.js';
import { authPurgeJob } from './accounts/auth/auth.job.js';
import { campaignEmailJob } from './marketing/emailSending/campaignEmail.job.js';
import { importJob, importUndoJob } from './contacts/imports/imports.job.js';
import { bulkActionJob } from './contacts/bulkActions/bulkActions.job.js';
import { idempotencyPurgeJob } from './platform/idempotency/idempotency.job.js';
import { inboundParseJob } from './leads/inboundEmail/parse.job.js';
import { inboundHistoricJob } from './leads/inboundEmail/historic.job.js';
import { inboundRetentionJob } from './leads/inboundEmail/retention.job.js';
import { automationRunsJob } from './marketing/automations/engine.js';
import { automationScanJob } from './marketing/automations/scan.js';
import { startTriggeredRunsApart } from './marketing/automations/triggers.js';
import { mailboxSyncJob } from './inbox/mailboxes/sync/mailboxSync.job.js';

export type { BackgroundJob, BackgroundJobFactory } from './platform/jobs/types.js';

/** Every background job; HEARTH_ROLE=all or worker runs them. Add new ones here. */
export const backgroundJobFactories: BackgroundJobFactory[] = [
  notificationEmailJob,
  enrichmentJob,
  actionPlansJob,
  automationRunsJob,
  automationScanJob,
  leadOffersJob,
  (ctx) => webhookDeliveryJob(ctx, [startTriggeredRunsApart]),
  oauthPurgeJob,
  authPurgeJob,
  campaignEmailJob,
  importJob,
  importUndoJob,
  bulkActionJob,
  idempotencyPurgeJob,
  inboundParseJob,
  inboundHistoricJob,
  inboundRetentionJob,
  mailboxSyncJob,
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
