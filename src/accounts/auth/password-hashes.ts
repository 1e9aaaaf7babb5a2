import type { DbOrTrx } from '../../platform/db/database.js';
import { hashPassword, sameSetting } from './passwords.js';

/**
 * The hash of a new password for a user with this email. When other active users (of other
 * accounts) have the same email, it takes their salt: a sign-in then costs one derivation however
 * many accounts hold the email, so its duration does not tell how many do.
 */
export async function passwordHashForEmail(
  db: DbOrTrx,
  password: string,
  email: string,
  exceptUserId?: number,
): Promise<string> {
  let others = db
    .selectFrom('users')
    .select('password_hash')
    .where('email', '=', email.trim().toLowerCase())
    .where('deleted_at', 'is', null)
    .where('password_hash', 'is not', null);
  if (exceptUserId !== undefined) others = others.where('id', '!=', exceptUserId);
  const sibling = await others.orderBy('id').limit(1).executeTakeFirst();
  return hashPassword(password, sibling?.password_hash ?? undefined);
}

/**
 * After a successful sign-in: a hash set before users sharing an email shared their salt is
 * rehashed with the salt of the email's first user, so a later sign-in costs one derivation.
 * The password does not change (sessions stay); a concurrent password change wins.
 */
export async function alignWithEmailSalt(
  db: DbOrTrx,
  user: { id: number; password_hash: string },
  first: { password_hash: string },
  password: string,
): Promise<void> {
  if (sameSetting(user.password_hash, first.password_hash)) return;
  await db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password, first.password_hash) })
    .where('id', '=', user.id)
    .where('password_hash', '=', user.password_hash)
    .execute();
}
