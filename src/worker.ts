import type { AppContext } from './context.js';
import { notificationEmailJob } from './notifications/notifications.mailer.js';
import { enrichmentJob } from './enrichment/enrichment.service.js';
import { webhookDeliveryJob } from './webhooks/webhooks.job.js';
import { actionPlansJob } from './actionPlans/actionPlans.engine.js';
import { oauthPurgeJob } from './oauth/oauth.job.js';

/** A loop that runs beside (or instead of) the API: webhook delivery, scheduled automations. */
export interface BackgroundJob {
  name: string;
  /** Starts the loop; must return promptly. */
  start(): void;
  /** Stops taking new work and resolves once in-flight work has finished. */
  stop(): Promise<void>;
}

export type BackgroundJobFactory = (ctx: AppContext) => BackgroundJob;

/** Every background job; HEARTH_ROLE=all or worker runs them. Add new ones here. */
export const backgroundJobFactories: BackgroundJobFactory[] = [notificationEmailJob, enrichmentJob, actionPlansJob, webhookDeliveryJob, oauthPurgeJob];

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
