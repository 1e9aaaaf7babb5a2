import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { BackgroundJob } from '../../platform/jobs/types.js';
import { hourlyPurgeJob } from '../../platform/jobs/purge-job.js';
import { deleteExpiredSessions } from './sessions.js';
import { iso } from './links.js';

/** Spent or expired links and invites are kept a week for support questions, then dropped. */
const KEEP_SPENT_MS = 7 * 86400_000;

/** Expired sessions, old sign-in failures, spent setup/reset links and old invites. */
export async function purgeAuthLeftovers(db: Db, now: number): Promise<void> {
  const cutoff = iso(now - KEEP_SPENT_MS);
  await deleteExpiredSessions(db, now);
  await db
    .deleteFrom('sign_in_failures')
    .where('failed_at', '<', iso(now - 3600_000))
    .execute();
  await db.deleteFrom('password_tokens').where('expires_at', '<', cutoff).execute();
  await db
    .deleteFrom('invites')
    .where('expires_at', '<', cutoff)
    .where('accepted_at', 'is', null)
    .execute();
}

/** Hourly: keeps the session and link tables to what can still be used. */
export function authPurgeJob(ctx: AppContext): BackgroundJob {
  return hourlyPurgeJob(ctx, {
    name: 'auth-purge',
    purge: purgeAuthLeftovers,
    failure: 'session purge failed; retrying next hour',
  });
}
