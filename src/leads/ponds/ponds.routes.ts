import { userListResourceRoutes } from '../../accounts/users/userListResource.js';
import { userListsOf } from '../../accounts/users/userLists.js';
import { Pond, PondCreateBody, PondDeleteQuery, PondUpdateBody } from './ponds.schemas.js';
import { findPond, type PondRow, pondsOf } from '../../contacts/people/assignment.js';
import { presentPond } from './ponds.presenter.js';
import { createPond, deletePond, updatePond } from './ponds.service.js';

/** /v1/ponds: shared pools of leads. Everyone reads; Owner and Admin manage. */
export const pondsRoutes = userListResourceRoutes({
  collection: 'ponds',
  noun: 'Pond',
  schemas: {
    item: Pond,
    create: PondCreateBody,
    update: PondUpdateBody,
    deleteQuery: PondDeleteQuery,
  },
  summaries: {
    update: 'Update a pond; `userIds` replaces the members (Owner, Admin)',
    delete: 'Delete a pond, handing its people to `assignTo` (Owner, Admin)',
  },
  list: pondsOf,
  find: findPond,
  async present(db, rows: PondRow[]) {
    const members = await userListsOf(
      db,
      'pond_members',
      rows.map((r) => r.id),
    );
    return rows.map((row) => presentPond(row, members.get(row.id)!));
  },
  create: createPond,
  update: updatePond,
  remove: (trx, accountId, id, query, now) => deletePond(trx, accountId, id, query.assignTo, now),
});
