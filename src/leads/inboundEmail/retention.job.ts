import type { AppContext } from '../../platform/context.js';
import type { DbOrTrx } from '../../platform/db/database.js';
import { hourlyPurgeJob } from '../../platform/jobs/purge-job.js';
import type { BackgroundJob } from '../../platform/jobs/types.js';
import { idleJob } from '../../platform/jobs/types.js';
import { isoSeconds } from '../../platform/time.js';

const DAY_MS = 86_400_000;
/** Messages purged per statement, so a first purge of years of mail never holds one long lock. */
const CHUNK = 500;

/**
 * Drops the raw bytes of messages received more than `days` ago that have been through the
 * parser (any status but `received`); the rows, their status, parser and lead stay. Answers how
 * many were purged.
 */
export async function purgeInboundRaw(db: DbOrTrx, nowMs: number, days: number): Promise<number> {
  if (days <= 0) return 0;
  const cutoff = isoSeconds(nowMs - days * DAY_MS);
  let purged = 0;
  for (;;) {
    const due = db
      .selectFrom('inbound_emails')
      .select('id')
      .where('raw_purged_at', 'is', null)
      .where('received_at', '<', cutoff)
      .where('status', '!=', 'received')
      .limit(CHUNK);
    const result = await db
      .updateTable('inbound_emails')
      .set({ raw: Buffer.alloc(0), raw_purged_at: isoSeconds(nowMs) })
      .where('id', 'in', due)
      .executeTakeFirst();
    const count = Number(result.numUpdatedRows);
    purged += count;
    if (count < CHUNK) return purged;
  }
}

/** Hourly: the raw-message purge of HEARTH_INBOUND_RETENTION_DAYS (0: kept for ever, no job). */
export function inboundRetentionJob(ctx: AppContext): BackgroundJob {
  const days = ctx.config.inbound.retentionDays;
  if (days <= 0) return idleJob('inbound-raw-purge');
  return hourlyPurgeJob(ctx, {
    name: 'inbound-raw-purge',
    purge: async (db, now) => void (await purgeInboundRaw(db, now, days)),
    failure: 'inbound raw message purge failed; retrying next hour',
  });
}
