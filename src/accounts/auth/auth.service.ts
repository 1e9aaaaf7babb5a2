import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { ApiError, badRequest } from '../../platform/http/errors.js';
import { decoyPasswordHash, passwordProblem, findMatchingHash } from './passwords.js';
import { alignWithEmailSalt, passwordHashForEmail } from './password-hashes.js';
import { csrfTokenFor, endUserSessions, forgetUserSessions } from './sessions.js';
import { countSignInAttempt, forgiveAttempt } from './throttle.js';

export interface SignedInUser {
  accountId: number;
  userId: number;
  name: string;
  email: string;
  role: string;
}

const WRONG_CREDENTIALS = 'Wrong email or password';

export const wrongCredentials = () => new ApiError(401, 'WRONG_CREDENTIALS', WRONG_CREDENTIALS);

/** Users of several accounts may share an email; this many are considered at most. */
const MAX_CANDIDATES = 5;

/**
 * Email and password to a user, throttled per email and per address: the attempt is counted
 * before the password is checked. Every failure looks the same (wording, status and time taken),
 * whether the email belongs to no one, to one user or to users of several accounts.
 */
export async function signIn(
  ctx: AppContext,
  input: { email: string; password: string; address: string },
): Promise<SignedInUser> {
  const attempt = await countSignInAttempt(
    ctx,
    { email: input.email, address: input.address },
    ctx.clock.now(),
  );
  // An email may belong to users of several accounts: the password picks one.
  const candidates = await ctx.db
    .selectFrom('users')
    .select(['id', 'account_id', 'name', 'email', 'role', 'password_hash'])
    .where('email', '=', input.email.trim().toLowerCase())
    .where('deleted_at', 'is', null)
    .where('password_hash', 'is not', null)
    .orderBy('id')
    .limit(MAX_CANDIDATES)
    .execute();
  const hashes = candidates.length
    ? candidates.map((user) => user.password_hash!)
    : [await decoyPasswordHash()];
  const user = candidates[await findMatchingHash(input.password, hashes)];
  if (!user) throw wrongCredentials();
  await forgiveAttempt(ctx, attempt);
  await alignWithEmailSalt(
    ctx.db,
    { id: user.id, password_hash: user.password_hash! },
    { password_hash: candidates[0]!.password_hash! },
    input.password,
  );
  const { id: userId, account_id: accountId, name, email, role } = user;
  return { accountId, userId, name, email, role };
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
  const passwordHash = await passwordHashForEmail(db, password, user.email, userId);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', userId)
      .execute();
    await endUserSessions(trx, userId);
  });
  // Again once committed: a request that came meanwhile may have remembered a session.
  forgetUserSessions(userId);
}
