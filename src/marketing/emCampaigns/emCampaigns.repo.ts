import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import { assertMayChangeOwnedRecord } from '../../access/ownership.js';
import type { AuthUser } from '../../accounts/auth/authenticate.js';
import { notFound } from '../../platform/http/errors.js';
import type { EmCampaignsTable } from './emCampaigns.tables.js';
import './emCampaigns.tables.js';

export type EmCampaignRow = Selectable<EmCampaignsTable>;

export interface EmCampaignContent {
  name: string;
  subject: string;
  body_html: string;
}

export function campaignsOfAccount(db: DbOrTrx, accountId: number) {
  return db.selectFrom('em_campaigns').selectAll().where('account_id', '=', accountId);
}

/** The campaigns list with its filters (exact origin and originId, surrounding spaces ignored). */
export function campaignsList(
  db: DbOrTrx,
  accountId: number,
  filters: { origin?: string; originId?: string },
) {
  let query = campaignsOfAccount(db, accountId);
  if (filters.origin !== undefined) query = query.where('origin', '=', filters.origin.trim());
  if (filters.originId !== undefined)
    query = query.where('origin_id', '=', filters.originId.trim());
  return query;
}

export async function findCampaign(
  db: DbOrTrx,
  accountId: number,
  id: number,
): Promise<EmCampaignRow | undefined> {
  return campaignsOfAccount(db, accountId).where('id', '=', id).executeTakeFirst();
}

/**
 * A campaign the caller may change, send or cancel: 404 when the account has none with this id,
 * 403 unless the caller created it or is an Owner or Admin.
 */
export async function findChangeableCampaign(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<EmCampaignRow> {
  const row = await findCampaign(db, auth.accountId, id);
  if (!row) throw notFound(`Campaign ${id}`);
  assertMayChangeOwnedRecord(
    auth,
    row.created_by_id,
    'Only the user who created this campaign, an Owner or an Admin may change, send or cancel it',
  );
  return row;
}

export async function findCampaignByOrigin(
  db: DbOrTrx,
  accountId: number,
  origin: string,
  originId: string,
): Promise<EmCampaignRow | undefined> {
  return campaignsOfAccount(db, accountId)
    .where('origin', '=', origin)
    .where('origin_id', '=', originId)
    .executeTakeFirst();
}

export async function insertCampaign(
  trx: Trx,
  accountId: number,
  values: EmCampaignContent & {
    origin: string;
    origin_id: string;
    created_by_id: number;
    at: string;
  },
): Promise<EmCampaignRow> {
  const { at, ...rest } = values;
  return trx
    .insertInto('em_campaigns')
    .values({ account_id: accountId, ...rest, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateCampaign(
  trx: Trx,
  accountId: number,
  id: number,
  content: EmCampaignContent,
  at: string,
): Promise<EmCampaignRow> {
  return trx
    .updateTable('em_campaigns')
    .set({ ...content, updated_at: at })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Ids among `ids` that name campaigns of the account. */
export async function existingCampaignIds(
  db: DbOrTrx,
  accountId: number,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('em_campaigns')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}
