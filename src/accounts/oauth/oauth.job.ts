import type { AppContext } from '../../platform/context.js';
import type { BackgroundJob } from '../../platform/jobs/types.js';
import { hourlyPurgeJob } from '../../platform/jobs/purge-job.js';
import { purgeExpired } from './oauth.repo.js';
import { purgeUnclaimedRegistrations } from './registrations.js';

/** Hourly: drops token rows whose refresh token can no longer be used, and spent codes without tokens. */
export function oauthPurgeJob(ctx: AppContext): BackgroundJob {
  return hourlyPurgeJob(ctx, {
    name: 'oauth-purge',
    purge: async (db, now) => {
      await purgeExpired(db, now);
      await purgeUnclaimedRegistrations(db, now);
    },
    failure: 'oauth purge failed; retrying next hour',
  });
}
