import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { toBool } from '../../platform/http/schemas.js';
import { type ListRequest, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import type { SmartListListQuery } from './smartLists.schemas.js';
import { type SmartListRow, smartListsListQuery } from './smartLists.repo.js';
import { presentSmartList } from './smartLists.presenter.js';

const SORTS = { name: 'name', created: 'created_at', updated: 'updated_at' };

/** A page of the caller's smart lists and the account's shared ones (GET /v1/smartLists). */
export async function listSmartLists(
  ctx: AppContext,
  auth: AuthUser,
  request: ListRequest,
  q: Static<typeof SmartListListQuery>,
) {
  const filters = { name: q.name, userId: q.userId, isShared: toBool(q.isShared) };
  const page = await paginate<SmartListRow>(request, {
    collection: 'smartlists',
    query: smartListsListQuery(ctx.db, auth, filters),
    page: readPage(q),
    sort: readSort(q.sort, SORTS, 'id'),
    idExpression: 'id',
    publicUrl: ctx.config.publicUrl,
  });
  return { _metadata: page.metadata, smartlists: page.rows.map((row) => presentSmartList(row)) };
}
