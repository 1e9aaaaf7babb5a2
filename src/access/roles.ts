import { sql, type SqlBool } from 'kysely';
import type { AuthUser } from '../platform/http/auth-user.js';

/** Owner and Admin see every record of their account; Agents and Lenders only what is tied to them. */
export function seesWholeAccount(auth: Pick<AuthUser, 'role'>): boolean {
  return auth.role === 'Owner' || auth.role === 'Admin';
}

/** The condition of a user who sees everything of their account. */
export const everything = sql<SqlBool>`1 = 1`;
