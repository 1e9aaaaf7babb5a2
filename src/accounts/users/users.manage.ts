import { mayManageRoles, takesAwayAnOwner } from '../../access/gates.js';
import { takesOverAsLender } from '../../access/ownership.js';
import type { AppContext } from '../../platform/context.js';
import type { Trx, UsersTable } from '../../platform/db/database.js';
import type { AuthUser } from '../auth/authenticate.js';
import { forgetCachedUser } from '../auth/authenticate.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { hashSecret, newSecret } from '../keys.js';
import { endUserSessions } from '../auth/sessions.js';
import { isoSeconds } from '../../platform/time.js';
import { endUserGrants } from '../oauth/oauth.repo.js';
import { emit } from '../webhooks/outbox.js';

/** Ids per peopleUpdated event when many people change at once (as EventBatch groups them). */
const PEOPLE_PER_EVENT = 100;

type Role = UsersTable['role'];

async function activeUser(trx: Trx, accountId: number, userId: number) {
  return trx
    .selectFrom('users')
    .select(['id', 'role', 'name'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** An account must keep an Owner: the last one can be neither demoted nor deactivated. */
async function assertAnotherOwner(trx: Trx, accountId: number, userId: number) {
  const other = await trx
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('role', '=', 'Owner')
    .where('deleted_at', 'is', null)
    .where('id', '!=', userId)
    .executeTakeFirst();
  if (!other) throw badRequest('This is the account’s only Owner: make another user Owner first');
}

/** Only an Owner may make Owners, or change or remove one. */
function assertMayManage(caller: AuthUser, targetRole: Role, newRole?: Role) {
  if (!mayManageRoles(caller, targetRole, newRole))
    throw forbidden('Only an Owner can make, change or deactivate Owners');
}

export async function changeRole(ctx: AppContext, caller: AuthUser, userId: number, role: Role) {
  await ctx.db.transaction().execute(async (trx) => {
    const user = await activeUser(trx, caller.accountId, userId);
    if (!user) throw notFound(`User ${userId}`);
    assertMayManage(caller, user.role, role);
    if (takesAwayAnOwner(user.role, role)) await assertAnotherOwner(trx, caller.accountId, userId);
    await trx
      .updateTable('users')
      .set({ role, updated_at: isoSeconds(ctx.clock.now()) })
      .where('id', '=', userId)
      .execute();
  });
  forgetCachedUser(ctx, userId);
}

/** peopleUpdated for each handed-over person, once, in delivery-sized groups of ids. */
async function emitPeopleUpdated(trx: Trx, accountId: number, rows: { id: number }[], now: number) {
  const ids = [...new Set(rows.map((r) => r.id))].sort((a, b) => a - b);
  for (let i = 0; i < ids.length; i += PEOPLE_PER_EVENT)
    await emit(trx, accountId, 'peopleUpdated', ids.slice(i, i + PEOPLE_PER_EVENT), undefined, now);
}

/**
 * Deactivates a user: their people (assigned, and as lender) go to `assignTo` (each fires
 * peopleUpdated), their sessions end, their API key, OAuth codes and tokens stop working. The
 * row stays for history (includeDeleted).
 */
export async function deactivateUser(
  ctx: AppContext,
  caller: AuthUser,
  userId: number,
  assignTo: number,
) {
  const now = ctx.clock.now();
  if (userId === caller.userId) throw badRequest('You cannot deactivate yourself');
  if (assignTo === userId)
    throw badRequest('assignTo must be another user: the one who takes over these people');
  await ctx.db.transaction().execute(async (trx) => {
    const user = await activeUser(trx, caller.accountId, userId);
    if (!user) throw notFound(`User ${userId}`);
    assertMayManage(caller, user.role);
    const heir = await activeUser(trx, caller.accountId, assignTo);
    if (!heir)
      throw badRequest(`assignTo ${assignTo} is not an active user of this account`, [
        { field: 'assignTo', message: 'not an active user of this account' },
      ]);
    if (takesAwayAnOwner(user.role)) await assertAnotherOwner(trx, caller.accountId, userId);
    const stamp = isoSeconds(now);
    const asAgent = await trx
      .updateTable('people')
      .set({ assigned_user_id: assignTo, updated_at: stamp })
      .where('account_id', '=', caller.accountId)
      .where('assigned_user_id', '=', userId)
      .returning('id')
      .execute();
    const asLender = await trx
      .updateTable('people')
      .set({ assigned_lender_id: takesOverAsLender(heir) ? assignTo : null, updated_at: stamp })
      .where('account_id', '=', caller.accountId)
      .where('assigned_lender_id', '=', userId)
      .returning('id')
      .execute();
    await emitPeopleUpdated(trx, caller.accountId, [...asAgent, ...asLender], now);
    await trx
      .updateTable('users')
      // A key hash no key can have (not hex): the old key never matches again.
      .set({
        deleted_at: stamp,
        updated_at: stamp,
        api_key_hash: `revoked:${hashSecret(newSecret('x'))}`,
      })
      .where('id', '=', userId)
      .execute();
    await endUserGrants(trx, caller.accountId, userId, now);
    await endUserSessions(trx, userId);
  });
  forgetCachedUser(ctx, userId);
}
