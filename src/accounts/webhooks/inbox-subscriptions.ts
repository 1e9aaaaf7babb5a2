import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/database.js';
import { isoSeconds } from '../../platform/time.js';
import '../../inbox/inboxApps.tables.js';
import './webhooks.tables.js';

/**
 * An inbox app whose subscription URL refused its deliveries for good (it answered 406 or 410, or
 * kept failing for a week) is Deactivated, as the real API does: it takes no more messages and
 * is sent nothing more until installed again. A no-op for an ordinary webhook. Runs before the
 * webhooks row goes, since that row is what links the delivery to the installation.
 */
export async function deactivateInboxAppOf(
  db: Kysely<DB>,
  webhookId: number,
  nowMs: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('webhooks')
    .select('inbox_app_id')
    .where('id', '=', webhookId)
    .executeTakeFirst();
  const appId = row?.inbox_app_id ?? null;
  if (appId === null) return null;
  await db
    .updateTable('inbox_apps')
    .set({ status: 'Deactivated', updated_at: isoSeconds(nowMs) })
    .where('id', '=', appId)
    .execute();
  return appId;
}
