import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { buildPeopleListQuery } from '../people/people.list.js';
import type { DialectName } from '../../platform/db/dialect.js';
import type { Static } from '@sinclair/typebox';
import type { BulkFilter } from './bulkActions.schemas.js';
import type { BulkActionsTable } from './bulkActions.tables.js';
import './bulkActions.tables.js';

export type BulkActionRow = Selectable<BulkActionsTable>;
type Filter = Static<typeof BulkFilter>;

/**
 * Fixes the people a bulk action acts on: those the caller sees among `personIds`, or every person
 * GET /v1/people lists with `filter` (the caller's visibility applied by the list query), in one
 * INSERT … SELECT whatever their number. Answers how many.
 */
export async function fixPeople(
  trx: Trx,
  dialect: DialectName,
  auth: AuthUser,
  bulkActionId: number,
  target: { personIds?: number[]; filter?: Filter },
): Promise<number> {
  const filter: Filter = target.personIds ? { includeTrash: true } : (target.filter ?? {});
  const list = await buildPeopleListQuery(trx, dialect, auth, filter);
  let rows = list.rows;
  if (target.personIds) rows = rows.where('people.id', 'in', target.personIds);
  const result = await trx
    .insertInto('bulk_action_people')
    .columns(['bulk_action_id', 'person_id'])
    .expression((eb) =>
      eb
        .selectFrom(rows.as('matching'))
        .select((s) => [s.val(bulkActionId).as('bulk_action_id'), 'matching.id as person_id']),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** The next people of the action after `after`, in id order. */
export async function nextPeople(
  db: DbOrTrx,
  bulkActionId: number,
  after: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('bulk_action_people')
    .select('person_id')
    .where('bulk_action_id', '=', bulkActionId)
    .where('person_id', '>', after)
    .orderBy('person_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.person_id);
}

export async function findBulkAction(db: DbOrTrx, id: number): Promise<BulkActionRow | undefined> {
  return db.selectFrom('bulk_actions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An action the caller may watch: their own; an Owner or Admin any of the account's. */
export async function findVisibleBulkAction(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<BulkActionRow | undefined> {
  let query = db
    .selectFrom('bulk_actions')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', auth.accountId);
  if (auth.role !== 'Owner' && auth.role !== 'Admin')
    query = query.where('user_id', '=', auth.userId);
  return query.executeTakeFirst();
}

/** The user an action acts as, with their role as it is now (a demoted user acts as their new role). */
export async function actingUser(db: DbOrTrx, row: BulkActionRow): Promise<AuthUser | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role'])
    .where('id', '=', row.user_id)
    .where('account_id', '=', row.account_id)
    .executeTakeFirst();
  return user && { accountId: row.account_id, userId: user.id, ...user };
}
