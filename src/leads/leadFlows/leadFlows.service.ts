import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { Db, DbOrTrx, Trx } from '../../platform/db/database.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { cleanSource } from '../../contacts/people/people.input.js';
import { type GroupRow, groupsOf, nextInRotation } from '../groups/groups.repo.js';
import { reusableQuery } from '../../platform/db/reusable-query.js';
import type { LeadFlowsTable } from './leadFlows.tables.js';
import './leadFlows.tables.js';
import type { LeadFlowCreateBody, LeadFlowInput } from './leadFlows.schemas.js';
import {
  existsInAccount,
  findLeadFlowById,
  flowIdWithSourceKey,
  insertLeadFlow,
  updateLeadFlow,
} from './leadFlows.repo.js';

export type LeadFlowRow = Selectable<LeadFlowsTable>;

/** Sources match case-insensitively and without a leading "www.". */
export function sourceKey(source: string): string {
  return cleanSource(source).toLowerCase();
}

const flowBySource = reusableQuery((db, _shape, accountId: number, key: string) =>
  db
    .selectFrom('lead_flows')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('source_key', '=', key),
);

/** Read on every lead: compiled once, and outside a transaction answered by SQLite's read connection. */
export async function findLeadFlow(
  db: DbOrTrx,
  accountId: number,
  source: string,
): Promise<LeadFlowRow | undefined> {
  const key = sourceKey(source);
  if (!key) return undefined;
  return flowBySource(db, 'flow', accountId, key);
}

const firstOwner = reusableQuery((db, _shape, accountId: number) =>
  db
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('role', '=', 'Owner')
    .orderBy('id')
    .limit(1),
);

export async function accountOwnerId(db: DbOrTrx, accountId: number): Promise<number | null> {
  return (await firstOwner(db, 'owner', accountId))?.id ?? null;
}

/** Where a new lead goes: an agent now, or an offer to a first-to-claim group (nobody yet). */
export type LeadRoute = { userId: number | null; offerTo?: undefined } | { offerTo: GroupRow };

/**
 * Who a new lead goes to: the flow's user, else its group (offered to every member of a
 * first-to-claim group, else the next member in rotation), else (no flow, an emptied group, a
 * deleted user) the account owner, so that no lead is left without an agent.
 */
export async function routeNewLead(
  trx: Trx,
  accountId: number,
  flow: LeadFlowRow | undefined,
): Promise<LeadRoute> {
  if (flow?.assigned_user_id) return { userId: flow.assigned_user_id };
  if (flow?.group_id) {
    const group = await groupsOf(trx, accountId).where('id', '=', flow.group_id).executeTakeFirst();
    if (group?.distribution === 'first-to-claim') return { offerTo: group };
    const member = group ? await nextInRotation(trx, accountId, group.id) : null;
    if (member !== null) return { userId: member };
  }
  return { userId: await accountOwnerId(trx, accountId) };
}

/** Checks that every record a flow names belongs to the account; 400 naming the field otherwise. */
async function checkReferences(
  trx: Trx,
  accountId: number,
  body: LeadFlowInput,
  merged: { assigned_user_id: number | null; group_id: number | null },
) {
  if (merged.assigned_user_id !== null && merged.group_id !== null) {
    throw badRequest('Give either assignedUserId or groupId, not both', [
      { field: 'groupId', message: 'conflicts with assignedUserId' },
    ]);
  }
  const exists = async (
    table: 'users' | 'user_groups' | 'stages' | 'action_plans',
    id: number | null | undefined,
    field: string,
    what: string,
  ) => {
    if (id === null || id === undefined) return;
    if (!(await existsInAccount(trx, table, accountId, id)))
      throw badRequest(`${field}: no ${what} ${id} in this account`, [
        { field, message: `unknown ${what}` },
      ]);
  };
  await exists('users', body.assignedUserId, 'assignedUserId', 'user');
  await exists('user_groups', body.groupId, 'groupId', 'group');
  await exists('stages', body.stageId, 'stageId', 'stage');
  await exists('action_plans', body.actionPlanId, 'actionPlanId', 'action plan');
}

/** The cleaned source; 400 when it is blank. */
function checkedSource(source: string): string {
  const cleaned = cleanSource(source);
  if (!cleaned)
    throw badRequest("Field 'source' must not be blank", [{ field: 'source', message: 'blank' }]);
  return cleaned;
}

async function sourceTaken(trx: Trx, accountId: number, key: string, exceptId: number) {
  const id = await flowIdWithSourceKey(trx, accountId, key, exceptId);
  if (id !== undefined)
    throw conflict(`A lead flow for source '${key}' already exists (id ${id}); update it instead`);
}

/** Creates the flow of a source; 409 when the source has one already. */
export function createLeadFlow(
  db: Db,
  accountId: number,
  body: Static<typeof LeadFlowCreateBody>,
  at: string,
): Promise<LeadFlowRow> {
  const source = checkedSource(body.source);
  return db.transaction().execute(async (trx) => {
    await sourceTaken(trx, accountId, sourceKey(source), 0);
    const refs = {
      assigned_user_id: body.assignedUserId ?? null,
      group_id: body.groupId ?? null,
    };
    await checkReferences(trx, accountId, body, refs);
    return insertLeadFlow(trx, {
      account_id: accountId,
      source,
      source_key: sourceKey(source),
      status: body.status ?? 'Active',
      ...refs,
      action_plan_id: body.actionPlanId ?? null,
      stage_id: body.stageId ?? null,
      created_at: at,
      updated_at: at,
    });
  });
}

/** Changes the fields sent; naming one kind of assignee replaces the other. */
export function changeLeadFlow(
  db: Db,
  accountId: number,
  id: number,
  body: LeadFlowInput,
  at: string,
): Promise<LeadFlowRow> {
  return db.transaction().execute(async (trx) => {
    const current = await findLeadFlowById(trx, accountId, id);
    if (!current) throw notFound(`Lead flow ${id}`);
    const source = body.source === undefined ? current.source : checkedSource(body.source);
    await sourceTaken(trx, accountId, sourceKey(source), current.id);
    const pick = <T>(value: T | null | undefined, stored: T | null) =>
      value === undefined ? stored : value;
    const refs = {
      assigned_user_id: pick(body.assignedUserId, current.assigned_user_id),
      group_id: pick(body.groupId, current.group_id),
    };
    if (body.assignedUserId && body.groupId === undefined) refs.group_id = null;
    if (body.groupId && body.assignedUserId === undefined) refs.assigned_user_id = null;
    await checkReferences(trx, accountId, body, refs);
    return updateLeadFlow(trx, current.id, {
      source,
      source_key: sourceKey(source),
      status: body.status ?? current.status,
      ...refs,
      action_plan_id: pick(body.actionPlanId, current.action_plan_id),
      stage_id: pick(body.stageId, current.stage_id),
      updated_at: at,
    });
  });
}
