import type { Static } from '@sinclair/typebox';
import type { Db, Trx } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest, conflict } from '../../platform/http/errors.js';
import type { EmCampaignCreateBody, EmCampaignUpdateBody } from './emCampaigns.schemas.js';
import {
  type EmCampaignContent,
  type EmCampaignRow,
  findCampaignByOrigin,
  findChangeableCampaign,
  insertCampaign,
  updateCampaign,
} from './emCampaigns.repo.js';

type CreateInput = Static<typeof EmCampaignCreateBody>;
type UpdateInput = Static<typeof EmCampaignUpdateBody>;

const sameContent = (row: EmCampaignRow, content: EmCampaignContent) =>
  row.name === content.name &&
  row.subject === content.subject &&
  row.body_html === content.body_html;

function duplicate(row: EmCampaignRow): Error {
  return conflict(
    `A campaign with origin '${row.origin}' and originId '${row.origin_id}' already exists (id ${row.id}) with a different ` +
      `name, subject or body; change it with PUT /v1/emCampaigns/${row.id}`,
  );
}

/**
 * Creates a campaign, once per origin + originId. Marketing tools retry a POST whose answer they
 * missed, and look campaigns up by originId before creating them (so two syncs may race): a
 * repeat of the same campaign answers 200 with the one stored; the same pair with different
 * content is a real conflict (409 naming the existing id), since silently keeping or silently
 * overwriting either text would lose one sender's intent.
 */
export async function createCampaign(
  db: Db,
  auth: AuthUser,
  body: CreateInput,
  at: string,
): Promise<{ row: EmCampaignRow; created: boolean }> {
  const origin = body.origin.trim();
  const originId = String(body.originId).trim();
  if (!origin || !originId)
    throw badRequest('origin and originId must not be blank', [
      { field: origin ? 'originId' : 'origin', message: 'blank' },
    ]);
  const content: EmCampaignContent = {
    name: body.name?.trim() ?? '',
    subject: body.subject ?? '',
    body_html: body.bodyHtml ?? '',
  };
  const existing = await findCampaignByOrigin(db, auth.accountId, origin, originId);
  if (existing) {
    if (!sameContent(existing, content)) throw duplicate(existing);
    return { row: existing, created: false };
  }
  try {
    const row = await db.transaction().execute((trx) =>
      insertCampaign(trx, auth.accountId, {
        origin,
        origin_id: originId,
        ...content,
        created_by_id: auth.userId,
        at,
      }),
    );
    return { row, created: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Another request created the pair between our lookup and insert.
    const winner = await findCampaignByOrigin(db, auth.accountId, origin, originId);
    if (!winner) throw err;
    if (!sameContent(winner, content)) throw duplicate(winner);
    return { row: winner, created: false };
  }
}

/** Applies the fields sent, in one transaction; origin and originId may come back unchanged but never change. */
export function changeCampaign(
  db: Db,
  auth: AuthUser,
  id: number,
  body: UpdateInput,
  at: string,
): Promise<EmCampaignRow> {
  return db.transaction().execute((trx) => applyCampaignChange(trx, auth, id, body, at));
}

async function applyCampaignChange(
  trx: Trx,
  auth: AuthUser,
  id: number,
  body: UpdateInput,
  at: string,
): Promise<EmCampaignRow> {
  const current = await findChangeableCampaign(trx, auth, id);
  if (body.origin !== undefined && body.origin.trim() !== current.origin) {
    throw badRequest(
      `origin cannot change (it is '${current.origin}'); create a new campaign instead`,
      [{ field: 'origin', message: 'cannot change' }],
    );
  }
  if (body.originId !== undefined && String(body.originId).trim() !== current.origin_id) {
    throw badRequest(
      `originId cannot change (it is '${current.origin_id}'); create a new campaign instead`,
      [{ field: 'originId', message: 'cannot change' }],
    );
  }
  const content: EmCampaignContent = {
    name: body.name?.trim() ?? current.name,
    subject: body.subject ?? current.subject,
    body_html: body.bodyHtml ?? current.body_html,
  };
  if (sameContent(current, content)) return current;
  return updateCampaign(trx, auth.accountId, id, content, at);
}
