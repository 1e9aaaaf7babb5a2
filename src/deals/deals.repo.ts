import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { canSeeDeal } from '../access/visibility.js';
import { containsText } from '../platform/db/text-match.js';
import './pipelines/pipelines.tables.js';
import type { DealStatus, DealsTable } from './deals.tables.js';

export type DealRow = Selectable<DealsTable> & {
  stage_name: string | null;
  pipeline_name: string | null;
};
export interface DealLinks {
  people: Map<number, { id: number; name: string }[]>;
  users: Map<number, { id: number; name: string }[]>;
}

/** Deals of one account, with the stage and pipeline names the API shows. */
export function dealsQuery(db: DbOrTrx, accountId: number) {
  return db
    .selectFrom('deals')
    .leftJoin('pipeline_stages as ps', 'ps.id', 'deals.stage_id')
    .leftJoin('pipelines as p', 'p.id', 'deals.pipeline_id')
    .selectAll('deals')
    .select(['ps.name as stage_name', 'p.name as pipeline_name'])
    .where('deals.account_id', '=', accountId);
}

/** Ids of the deals the caller sees (a subquery). */
export function visibleDealIds(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('deals')
    .select('deals.id')
    .where('deals.account_id', '=', auth.accountId)
    .where((eb) => canSeeDeal(eb, auth));
}

export async function findVisibleDeal(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<DealRow | undefined> {
  return dealsQuery(db, auth.accountId)
    .where('deals.id', '=', id)
    .where((eb) => canSeeDeal(eb, auth))
    .executeTakeFirst();
}

export interface DealFilters {
  pipelineId?: number;
  stageId?: number;
  status?: DealStatus;
  includeDeleted?: boolean;
  personId?: number;
  userId?: number;
  q?: string;
}

/** The deals the caller sees that match the list filters (soft-deleted ones only when asked). */
export function visibleDealsQuery(db: DbOrTrx, auth: AuthUser, filters: DealFilters) {
  const accountId = auth.accountId;
  let query = dealsQuery(db, accountId).where((eb) => canSeeDeal(eb, auth));
  if (filters.pipelineId !== undefined)
    query = query.where('deals.pipeline_id', '=', filters.pipelineId);
  if (filters.stageId !== undefined) query = query.where('deals.stage_id', '=', filters.stageId);
  if (filters.q?.trim()) query = query.where(containsText('deals.name', filters.q.trim()));
  if (filters.status) query = query.where('deals.status', '=', filters.status);
  else if (!filters.includeDeleted) query = query.where('deals.status', '<>', 'Deleted');
  const linked = (table: 'deal_people' | 'deal_users', column: string, id: number) =>
    db
      .selectFrom(table as 'deal_people')
      .select('deal_id')
      .where('account_id', '=', accountId)
      .where(column as 'person_id', '=', id);
  if (filters.personId !== undefined)
    query = query.where('deals.id', 'in', linked('deal_people', 'person_id', filters.personId));
  if (filters.userId !== undefined)
    query = query.where('deals.id', 'in', linked('deal_users', 'user_id', filters.userId));
  return query;
}

type DealColumns = Omit<
  Insertable<DealsTable>,
  | 'id'
  | 'account_id'
  | 'entered_stage_at'
  | 'created_by_id'
  | 'created_at'
  | 'updated_at'
  | 'deleted_at'
>;

export async function insertDeal(
  trx: DbOrTrx,
  auth: AuthUser,
  columns: DealColumns,
  at: string,
): Promise<number> {
  const { id } = await trx
    .insertInto('deals')
    .values({
      account_id: auth.accountId,
      ...columns,
      entered_stage_at: at,
      created_by_id: auth.userId,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateDealColumns(
  trx: DbOrTrx,
  accountId: number,
  id: number,
  changes: Updateable<DealsTable>,
): Promise<void> {
  await trx
    .updateTable('deals')
    .set(changes)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function linksOf(
  db: DbOrTrx,
  accountId: number,
  dealIds: number[],
): Promise<DealLinks> {
  const links: DealLinks = { people: new Map(), users: new Map() };
  if (dealIds.length === 0) return links;
  const people = await db
    .selectFrom('deal_people as dp')
    .innerJoin('people', 'people.id', 'dp.person_id')
    .select(['dp.deal_id', 'people.id', 'people.name'])
    .where('dp.account_id', '=', accountId)
    .where('dp.deal_id', 'in', dealIds)
    .orderBy('people.id')
    .execute();
  const users = await db
    .selectFrom('deal_users as du')
    .innerJoin('users', 'users.id', 'du.user_id')
    .select(['du.deal_id', 'users.id', 'users.name'])
    .where('du.account_id', '=', accountId)
    .where('du.deal_id', 'in', dealIds)
    .orderBy('users.id')
    .execute();
  for (const p of people)
    links.people.set(p.deal_id, [
      ...(links.people.get(p.deal_id) ?? []),
      { id: p.id, name: p.name },
    ]);
  for (const u of users)
    links.users.set(u.deal_id, [...(links.users.get(u.deal_id) ?? []), { id: u.id, name: u.name }]);
  return links;
}

export async function replaceLinks(
  trx: DbOrTrx,
  accountId: number,
  dealId: number,
  table: 'deal_people' | 'deal_users',
  ids: number[],
): Promise<void> {
  await trx.deleteFrom(table).where('deal_id', '=', dealId).execute();
  if (ids.length === 0) return;
  const column = table === 'deal_people' ? 'person_id' : 'user_id';
  await trx
    .insertInto(table)
    .values(ids.map((id) => ({ account_id: accountId, deal_id: dealId, [column]: id }) as never))
    .execute();
}

export function presentDeal(row: DealRow, links: DealLinks) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    description: row.description,
    status: row.status,
    pipelineId: row.pipeline_id,
    pipelineName: row.pipeline_name,
    stageId: row.stage_id,
    stageName: row.stage_name,
    price: row.price,
    projectedCloseDate: row.projected_close_date,
    earnestMoneyDueDate: row.earnest_money_due_date,
    possessionDate: row.possession_date,
    commissionValue: row.commission_value,
    agentCommission: row.agent_commission,
    teamCommission: row.team_commission,
    orderWeight: row.order_weight,
    enteredStageAt: row.entered_stage_at,
    deletedAt: row.deleted_at,
    createdById: row.created_by_id,
    people: links.people.get(row.id) ?? [],
    users: links.users.get(row.id) ?? [],
    ...(JSON.parse(row.custom) as Record<string, unknown>),
  };
}
