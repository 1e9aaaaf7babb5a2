// Every account and user has a lead address (GET /v1/identity shows them); leads/inboundEmail/
// resolves mail sent to them. Kept here, below leads/, so that users need not import leads.
import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { DB, DbOrTrx } from '../../platform/db/database.js';
import { isoSeconds } from '../../platform/time.js';
import { reusableQuery } from '../../platform/db/reusable-query.js';

/** Who a lead address belongs to: the account (userId null) or one of its users. */
export interface AddressOwner {
  accountId: number;
  userId: number | null;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 80 random bits as 16 base-32 letters: unguessable, and safe in any mail system's local part. */
function newLocalPart(): string {
  const bytes = randomBytes(16);
  let out = 'lead-';
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

const ownerFilter = (owner: AddressOwner) => (eb: ExpressionBuilder<DB, 'lead_addresses'>) =>
  owner.userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', owner.userId);

async function findLocalPart(db: DbOrTrx, owner: AddressOwner): Promise<string | undefined> {
  const row = await db
    .selectFrom('lead_addresses')
    .select('local_part')
    .where('account_id', '=', owner.accountId)
    .where(ownerFilter(owner))
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.local_part;
}

async function insertLocalPart(db: DbOrTrx, owner: AddressOwner, nowMs: number): Promise<string> {
  const localPart = newLocalPart();
  await db
    .insertInto('lead_addresses')
    .values({
      account_id: owner.accountId,
      user_id: owner.userId,
      local_part: localPart,
      created_at: isoSeconds(nowMs),
    })
    .execute();
  return localPart;
}

/** The owner's lead address, made on first use. */
export async function leadAddressOf(
  db: DbOrTrx,
  domain: string,
  owner: AddressOwner,
  nowMs: number,
): Promise<string> {
  const localPart = (await findLocalPart(db, owner)) ?? (await insertLocalPart(db, owner, nowMs));
  return `${localPart}@${domain}`;
}

/** A new address for the owner; the old one stops taking mail at once. */
export async function rotateLeadAddress(
  db: DbOrTrx,
  domain: string,
  owner: AddressOwner,
  nowMs: number,
): Promise<string> {
  await db
    .deleteFrom('lead_addresses')
    .where('account_id', '=', owner.accountId)
    .where(ownerFilter(owner))
    .execute();
  return `${await insertLocalPart(db, owner, nowMs)}@${domain}`;
}

// Compiled once; outside a transaction on SQLite it is answered by the read connection, so the
// listener's lookups never force the writer's open group to commit early.
const addressByLocalPart = reusableQuery((db, _shape, localPart: string) =>
  db
    .selectFrom('lead_addresses')
    .leftJoin('users', 'users.id', 'lead_addresses.user_id')
    .select(['lead_addresses.account_id', 'lead_addresses.user_id', 'users.deleted_at'])
    .where('local_part', '=', localPart),
);

/** The owner of a recipient address, or null when it is not a lead address of this domain. */
export async function resolveLeadAddress(
  db: DbOrTrx,
  domain: string,
  address: string,
): Promise<AddressOwner | null> {
  const at = address.lastIndexOf('@');
  if (at < 1 || address.length > 320) return null;
  if (address.slice(at + 1).toLowerCase() !== domain) return null;
  const localPart = address.slice(0, at).toLowerCase();
  if (!/^lead-[a-z2-7]{16}$/.test(localPart)) return null;
  const row = await addressByLocalPart(db, '', localPart);
  // A deactivated user's address takes no more mail.
  if (!row || row.deleted_at) return null;
  return { accountId: row.account_id, userId: row.user_id };
}
