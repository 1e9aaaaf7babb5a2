import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../db/database.js';
import { cleanSource } from '../people/people.service.js';
import { nextInRotation } from '../groups/groups.repo.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { LeadFlowsTable } from './leadFlows.tables.js';
import './leadFlows.tables.js';

export type LeadFlowRow = Selectable<LeadFlowsTable>;

/** Sources match case-insensitively and without a leading "www.". */
export function sourceKey(source: string): string {
  return cleanSource(source).toLowerCase();
}

const flowBySource = reusableQuery((db, _shape, accountId: number, key: string) =>
  db.selectFrom('lead_flows').selectAll().where('account_id', '=', accountId).where('source_key', '=', key),
);

/** Read on every lead: compiled once, and outside a transaction answered by SQLite's read connection. */
export async function findLeadFlow(db: DbOrTrx, accountId: number, source: string): Promise<LeadFlowRow | undefined> {
  const key = sourceKey(source);
  if (!key) return undefined;
  return flowBySource(db, 'flow', accountId, key);
}

const firstOwner = reusableQuery((db, _shape, accountId: number) =>
  db.selectFrom('users').select('id').where('account_id', '=', accountId).where('role', '=', 'Owner').orderBy('id').limit(1),
);

export async function accountOwnerId(db: DbOrTrx, accountId: number): Promise<number | null> {
  return (await firstOwner(db, 'owner', accountId))?.id ?? null;
}

/**
 * Who a new lead goes to: the flow's user, else the next member of the flow's group, else (no flow,
 * an emptied group, a deleted user) the account owner, so that no lead is left without an agent.
 */
export async function assigneeForNewLead(trx: Trx, accountId: number, flow: LeadFlowRow | undefined): Promise<number | null> {
  if (flow?.assigned_user_id) return flow.assigned_user_id;
  if (flow?.group_id) {
    const member = await nextInRotation(trx, accountId, flow.group_id);
    if (member !== null) return member;
  }
  return accountOwnerId(trx, accountId);
}
