import type { DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { forbidden } from '../platform/http/errors.js';
import { seesWholeAccount } from './roles.js';
import '../leads/ponds/ponds.tables.js';

/**
 * Owner and Admin move people into any pond of the account; Agents and Lenders only into ponds
 * they belong to or lead. Checked when a person's pond changes to `pondId` (the pond exists).
 */
export async function assertMayMoveIntoPond(
  db: DbOrTrx,
  auth: AuthUser,
  fromPondId: number | null,
  pondId: number | null,
): Promise<void> {
  if (pondId === null || pondId === fromPondId || seesWholeAccount(auth)) return;
  const membership = await db
    .selectFrom('ponds')
    .select('ponds.id')
    .where('ponds.account_id', '=', auth.accountId)
    .where('ponds.id', '=', pondId)
    .where((eb) =>
      eb.or([
        eb('ponds.user_id', '=', auth.userId),
        eb.exists(
          eb
            .selectFrom('pond_members as pm')
            .select('pm.pond_id')
            .whereRef('pm.pond_id', '=', 'ponds.id')
            .where('pm.user_id', '=', auth.userId),
        ),
      ]),
    )
    .executeTakeFirst();
  if (!membership)
    throw forbidden(`You can move people only into ponds you belong to (pond ${pondId})`);
}
