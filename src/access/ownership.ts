import { type Expression, type ExpressionBuilder, sql, type SqlBool } from 'kysely';
import type { DB } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { forbidden } from '../platform/http/errors.js';
import { everything, seesWholeAccount } from './roles.js';

/**
 * Records a user owns (templates, smart lists, threaded replies, campaigns): the owner and the account's
 * Owner and Admins may change or delete them.
 */
export function mayChangeOwnedRecord(auth: AuthUser, ownerUserId: number | null): boolean {
  return seesWholeAccount(auth) || ownerUserId === auth.userId;
}

/** 403 (`refusal` says who may) unless `auth` may change the record, as mayChangeOwnedRecord says. */
export function assertMayChangeOwnedRecord(
  auth: AuthUser,
  ownerUserId: number | null,
  refusal: string,
): void {
  if (!mayChangeOwnedRecord(auth, ownerUserId)) throw forbidden(refusal);
}

/** Shared-or-own records (templates): Owner and Admin see all, others their own and the shared ones. */
export function ownOrShared<T extends keyof DB>(
  eb: ExpressionBuilder<DB, T>,
  auth: AuthUser,
  columns: { owner: string; shared: string },
): Expression<SqlBool> {
  if (seesWholeAccount(auth)) return everything;
  return eb.or([eb(sql.ref(columns.shared), '=', 1), eb(sql.ref(columns.owner), '=', auth.userId)]);
}

interface Assignment {
  assignedUserId: number | null;
  assignedLenderId: number | null;
  assignedPondId?: number | null;
}

/**
 * Who a new person is assigned to when the body names no one: an Agent or Lender who creates a
 * person is assigned, so that they keep seeing them (an Agent's person put in a pond stays there).
 */
export function defaultOwnership<T extends Assignment>(auth: AuthUser, state: T): T {
  if (auth.role === 'Agent' && state.assignedUserId === null && !state.assignedPondId)
    return { ...state, assignedUserId: auth.userId };
  if (auth.role === 'Lender' && state.assignedLenderId === null)
    return { ...state, assignedLenderId: auth.userId };
  return state;
}

/** The users of a new deal whose body names none: an Agent's own deal stays visible to them. */
export function defaultDealUsers(auth: AuthUser, userIds: number[]): number[] {
  return auth.role === 'Agent' ? [auth.userId] : userIds;
}

/** Records only their owner and the account's Owner/Admin see (imports): the list condition. */
export function ownUnlessAdmin<T extends keyof DB>(
  eb: ExpressionBuilder<DB, T>,
  auth: AuthUser,
  ownerColumn: string,
): Expression<SqlBool> {
  if (seesWholeAccount(auth)) return everything;
  return eb(sql.ref(ownerColumn), '=', auth.userId);
}

/** May `auth` make `userId` a person's assigned agent? Agents only themselves (imports). */
export function mayAssignAgent(auth: AuthUser, userId: number | null): boolean {
  return auth.role !== 'Agent' || userId === null || userId === auth.userId;
}

/**
 * When a user is deactivated, the people they were lender of go to the user taking over as their
 * lender only if that heir is a Lender; otherwise those people are left without a lender.
 */
export function takesOverAsLender(heir: Pick<AuthUser, 'role'>): boolean {
  return heir.role === 'Lender';
}
