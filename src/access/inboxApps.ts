import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { DB } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { forbidden } from '../platform/http/errors.js';
import { everything, seesWholeAccount } from './roles.js';
import '../inbox/inboxApps.tables.js';

/**
 * Who may install an inbox app: for the whole account (`userId` 0) only the Owner; for a user's
 * inbox the Owner, or that user with their own key (as in the real API).
 */
export function assertMayInstallInboxApp(auth: AuthUser, userId: number): void {
  if (auth.role === 'Owner') return;
  if (userId === 0)
    throw forbidden(
      "Installing an inbox app for the whole account (userId 0) requires the Owner's key",
    );
  if (userId !== auth.userId)
    throw forbidden(
      `Only the Owner, or user ${userId} with their own key, may install an inbox app for that user`,
    );
}

/**
 * The inbox apps a caller may act as (post messages, notes, conversation changes) and read:
 * Owner and Admin every installation of the account; anyone else those installed by them or
 * serving their own inbox.
 */
export function canUseInboxApp(
  eb: ExpressionBuilder<DB, 'inbox_apps'>,
  auth: AuthUser,
): Expression<SqlBool> {
  if (seesWholeAccount(auth)) return everything;
  return eb.or([
    eb('inbox_apps.user_id', '=', auth.userId),
    eb('inbox_apps.installed_by_id', '=', auth.userId),
  ]);
}
