import { mayManageRoles } from '../../access/gates.js';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { UsersTable } from '../../platform/db/database.js';
import type { AuthUser } from '../auth/authenticate.js';
import { conflict, forbidden } from '../../platform/http/errors.js';
import { hashSecret, newSecret } from '../keys.js';
import type { InvitesTable } from '../auth/auth.tables.js';
import { canEmail, sendAccountEmail } from '../auth/mailer.js';
import { INVITE_LINK_MS, INVITE_TOKEN_PREFIX, iso, setPasswordLink } from '../auth/links.js';

export function presentInvite(row: Selectable<InvitesTable>) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    expiresAt: row.expires_at,
    created: row.created_at,
    invitedById: row.invited_by_id,
  };
}

/**
 * Records an invite (a new one replaces a pending invite for the same email) and emails its link;
 * without SMTP, or when sending fails, the link is returned to the inviter, once.
 */
export async function createInvite(
  ctx: AppContext,
  caller: AuthUser,
  input: { email: string; name: string; role: UsersTable['role'] },
) {
  if (!mayManageRoles(caller, input.role)) throw forbidden('Only an Owner can invite an Owner');
  const email = input.email.trim().toLowerCase();
  const now = ctx.clock.now();
  const token = newSecret(INVITE_TOKEN_PREFIX);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select('deleted_at')
      .where('account_id', '=', caller.accountId)
      .where('email', '=', email)
      .executeTakeFirst();
    if (user)
      throw conflict(
        user.deleted_at
          ? `${email} belonged to a user who was deactivated; their address cannot be invited again`
          : `${email} is already a user of this account`,
      );
    await trx
      .deleteFrom('invites')
      .where('account_id', '=', caller.accountId)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .execute();
    return trx
      .insertInto('invites')
      .values({
        account_id: caller.accountId,
        email,
        name: input.name.trim(),
        role: input.role,
        invited_by_id: caller.userId,
        token_hash: hashSecret(token),
        expires_at: iso(now + INVITE_LINK_MS),
        created_at: iso(now),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  const link = setPasswordLink(ctx.config, token);
  const emailed = canEmail(ctx) && (await emailInvite(ctx, caller, row, link));
  return { ...presentInvite(row), emailed, ...(emailed ? {} : { inviteLink: link }) };
}

async function emailInvite(
  ctx: AppContext,
  caller: AuthUser,
  invite: Selectable<InvitesTable>,
  link: string,
): Promise<boolean> {
  try {
    await sendAccountEmail(ctx, {
      to: invite.email,
      subject: `${caller.name} invited you to Hearth`,
      text:
        `Hello ${invite.name},\n\n${caller.name} invited you to work in Hearth as ${invite.role}.\n` +
        `Choose your password here (the link works once, for 7 days):\n\n${link}\n`,
    });
    return true;
  } catch (err) {
    ctx.log.warn({ error: (err as Error).message }, 'invite email failed; link returned instead');
    return false;
  }
}
