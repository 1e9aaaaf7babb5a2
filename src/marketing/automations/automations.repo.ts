import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../accounts/auth/authenticate.js';
import { onlyVisiblePeople } from '../../access/visibility.js';
import type { AutomationRunsTable, AutomationsTable, RunStatus } from './automations.tables.js';
import './automations.tables.js';

export type AutomationRow = Selectable<AutomationsTable>;
export type RunRow = Selectable<AutomationRunsTable>;
export type RunWithName = RunRow & { automation_name: string };

/** Runs that are not over: they count as "people running" and block a second start. */
export const LIVE_STATUSES: RunStatus[] = ['Initial', 'Running', 'Paused'];

export function automationsQuery(db: DbOrTrx, accountId: number) {
  return db.selectFrom('automations').selectAll().where('account_id', '=', accountId);
}

export function findAutomation(db: DbOrTrx, accountId: number, id: number) {
  return automationsQuery(db, accountId).where('id', '=', id).executeTakeFirst();
}

/** People running per automation (live runs), for the list and the builder's counts. */
export async function liveRunCounts(
  db: DbOrTrx,
  accountId: number,
  automationIds: number[],
): Promise<Map<number, number>> {
  if (automationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('automation_runs')
    .select(['automation_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('automation_id', 'in', automationIds)
    .where('status', 'in', LIVE_STATUSES)
    .groupBy('automation_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.automation_id), Number(r.n)]));
}

/** Runs of the people the caller sees, with their automation's name. */
export function visibleRuns(db: DbOrTrx, auth: AuthUser) {
  const query = db
    .selectFrom('automation_runs as ar')
    .innerJoin('automations as a', 'a.id', 'ar.automation_id')
    .selectAll('ar')
    .select('a.name as automation_name')
    .where('ar.account_id', '=', auth.accountId);
  return onlyVisiblePeople(query, db, auth, 'ar.person_id');
}

export function findVisibleRun(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<RunWithName | undefined> {
  return visibleRuns(db, auth).where('ar.id', '=', id).executeTakeFirst();
}
