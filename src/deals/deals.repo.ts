import { type Expression, type ExpressionBuilder, type Selectable, sql, type SqlBool } from 'kysely';
import type { DB, DbOrTrx } from '../db/database.js';
import { type AuthUser, seesEveryone } from '../http/auth.js';
import { canSeePerson } from '../people/people.access.js';
import '../pipelines/pipelines.tables.js';
import type { DealsTable } from './deals.tables.js';

export type DealRow = Selectable<DealsTable> & { stage_name: string | null; pipeline_name: string | null };
export interface DealLinks {
  people: Map<number, { id: number; name: string }[]>;
  users: Map<number, { id: number; name: string }[]>;
}

/**
 * Who may see a deal: Owner and Admin every deal of the account; an Agent or Lender the deals
 * where they are among the deal's users, or where any of the deal's people is visible to them.
 */
export function canSeeDeal(eb: ExpressionBuilder<DB, 'deals'>, auth: AuthUser): Expression<SqlBool> {
  if (seesEveryone(auth)) return sql<SqlBool>`1 = 1`;
  return eb.or([
    eb.exists(eb.selectFrom('deal_users as du').select('du.deal_id').whereRef('du.deal_id', '=', 'deals.id').where('du.user_id', '=', auth.userId)),
    eb.exists(
      eb
        .selectFrom('deal_people as dp')
        .innerJoin('people', 'people.id', 'dp.person_id')
        .select('dp.deal_id')
        .whereRef('dp.deal_id', '=', 'deals.id')
        .where((inner) => canSeePerson(inner as unknown as ExpressionBuilder<DB, 'people'>, auth)),
    ),
  ]);
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

export async function findVisibleDeal(db: DbOrTrx, auth: AuthUser, id: number): Promise<DealRow | undefined> {
  return dealsQuery(db, auth.accountId)
    .where('deals.id', '=', id)
    .where((eb) => canSeeDeal(eb, auth))
    .executeTakeFirst();
}

export async function linksOf(db: DbOrTrx, accountId: number, dealIds: number[]): Promise<DealLinks> {
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
  for (const p of people) links.people.set(p.deal_id, [...(links.people.get(p.deal_id) ?? []), { id: p.id, name: p.name }]);
  for (const u of users) links.users.set(u.deal_id, [...(links.users.get(u.deal_id) ?? []), { id: u.id, name: u.name }]);
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
