import type { Selectable } from 'kysely';
import type { DbOrTrx, UsersTable } from '../../platform/db/database.js';

/** The columns the API shows of a user (never the password hash or keys). */
const SHOWN = [
  'id',
  'account_id',
  'name',
  'first_name',
  'last_name',
  'email',
  'phone',
  'role',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

export type UserRow = Pick<Selectable<UsersTable>, (typeof SHOWN)[number]>;

export interface UserFilters {
  role?: UsersTable['role'];
  name?: string;
  /** compared lower-cased and trimmed */
  email?: string;
  includeDeleted?: boolean;
}

export function usersOf(db: DbOrTrx, accountId: number) {
  return db.selectFrom('users').select(SHOWN).where('account_id', '=', accountId);
}

/** The account's users matching the filters; deactivated ones only when asked. */
export function usersListQuery(db: DbOrTrx, accountId: number, filters: UserFilters) {
  let query = usersOf(db, accountId);
  if (filters.role) query = query.where('role', '=', filters.role);
  if (filters.name) query = query.where('name', '=', filters.name);
  if (filters.email) query = query.where('email', '=', filters.email.trim().toLowerCase());
  if (!filters.includeDeleted) query = query.where('deleted_at', 'is', null);
  return query;
}

export function findUser(db: DbOrTrx, accountId: number, id: number): Promise<UserRow | undefined> {
  return usersOf(db, accountId).where('id', '=', id).executeTakeFirst();
}

/** A user the caller knows exists (the caller, or one just changed); throws otherwise. */
export function getUser(db: DbOrTrx, accountId: number, id: number): Promise<UserRow> {
  return usersOf(db, accountId).where('id', '=', id).executeTakeFirstOrThrow();
}

/** The account's first Owner. */
export function firstOwner(db: DbOrTrx, accountId: number): Promise<UserRow> {
  return usersOf(db, accountId).where('role', '=', 'Owner').orderBy('id').executeTakeFirstOrThrow();
}
