import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { hashSecret } from '../keys.js';
import { insertUser } from '../accounts.service.js';
import { badRequest } from '../../platform/http/errors.js';
import { passwordProblem } from './passwords.js';
import { passwordHashForEmail } from './password-hashes.js';
import { endUserSessions, forgetUserSessions } from './sessions.js';
import type { SignedInUser } from './auth.service.js';
import { INVITE_TOKEN_PREFIX, iso, PASSWORD_TOKEN_PREFIX } from './links.js';

const spentLink = () =>
  badRequest(
    'This link is not valid: it has expired or was already used. Ask for a new one (Forgot password, or a new invite).',
    [{ field: 'token', message: 'expired, used or unknown' }],
  );

async function checkedPasswordHash(
  ctx: AppContext,
  password: string,
  email: string,
  userId?: number,
): Promise<string> {
  const problem = passwordProblem(password, email);
  if (problem) throw badRequest(problem, [{ field: 'password', message: problem }]);
  return passwordHashForEmail(ctx.db, password, email, userId);
}

/** Writes the new password, spends every open link of the user and ends their sessions. */
async function storePassword(trx: Trx, userId: number, passwordHash: string, now: number) {
  await trx
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .execute();
  await trx
    .updateTable('password_tokens')
    .set({ used_at: iso(now) })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  await endUserSessions(trx, userId);
}

/** A setup or reset link: sets the password of the user it was made for. */
async function usePasswordToken(ctx: AppContext, token: string, password: string) {
  const now = ctx.clock.now();
  const row = await ctx.db
    .selectFrom('password_tokens')
    .innerJoin('users', 'users.id', 'password_tokens.user_id')
    .select([
      'password_tokens.id as tokenId',
      'password_tokens.used_at',
      'password_tokens.expires_at',
      'users.id as userId',
      'users.account_id as accountId',
      'users.name',
      'users.email',
      'users.role',
    ])
    .where('password_tokens.token_hash', '=', hashSecret(token))
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.used_at || row.expires_at <= iso(now)) throw spentLink();
  const passwordHash = await checkedPasswordHash(ctx, password, row.email, row.userId);
  await ctx.db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('password_tokens')
      .set({ used_at: iso(now) })
      .where('id', '=', row.tokenId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    // Two tabs submitting the same link: only the first one wins.
    if (spent.numUpdatedRows === 0n) throw spentLink();
    await storePassword(trx, row.userId, passwordHash, now);
  });
  // Again once committed: a request that came meanwhile may have remembered a session.
  forgetUserSessions(row.userId);
  const { userId, accountId, name, email, role } = row;
  return { userId, accountId, name, email, role };
}

/** An invite link: creates the invited user with the chosen password. */
async function acceptInvite(ctx: AppContext, token: string, password: string) {
  const now = ctx.clock.now();
  const invite = await ctx.db
    .selectFrom('invites')
    .selectAll()
    .where('token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (!invite || invite.accepted_at || invite.expires_at <= iso(now)) throw spentLink();
  const passwordHash = await checkedPasswordHash(ctx, password, invite.email);
  return ctx.db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable('invites')
      .set({ accepted_at: iso(now) })
      .where('id', '=', invite.id)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (taken.numUpdatedRows === 0n) throw spentLink();
    const existing = await trx
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', invite.account_id)
      .where('email', '=', invite.email)
      .executeTakeFirst();
    if (existing)
      throw badRequest(
        `${invite.email} is already a user of this account: sign in, or use Forgot password`,
      );
    const { user } = await insertUser(trx, invite.account_id, invite, now);
    await storePassword(trx, user.id, passwordHash, now);
    await trx
      .updateTable('invites')
      .set({ user_id: user.id })
      .where('id', '=', invite.id)
      .execute();
    return { userId: user.id, accountId: invite.account_id, ...user };
  });
}

/** POST /auth/password: the user a setup, reset or invite link belongs to, with their new password. */
export async function redeemPasswordLink(
  ctx: AppContext,
  token: string,
  password: string,
): Promise<SignedInUser> {
  if (token.startsWith(`${INVITE_TOKEN_PREFIX}_`)) return acceptInvite(ctx, token, password);
  if (token.startsWith(`${PASSWORD_TOKEN_PREFIX}_`)) return usePasswordToken(ctx, token, password);
  throw spentLink();
}
