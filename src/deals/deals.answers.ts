import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../platform/context.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { toBool } from '../platform/http/schemas.js';
import { type ListRequest, paginate, readPage, readSort } from '../platform/http/pagination.js';
import { isoSeconds } from '../platform/time.js';
import { assertGate, Gate } from '../access/gates.js';
import type { DealListQuery, DealUpdateBody } from './deals.schemas.js';
import {
  type DealRow,
  findVisibleDeal,
  linksOf,
  presentDeal,
  visibleDealsQuery,
} from './deals.repo.js';
import { updateDeal } from './deals.service.js';

const SORTABLE: Record<string, string> = {
  created: 'deals.created_at',
  updated: 'deals.updated_at',
  name: 'deals.name',
  price: 'coalesce(deals.price, -1)',
  orderWeight: 'deals.order_weight',
  projectedCloseDate: "coalesce(deals.projected_close_date, '')",
  enteredStageAt: 'deals.entered_stage_at',
};

/** A deal the caller may see, as GET /v1/deals/:id shows it (it must exist). */
export async function dealDocument(ctx: AppContext, auth: AuthUser, id: number) {
  const row = (await findVisibleDeal(ctx.db, auth, id))!;
  return presentDeal(row, await linksOf(ctx.db, auth.accountId, [id]));
}

/** A page of the deals the caller may see (GET /v1/deals). */
export async function listDeals(
  ctx: AppContext,
  auth: AuthUser,
  request: ListRequest,
  q: Static<typeof DealListQuery>,
) {
  const filters = { ...q, includeDeleted: toBool(q.includeDeleted) };
  const page = await paginate<DealRow>(request, {
    collection: 'deals',
    query: visibleDealsQuery(ctx.db, auth, filters),
    page: readPage(q),
    sort: readSort(q.sort, SORTABLE, 'deals.id'),
    idExpression: 'deals.id',
    publicUrl: ctx.config.publicUrl,
  });
  const links = await linksOf(
    ctx.db,
    auth.accountId,
    page.rows.map((r) => r.id),
  );
  return { _metadata: page.metadata, deals: page.rows.map((row) => presentDeal(row, links)) };
}

/** PUT /v1/deals/:id: only the fields sent change; Lenders may not (checked after the lookup: an unseen deal stays a 404). */
export async function changeDeal(
  ctx: AppContext,
  auth: AuthUser,
  id: number,
  body: Static<typeof DealUpdateBody>,
) {
  const authorize = () => assertGate(Gate.dealWriter, auth);
  await updateDeal(ctx.db, auth, id, body, isoSeconds(ctx.clock.now()), authorize);
  return dealDocument(ctx, auth, id);
}
