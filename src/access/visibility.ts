import { type Expression, type ExpressionBuilder, sql, type SqlBool } from 'kysely';
import type { DB, DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { notFound } from '../platform/http/errors.js';
import { everything, seesWholeAccount } from './roles.js';
import '../leads/ponds/ponds.tables.js';

/**
 * The one rule for who sees which people, and through them which records hang off people
 * (timeline, deals, appointments, events, email events, action plans). Every query of people or
 * of such records applies it through the functions below; nothing else looks at roles to decide
 * visibility.
 *
 * The SQL these functions build varies only with `auth.role` (user ids are values), so callers
 * that cache compiled queries may key them by `visibilityShape(auth)`.
 */

/** The cache key of the SQL shape of this user's visibility conditions. */
export function visibilityShape(auth: Pick<AuthUser, 'role'>): string {
  return auth.role;
}

/**
 * Who may see a person: Owner and Admin every person of their account. An Agent the people
 * assigned to them, a Lender those where they are the assigned lender; either of them also the
 * people where they collaborate, the people of the ponds they belong to or lead, and, as a team
 * leader, the people assigned to (or collaborated on by) the members of their teams. The account
 * condition is applied by the caller's query.
 */
export function canSeePerson(
  eb: ExpressionBuilder<DB, 'people'>,
  auth: AuthUser,
): Expression<SqlBool> {
  if (seesWholeAccount(auth)) return everything;
  const column = auth.role === 'Agent' ? 'people.assigned_user_id' : 'people.assigned_lender_id';
  const ledMembers = eb
    .selectFrom('team_leaders as tl')
    .innerJoin('team_members as tm', 'tm.team_id', 'tl.team_id')
    .select('tm.user_id')
    .where('tl.user_id', '=', auth.userId);
  return eb.or([
    eb(column, '=', auth.userId),
    eb.exists(
      eb
        .selectFrom('person_collaborators as pc')
        .select('pc.person_id')
        .whereRef('pc.person_id', '=', 'people.id')
        .where('pc.user_id', '=', auth.userId),
    ),
    eb(
      'people.assigned_pond_id',
      'in',
      eb
        .selectFrom('pond_members as pm')
        .select('pm.pond_id')
        .where('pm.user_id', '=', auth.userId)
        .union(
          eb
            .selectFrom('ponds')
            .select('ponds.id as pond_id')
            .where('ponds.user_id', '=', auth.userId),
        ),
    ),
    eb('people.assigned_user_id', 'in', ledMembers),
    eb('people.assigned_lender_id', 'in', ledMembers),
    eb.exists(
      eb
        .selectFrom('person_collaborators as tpc')
        .select('tpc.person_id')
        .whereRef('tpc.person_id', '=', 'people.id')
        .where('tpc.user_id', 'in', ledMembers),
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

/** The person's id when they exist in the caller's account and the caller may see them. */
export async function visiblePersonId(
  db: DbOrTrx,
  auth: AuthUser,
  personId: number,
): Promise<number | undefined> {
  const row = await visiblePersonIds(db, auth).where('people.id', '=', personId).executeTakeFirst();
  return row?.id;
}

/** Throws 404 unless the person exists in the caller's account and the caller may see them. */
export async function assertPersonVisible(
  db: DbOrTrx,
  auth: AuthUser,
  personId: number,
): Promise<void> {
  if ((await visiblePersonId(db, auth, personId)) === undefined)
    throw notFound(`Person ${personId}`);
}

/**
 * Limits a query of person-owned rows to the people the caller may see. `column` is the
 * qualified person_id column; rows with no person (unknown callers) stay visible to Owner/Admin only.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function onlyVisiblePeople<Q extends { where: (...args: any[]) => any }>(
  query: Q,
  db: DbOrTrx,
  auth: AuthUser,
  column: string,
): Q {
  if (seesWholeAccount(auth)) return query;
  return query.where(sql.ref(column), 'in', visiblePersonIds(db, auth)) as Q;
}

/**
 * May this user store a record that hangs off no person (a call from an unknown number)? Only
 * those who will see it afterwards: such rows are visible to Owner and Admin only.
 */
export function mayRecordWithoutPerson(auth: AuthUser): boolean {
  return seesWholeAccount(auth);
}

/**
 * Who may see a deal: Owner and Admin every deal of the account; an Agent or Lender the deals
 * where they are among the deal's users, or where any of the deal's people is visible to them.
 */
export function canSeeDeal(
  eb: ExpressionBuilder<DB, 'deals'>,
  auth: AuthUser,
): Expression<SqlBool> {
  if (seesWholeAccount(auth)) return everything;
  return eb.or([
    eb.exists(
      eb
        .selectFrom('deal_users as du')
        .select('du.deal_id')
        .whereRef('du.deal_id', '=', 'deals.id')
        .where('du.user_id', '=', auth.userId),
    ),
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

/**
 * Who may see an appointment: Owner and Admin every appointment of the account; others those they
 * created, are invited to, or that invite a person they may see.
 */
export function canSeeAppointment(
  eb: ExpressionBuilder<DB, 'appointments'>,
  db: DbOrTrx,
  auth: AuthUser,
): Expression<SqlBool> {
  if (seesWholeAccount(auth)) return everything;
  return eb.or([
    eb('appointments.created_by_id', '=', auth.userId),
    eb(
      'appointments.id',
      'in',
      db
        .selectFrom('appointment_invitees')
        .select('appointment_id')
        .where('account_id', '=', auth.accountId)
        .where((e) =>
          e.or([e('user_id', '=', auth.userId), e('person_id', 'in', visiblePersonIds(db, auth))]),
        ),
    ),
  ]);
}

/**
 * Which teams' shared inboxes a user sees (GET /v1/teamInboxes): Owner and Admin every team of
 * the account; anyone else the teams they are a member or a leader of.
 */
export function canSeeTeamInbox(
  eb: ExpressionBuilder<DB, 'teams'>,
  auth: AuthUser,
): Expression<SqlBool> {
  if (seesWholeAccount(auth)) return everything;
  return eb(
    'teams.id',
    'in',
    eb
      .selectFrom('team_members as itm')
      .select('itm.team_id')
      .where('itm.user_id', '=', auth.userId)
      .union(
        eb
          .selectFrom('team_leaders as itl')
          .select('itl.team_id')
          .where('itl.user_id', '=', auth.userId),
      ),
  );
}
