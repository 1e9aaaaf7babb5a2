import type { Db } from '../platform/db/database.js';
import type { DialectName } from '../platform/db/dialect.js';
import { rebuildReportCounters } from '../platform/db/migrations/0410_report_counters.js';
import { rebuildLeadDays } from '../platform/db/migrations/0470_report_lead_days.js';

/**
 * Recomputes an account's report counters from its records, in one transaction: the repair for
 * counters suspected wrong (say after a manual edit of the database), and the tests' reference.
 */
export async function rebuildAccountReportCounters(
  db: Db,
  dialect: DialectName,
  accountId: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await rebuildReportCounters(trx, dialect, accountId);
    // Last: the rebuild of report_leads moved these through its triggers.
    await rebuildLeadDays(trx, accountId);
  });
}
