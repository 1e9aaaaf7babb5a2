import type { Db } from '../db/database.js';
import { hashSecret } from '../accounts/keys.js';
import type {} from './auth.tables.js';

/**
 * Sign-in throttling, kept in the database so every API instance counts the same failures.
 * After LIMIT failures within WINDOW for one subject, attempts are refused until the oldest of
 * those failures leaves the window. Unknown emails are counted exactly like known ones.
 */
const WINDOW_MS = 15 * 60_000;
const LIMITS = { email: 5, address: 50 } as const;

export interface ThrottleSubjects {
  email: string;
  address: string;
}

const subjectsOf = (who: ThrottleSubjects) => ({
  email: hashSecret(`email:${who.email.trim().toLowerCase()}`),
  address: hashSecret(`ip:${who.address}`),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** Seconds until a sign-in for these subjects may be tried again, or 0 when it may now. */
export async function throttledForSeconds(
  db: Db,
  who: ThrottleSubjects,
  now: number,
): Promise<number> {
  const subjects = subjectsOf(who);
  let waitMs = 0;
  for (const kind of ['email', 'address'] as const) {
    // The LIMIT-th most recent failure in the window: while it is there, the subject is locked.
    const blocking = await db
      .selectFrom('sign_in_failures')
      .select('failed_at')
      .where('subject', '=', subjects[kind])
      .where('failed_at', '>', iso(now - WINDOW_MS))
      .orderBy('failed_at', 'desc')
      .limit(1)
      .offset(LIMITS[kind] - 1)
      .executeTakeFirst();
    if (blocking) waitMs = Math.max(waitMs, Date.parse(blocking.failed_at) + WINDOW_MS - now);
  }
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

export async function recordSignInFailure(
  db: Db,
  who: ThrottleSubjects,
  now: number,
): Promise<void> {
  const subjects = subjectsOf(who);
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('sign_in_failures')
      .where('failed_at', '<=', iso(now - WINDOW_MS))
      .execute();
    await trx
      .insertInto('sign_in_failures')
      .values([
        { subject: subjects.email, failed_at: iso(now) },
        { subject: subjects.address, failed_at: iso(now) },
      ])
      .execute();
  });
}

/** A successful sign-in forgives the email's failures (not the address's: one address, many guesses). */
export async function forgetEmailFailures(db: Db, email: string): Promise<void> {
  const { email: subject } = subjectsOf({ email, address: '' });
  await db.deleteFrom('sign_in_failures').where('subject', '=', subject).execute();
}
