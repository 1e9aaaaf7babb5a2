import type { AppContext } from '../../platform/context.js';
import { canEmail, sendAccountEmail } from './mailer.js';
import { createPasswordToken, iso, RESET_LINK_MS, setPasswordLink } from './links.js';

/** One reset email per user per 5 minutes: the endpoint cannot be used to flood a mailbox. */
const RESEND_AFTER_MS = 5 * 60_000;

/**
 * Emails a reset link to every active user with this address (one per account). Runs after the
 * 202 has been answered, so the answer's timing does not tell whether the address is known.
 */
export async function sendResetLinks(ctx: AppContext, email: string): Promise<void> {
  if (!canEmail(ctx)) return;
  const now = ctx.clock.now();
  const users = await ctx.db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.account_id', 'users.email', 'accounts.name as accountName'])
    .where('users.email', '=', email.trim().toLowerCase())
    .where('users.deleted_at', 'is', null)
    .execute();
  for (const user of users) {
    const recent = await ctx.db
      .selectFrom('password_tokens')
      .select('id')
      .where('user_id', '=', user.id)
      .where('purpose', '=', 'reset')
      .where('created_at', '>', iso(now - RESEND_AFTER_MS))
      .executeTakeFirst();
    if (recent) continue;
    const { token } = await ctx.db
      .transaction()
      .execute((trx) =>
        createPasswordToken(
          trx,
          { accountId: user.account_id, userId: user.id, purpose: 'reset', ttlMs: RESET_LINK_MS },
          now,
        ),
      );
    await sendAccountEmail(ctx, {
      to: user.email,
      subject: `Choose a new Hearth password (${user.accountName})`,
      text:
        `Someone asked to reset the password of your Hearth account in "${user.accountName}".\n\n` +
        `Choose a new password here (the link works once, for one hour):\n\n` +
        `${setPasswordLink(ctx.config, token)}\n\n` +
        `If that was not you, ignore this email: your password stays as it is.\n`,
    });
  }
}
