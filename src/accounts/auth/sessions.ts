import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db, Trx } from '../../platform/db/database.js';
import { ApiError } from '../../platform/http/errors.js';
import { hashSecret } from '../keys.js';
import { reusableQuery } from '../../platform/db/reusable-query.js';
import { cookieValue, SESSION_COOKIE } from './cookies.js';
import { VerifiedSecrets } from './verified-secrets.js';
import type {} from './auth.tables.js';

export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_ABSOLUTE_MS = 14 * 86400_000;
/** last_used_at is written at most this often: a session in use costs one write a minute, not one a request. */
const RENEW_AFTER_MS = 60_000;

export interface SessionUser {
  sessionRowId: number;
  accountId: number;
  userId: number;
  role: 'Owner' | 'Admin' | 'Agent' | 'Lender';
  name: string;
  email: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The session id from the request's cookie, when it has the shape of one. */
export function sessionIdFrom(request: FastifyRequest): string | null {
  const value = cookieValue(request, SESSION_COOKIE);
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/**
 * The CSRF token is derived from the session id (HMAC keyed by it): nothing more to store, it dies
 * with the session, and knowing it reveals nothing about the id the cookie holds.
 */
export function csrfTokenFor(sessionId: string): string {
  return createHmac('sha256', sessionId).update('hearth csrf token').digest('base64url');
}

export function csrfTokenMatches(sessionId: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenFor(sessionId));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A new session for the user; the returned id goes into the cookie and is never stored. */
export async function createSession(
  db: Db | Trx,
  user: { accountId: number; userId: number },
  now: number,
): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      account_id: user.accountId,
      user_id: user.userId,
      token_hash: hashSecret(sessionId),
      last_used_at: iso(now),
      expires_at: iso(now + SESSION_ABSOLUTE_MS),
      created_at: iso(now),
    })
    .execute();
  return sessionId;
}

/** Compiled once and read from SQLite's read connection: the web app sends this with every request. */
const sessionByTokenHash = reusableQuery((db, _shape, tokenHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as sessionRowId',
      'sessions.last_used_at',
      'sessions.expires_at',
      'users.account_id as accountId',
      'users.id as userId',
      'users.role',
      'users.name',
      'users.email',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('users.deleted_at', 'is', null),
);

/**
 * Sessions verified in the last 5 s, found by the id's first 16 characters (96 of its 256 random
 * bits): the web app sends its cookie with every request. Signing out and ending a user's sessions
 * forget them here at once; another API instance may accept a signed-out session for up to 5 s, as
 * it may a key (README). Kept per process, not per app: session ids are random, so the apps a test
 * process runs side by side never share one.
 */
const verifiedSessions = new VerifiedSecrets<{
  user: SessionUser;
  lastUsed: number;
  expires: number;
}>(16);

/**
 * The user behind a session verified in the last 5 s, without a database read; undefined when it
 * must be read (unknown, expiring, or past RENEW_AFTER_MS, so that its last use is written). The
 * same object is answered while it is kept.
 */
export function knownSession(sessionId: string, now: number): SessionUser | undefined {
  const known = verifiedSessions.get(sessionId, now);
  if (known && known.expires > now && now - known.lastUsed < RENEW_AFTER_MS) return known.user;
  return undefined;
}

/** The signed-in user behind a session id, or null when it is unknown, expired or deactivated. */
export async function findSession(
  db: Db,
  sessionId: string,
  now: number,
): Promise<SessionUser | null> {
  const known = knownSession(sessionId, now);
  if (known) return known;
  const row = await sessionByTokenHash(db, 'session', hashSecret(sessionId));
  if (!row) return null;
  let lastUsed = Date.parse(row.last_used_at);
  const expires = Date.parse(row.expires_at);
  if (expires <= now || lastUsed + SESSION_IDLE_MS <= now) {
    await db.deleteFrom('sessions').where('id', '=', row.sessionRowId).execute();
    return null;
  }
  if (now - lastUsed >= RENEW_AFTER_MS) {
    await db
      .updateTable('sessions')
      .set({ last_used_at: iso(now) })
      .where('id', '=', row.sessionRowId)
      .execute();
    lastUsed = now;
  }
  const { sessionRowId, accountId, userId, role, name, email } = row;
  const user = { sessionRowId, accountId, userId, role, name, email };
  verifiedSessions.set(sessionId, { user, lastUsed, expires }, now);
  return user;
}

/** Forgets the verified sessions of a user (their role or name changed; they were deactivated). */
export function forgetUserSessions(userId: number): void {
  verifiedSessions.forget((known) => known.user.userId === userId);
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashSecret(sessionId)).execute();
  verifiedSessions.delete(sessionId);
}

/**
 * Ends every session of a user: on a password change and on deactivation. Called in a transaction,
 * its caller forgets them again once that commits (forgetUserSessions, or forgetCachedUser).
 */
export async function endUserSessions(db: Db | Trx, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  forgetUserSessions(userId);
}

/** Expired sessions are deleted when met; this sweeps the ones nobody comes back to. */
export async function deleteExpiredSessions(db: Db, now: number): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', iso(now)),
        eb('last_used_at', '<=', iso(now - SESSION_IDLE_MS)),
      ]),
    )
    .execute();
}

export const csrfRefused = () =>
  new ApiError(
    403,
    'CSRF_TOKEN',
    'Missing or wrong CSRF token: send the csrfToken from /auth/session in the X-CSRF-Token header',
  );

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A cookie-authenticated write must prove it comes from Hearth's own pages. */
export function requireCsrfToken(request: FastifyRequest, sessionId: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const header = request.headers['x-csrf-token'];
  if (!csrfTokenMatches(sessionId, typeof header === 'string' ? header : undefined))
    throw csrfRefused();
}
