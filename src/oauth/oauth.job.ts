import type { AppContext } from '../context.js';
import type { BackgroundJob } from '../jobs/types.js';
import { hourlyPurgeJob } from '../jobs/purge-job.js';
import { purgeExpired } from './oauth.repo.js';

/** Hourly: drops token rows whose refresh token can no longer be used, and spent codes without tokens. */
export function oauthPurgeJob(ctx: AppContext): BackgroundJob {
  return hourlyPurgeJob(ctx, {
    name: 'oauth-purge',
    purge: purgeExpired,
    failure: 'oauth purge failed; retrying next hour',
  });
}
