import { type TOptional, type TProperties, Type } from '@sinclair/typebox';
import type { DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { badRequest, notFound } from '../platform/http/errors.js';
import { PageQuery, readSort, type SortKey } from '../platform/http/pagination.js';
import { assertPersonVisible } from '../access/visibility.js';
import { isoTimestamp } from '../platform/time.js';

/**
 * What the timeline resources (notes, calls, texts, emails, tasks, relationships) share:
 * records hang off a person, and who may see a record is who may see its person.
 */

/** A personId in a body: 404 unless the caller may see that person (in their account). */
export async function requirePerson(
  db: DbOrTrx,
  auth: AuthUser,
  personId: number | undefined,
): Promise<number> {
  if (personId === undefined) throw badRequest("'personId' is required");
  await assertPersonVisible(db, auth, personId);
  return personId;
}

/** 400 unless `userId` is a user of the account. */
export async function requireAccountUser(
  db: DbOrTrx,
  accountId: number,
  userId: number,
  field = 'userId',
): Promise<{ id: number; name: string }> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw badRequest(`'${field}' ${userId} is not a user of this account`);
  return user;
}

/** An ISO 8601 date-time input, stored as UTC; anything else is a 400 naming the field. */
export function isoField(raw: string, field: string): string {
  const stored = isoTimestamp(raw);
  if (stored === null) throw badRequest(`'${field}' must be an ISO 8601 timestamp`);
  return stored;
}

export function missing(what: string, id: number): never {
  throw notFound(`${what} ${id}`);
}

/** List query arguments every timeline list takes. */
export const timelineListQuery = {
  ...PageQuery,
  personId: Type.Optional(Type.Integer({ minimum: 0, description: 'Only records of this person' })),
  sort: Type.Optional(
    Type.String({ description: 'id (default -id), created, updated; prefix - for descending' }),
  ),
  system: Type.Optional(Type.String()),
};

export function timelineSort(
  sort: string | undefined,
  table: string,
  extra: Record<string, string> = {},
): SortKey {
  return readSort(
    sort,
    { created: `${table}.created_at`, updated: `${table}.updated_at`, ...extra },
    `${table}.id`,
  );
}

/** Absolute address of a record, for reaction/reply event data. */
export function refUri(publicUrl: string, path: string, id: number): string {
  return `${publicUrl}${path}/${id}`;
}

/** Every property optional: the body of a PUT where only the fields sent change. */
export function allOptional<T extends TProperties>(props: T): { [K in keyof T]: TOptional<T[K]> } {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };
}
