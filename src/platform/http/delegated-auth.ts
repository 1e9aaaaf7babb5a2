import { randomUUID } from 'node:crypto';
import type { AuthUser } from './auth-user.js';

/**
 * In-process requests made for a caller who is already authenticated (the MCP tools call the REST
 * routes this way, so that every gate, visibility rule, limit and event applies unchanged). The
 * request carries a random single-use grant in DELEGATION_HEADER; only this process can know it.
 * A UUID's 122 random bits come from Node's buffered pool: randomBytes(32) per call cost a tool
 * call about 30 µs, and a grant lives only while its one request runs.
 */
export const DELEGATION_HEADER = 'x-hearth-delegation';

const grants = new Map<string, AuthUser>();

/** A grant for one in-process request; the caller revokes it when the request has been answered. */
export function grantFor(user: AuthUser): { grant: string; revoke: () => void } {
  const grant = randomUUID();
  grants.set(grant, user);
  return { grant, revoke: () => grants.delete(grant) };
}

/** The user of a grant, used up by this call; undefined for an unknown or spent one. */
export function takeGrant(grant: string): AuthUser | undefined {
  const user = grants.get(grant);
  grants.delete(grant);
  return user;
}
