import type { AppContext } from '../context.js';
import type { BackgroundJob } from '../jobs/types.js';
import { hourlyPurgeJob } from '../jobs/purge-job.js';
import { purgeExpiredKeys } from './idempotency.repo.js';

/** Hourly: drops Idempotency-Key records older than 24 hours. */
export function idempotencyPurgeJob(ctx: AppContext): BackgroundJob {
  return hourlyPurgeJob(ctx, {
    name: 'idempotency-purge',
    purge: purgeExpiredKeys,
    failure: 'idempotency key purge failed; retrying next hour',
  });
}
