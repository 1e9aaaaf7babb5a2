import type { Static } from '@sinclair/typebox';
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/http/errors.js';
import type { GroupCreateBody, GroupUpdateBody } from './groups.schemas.js';
import { applyRouting, findGroup, insertGroup, renameGroup, setMembers } from './groups.repo.js';

const userIds = (users: (number | { id: number })[]) =>
  users.map((u) => (typeof u === 'number' ? u : u.id));

/** Creates a group with its routing and members, in one transaction. */
export function createGroup(
  db: Db,
  accountId: number,
  body: Static<typeof GroupCreateBody>,
  at: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const id = await insertGroup(trx, accountId, body.name.trim(), at);
    await applyRouting(trx, accountId, id, body);
    await setMembers(trx, accountId, id, userIds(body.users ?? []));
    return id;
  });
}

/** Changes the fields sent; `users` replaces the members. */
export function changeGroup(
  db: Db,
  accountId: number,
  id: number,
  body: Static<typeof GroupUpdateBody>,
  at: string,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const row = await findGroup(trx, accountId, id);
    if (!row) throw notFound(`Group ${id}`);
    await renameGroup(trx, row.id, body.name?.trim() ?? row.name, at);
    await applyRouting(trx, accountId, row.id, body);
    if (body.users !== undefined) await setMembers(trx, accountId, row.id, userIds(body.users));
  });
}
