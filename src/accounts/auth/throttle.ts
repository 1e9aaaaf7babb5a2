import type { Trx } from '../../platform/db/database.js';
import { hashSecret } from '../keys.js';
import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import { ApiError } from '../../platform/http/errors.js';
import type {} from './auth.tables.js';

/**
 * Sign-in throttling, kept in the database so every API instance counts the same attempts.
 * An attempt is counted BEFORE its password is checked, and counts as a failure until it
 * succeeds: after LIMIT of them within WINDOW for one subject, attempts are refused until the
 * oldest leaves the window, however many arrive at once. Unknown emails count like known ones.
 */
const WINDOW_MS = 15 * 60_000;
const LIMITS = { email: 5, address: 50 } as const;
/** The first key of PostgreSQL's two-key advisory locks that this throttle takes (any constant). */
const LOCK_CLASS = 0x5349474e;

export interface ThrottleSubjects {
  email: string;
  address: string;
}

/** The attempt being made: forgiven (forgiveAttempt) when its password turns out right. */
export interface SignInAttempt {
  emailSubject: string;
  addressRowId: number;
}

const subjectsOf = (who: ThrottleSubjects) => ({
  email: hashSecret(`email:${who.email.trim().toLowerCase()}`),
  address: hashSecret(`ip:${who.address}`),
});

const iso = (ms: number) => new Date(ms).toISOString();

const throttled = (waitSeconds: number) =>
  new ApiError(
    429,
    'SIGN_IN_THROTTLED',
    `Too many failed sign-ins; try again in ${waitSeconds} seconds`,
    undefined,
    { 'Retry-After': String(waitSeconds) },
  );

/**
 * Holds the subjects until the transaction ends. SQLite has one writer, so its transactions
 * already run one at a time; PostgreSQL needs the lock for two instances (or connections) not to
 * both count four attempts and both add a fifth. Taken in a fixed order: no deadlock.
 */
async function lockSubjects(trx: Trx, dialect: AppContext['dialect'], subjects: string[]) {
  if (dialect !== 'postgres') return;
  for (const subject of [...subjects].sort()) {
    const key = Number.parseInt(subject.slice(0, 8), 16) | 0;
    await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int4, ${key}::int4)`.execute(trx);
  }
}

/** Milliseconds until the subject may try again: while its LIMIT-th latest attempt is in the window. */
async function waitOf(trx: Trx, subject: string, limit: number, now: number): Promise<number> {
  const blocking = await trx
    .selectFrom('sign_in_failures')
    .select('failed_at')
    .where('subject', '=', subject)
    .where('failed_at', '>', iso(now - WINDOW_MS))
    .orderBy('failed_at', 'desc')
    .limit(1)
    .offset(limit - 1)
    .executeTakeFirst();
  return blocking ? Date.parse(blocking.failed_at) + WINDOW_MS - now : 0;
}

/**
 * Counts a sign-in attempt for its email and its address, atomically with the check that they
 * may still try: 429 (with Retry-After) when either is at its limit, and then nothing is counted.
 */
export async function countSignInAttempt(
  ctx: Pick<AppContext, 'db' | 'dialect'>,
  who: ThrottleSubjects,
  now: number,
): Promise<SignInAttempt> {
  const subjects = subjectsOf(who);
  return ctx.db.transaction().execute(async (trx) => {
    await lockSubjects(trx, ctx.dialect, [subjects.email, subjects.address]);
    const waitMs = Math.max(
      await waitOf(trx, subjects.email, LIMITS.email, now),
      await waitOf(trx, subjects.address, LIMITS.address, now),
    );
    if (waitMs > 0) throw throttled(Math.ceil(waitMs / 1000));
    await trx
      .insertInto('sign_in_failures')
      .values({ subject: subjects.email, failed_at: iso(now) })
      .execute();
    const { id } = await trx
      .insertInto('sign_in_failures')
      .values({ subject: subjects.address, failed_at: iso(now) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { emailSubject: subjects.email, addressRowId: id };
  });
}

/**
 * A successful sign-in: the email's failures are forgiven (this attempt with them), and this
 * attempt no longer counts for its address (its earlier failures do: one address, many guesses).
 */
export async function forgiveAttempt(
  ctx: Pick<AppContext, 'db'>,
  attempt: SignInAttempt,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sign_in_failures').where('subject', '=', attempt.emailSubject).execute();
    await trx.deleteFrom('sign_in_failures').where('id', '=', attempt.addressRowId).execute();
  });
}
