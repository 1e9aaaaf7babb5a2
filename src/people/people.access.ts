import { type Expression, type ExpressionBuilder, sql, type SqlBool } from 'kysely';
import type { DB, DbOrTrx, Trx } from '../db/database.js';
import { type AuthUser, seesEveryone } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { reusableWrite } from '../db/reusable-query.js';

/**
 * Who may see a person: Owner and Admin every person of their account; an Agent the people
 * assigned to them or where they collaborate; a Lender the people where they are the assigned
 * lender or collaborate. The account condition is applied by the caller's query.
 */
export function canSeePerson(eb: ExpressionBuilder<DB, 'people'>, auth: AuthUser): Expression<SqlBool> {
  if (seesEveryone(auth)) return sql<SqlBool>`1 = 1`;
  const column = auth.role === 'Agent' ? 'people.assigned_user_id' : 'people.assigned_lender_id';
  return eb.or([
    eb(column, '=', auth.userId),
    eb.exists(
      eb
        .selectFrom('person_collaborators as pc')
        .select('pc.person_id')
        .whereRef('pc.person_id', '=', 'people.id')
        .where('pc.user_id', '=', auth.userId),
    ),
  ]);
}

/** Subquery of the ids of the people `auth` may see: for lists of records that hang off a person. */
export function visiblePersonIds(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('people')
    .select('people.id')
    .where('people.account_id', '=', auth.accountId)
    .where((eb) => canSeePerson(eb, auth));
}

/** Throws 404 unless the person exists in the caller's account and the caller may see them. */
export async function assertPersonVisible(db: DbOrTrx, auth: AuthUser, personId: number): Promise<void> {
  const row = await visiblePersonIds(db, auth).where('people.id', '=', personId).executeTakeFirst();
  if (!row) throw notFound(`Person ${personId}`);
}

/** Marks an interaction on a person's timeline. */
export async function touchLastActivity(trx: Trx, accountId: number, personId: number, at: string): Promise<void> {
  await lastActivityUpdate(trx, 'touch', at, accountId, personId);
}

const lastActivityUpdate = reusableWrite((db, _shape, at: string, accountId: number, personId: number) =>
  db
    .updateTable('people')
    .set({ last_activity: at })
    .where('account_id', '=', accountId)
    .where('id', '=', personId)
    .where((eb) => eb.or([eb('last_activity', 'is', null), eb('last_activity', '<', at)])),
);
