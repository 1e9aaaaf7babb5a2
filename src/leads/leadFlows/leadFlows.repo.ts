import type { Insertable, Updateable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { LeadFlowStatus, LeadFlowsTable } from './leadFlows.tables.js';
import '../../marketing/actionPlans/actionPlans.tables.js';
import './leadFlows.tables.js';

export interface LeadFlowFilters {
  /** a source key (see `sourceKey`) */
  sourceKey?: string;
  status?: LeadFlowStatus;
}

export function leadFlowsQuery(db: DbOrTrx, accountId: number, filters: LeadFlowFilters = {}) {
  let query = db.selectFrom('lead_flows').selectAll().where('account_id', '=', accountId);
  if (filters.sourceKey !== undefined) query = query.where('source_key', '=', filters.sourceKey);
  if (filters.status) query = query.where('status', '=', filters.status);
  return query;
}

export function findLeadFlowById(db: DbOrTrx, accountId: number, id: number) {
  return leadFlowsQuery(db, accountId).where('id', '=', id).executeTakeFirst();
}

/** The id of another flow of the account with this source key, if any. */
export async function flowIdWithSourceKey(
  db: DbOrTrx,
  accountId: number,
  key: string,
  exceptId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('lead_flows')
    .select('id')
    .where('account_id', '=', accountId)
    .where('source_key', '=', key)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row?.id;
}

/** Whether a record a flow may name (user, group, stage, action plan) is in the account. */
export async function existsInAccount(
  db: DbOrTrx,
  table: 'users' | 'user_groups' | 'stages' | 'action_plans',
  accountId: number,
  id: number,
): Promise<boolean> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertLeadFlow(db: DbOrTrx, values: Insertable<LeadFlowsTable>) {
  return db.insertInto('lead_flows').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateLeadFlow(db: DbOrTrx, id: number, changes: Updateable<LeadFlowsTable>) {
  return db
    .updateTable('lead_flows')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Lead flows that started this plan stop doing so (their action_plan_id has no foreign key). */
export async function forgetActionPlan(
  db: DbOrTrx,
  accountId: number,
  actionPlanId: number,
): Promise<void> {
  await db
    .updateTable('lead_flows')
    .set({ action_plan_id: null })
    .where('account_id', '=', accountId)
    .where('action_plan_id', '=', actionPlanId)
    .execute();
}
