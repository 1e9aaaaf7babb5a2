import type { Db, DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import {
  canEditSmartList,
  deleteSmartList,
  findVisibleSmartList,
  insertSmartList,
  type SmartListRow,
  updateSmartList,
} from './smartLists.repo.js';

/** A list's stored fields, checked and in the stored shape. */
export interface SmartListFields {
  name: string;
  /** filters as stored (see `filtersToStore`) */
  filters: string;
  isShared: boolean;
}

/** The list if the caller may change it: 404 when they cannot see it, 403 when they may only read it. */
async function editableSmartList(db: DbOrTrx, auth: AuthUser, id: number): Promise<SmartListRow> {
  const row = await findVisibleSmartList(db, auth, id);
  if (!row) throw notFound(`Smart list ${id}`);
  if (!canEditSmartList(auth, row))
    throw forbidden('Only the Owner, an Admin or the user who owns this smart list may change it');
  return row;
}

/** A new list owned by the caller. */
export function createSmartList(
  db: Db,
  auth: AuthUser,
  fields: SmartListFields,
  at: string,
): Promise<SmartListRow> {
  return db.transaction().execute((trx) =>
    insertSmartList(trx, {
      account_id: auth.accountId,
      user_id: auth.userId,
      name: fields.name,
      filters: fields.filters,
      is_shared: fields.isShared ? 1 : 0,
      created_at: at,
      updated_at: at,
    }),
  );
}

/** Changes the fields given; a change that changes nothing leaves `updated` as it was. */
export function changeSmartList(
  db: Db,
  auth: AuthUser,
  id: number,
  fields: Partial<SmartListFields>,
  now: () => string,
): Promise<SmartListRow> {
  return db.transaction().execute(async (trx) => {
    const current = await editableSmartList(trx, auth, id);
    const changes = {
      name: fields.name ?? current.name,
      filters: fields.filters ?? current.filters,
      is_shared: fields.isShared === undefined ? current.is_shared : fields.isShared ? 1 : 0,
    };
    if ((Object.keys(changes) as (keyof typeof changes)[]).every((k) => changes[k] === current[k]))
      return current;
    return updateSmartList(trx, current, { ...changes, updated_at: now() });
  });
}

export function removeSmartList(db: Db, auth: AuthUser, id: number): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const row = await editableSmartList(trx, auth, id);
    await deleteSmartList(trx, auth.accountId, row.id);
  });
}
