import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { ApiError, badRequest } from '../http/errors.js';
import { decoyPasswordHash, hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { csrfTokenFor, endUserSessions } from './sessions.js';
import { forgetEmailFailures, recordSignInFailure, throttledForSeconds } from './throttle.js';

export interface SignedInUser {
  accountId: number;
  userId: number;
  name: string;
  email: string;
  role: string;
}

const WRONG_CREDENTIALS = 'Wrong email or password';

export const wrongCredentials = () => new ApiError(401, 'WRONG_CREDENTIALS', WRONG_CREDENTIALS);

/**
 * Email and password to a user, throttled per email and per address. Every failure looks the same
 * (wording, status and time taken), whether or not the email belongs to anyone.
 */
export async function signIn(
  ctx: AppContext,
  input: { email: string; password: string; address: string },
): Promise<SignedInUser> {
  const who = { email: input.email, address: input.address };
  const wait = await throttledForSeconds(ctx.db, who, ctx.clock.now());
  if (wait > 0) {
    throw new ApiError(
      429,
      'SIGN_IN_THROTTLED',
      `Too many failed sign-ins; try again in ${wait} seconds`,
      undefined,
      { 'Retry-After': String(wait) },
    );
  }
  // An email may belong to users of several accounts: the password picks one.
  const candidates = await ctx.db
    .selectFrom('users')
    .select(['id', 'account_id', 'name', 'email', 'role', 'password_hash'])
    .where('email', '=', input.email.trim().toLowerCase())
    .where('deleted_at', 'is', null)
    .where('password_hash', 'is not', null)
    .orderBy('id')
    .limit(5)
    .execute();
  for (const user of candidates) {
    if (await verifyPassword(input.password, user.password_hash!)) {
      await forgetEmailFailures(ctx.db, input.email);
      const { id: userId, account_id: accountId, name, email, role } = user;
      return { accountId, userId, name, email, role };
    }
  }
  if (candidates.length === 0) await verifyPassword(input.password, await decoyPasswordHash());
  await recordSignInFailure(ctx.db, who, ctx.clock.now());
  throw wrongCredentials();
}

/** The answer of login, session and password: who is signed in, where, and the CSRF token. */
export async function sessionAnswer(db: Db, user: SignedInUser, sessionId: string) {
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('id', '=', user.accountId)
    .executeTakeFirstOrThrow();
  return {
    user: { id: user.userId, name: user.name, email: user.email, role: user.role },
    account,
    csrfToken: csrfTokenFor(sessionId),
  };
}

/** Sets a user's password and ends all their sessions, in one transaction. */
export async function setPassword(db: Db, userId: number, password: string): Promise<void> {
  const user = await db
    .selectFrom('users')
    .select(['email'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user) throw badRequest(`User ${userId} does not exist or is deactivated`);
  const problem = passwordProblem(password, user.email);
  if (problem) throw badRequest(problem, [{ field: 'password', message: problem }]);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', userId)
      .execute();
    await endUserSessions(trx, userId);
  });
}
