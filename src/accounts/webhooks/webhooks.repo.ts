import { sql } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import type { WebhookStatus } from './webhooks.tables.js';
import './webhooks.tables.js';
import { INBOX_APP_EVENTS } from './event-names.js';

/** At most two webhooks per event per system (part 6 rule 7), counted per account. */
export const MAX_WEBHOOKS_PER_EVENT = 2;

const COLUMNS = ['id', 'event', 'url', 'status', 'created_at', 'updated_at', 'system'] as const;

export function webhooksOfSystem(db: DbOrTrx, accountId: number, system: string) {
  return db
    .selectFrom('webhooks')
    .select([...COLUMNS])
    .where('account_id', '=', accountId)
    .where('system', '=', system)
    .where('inbox_app_id', 'is', null);
}

/** The system's webhooks list with its filters (event, status). */
export function webhooksList(
  db: DbOrTrx,
  accountId: number,
  system: string,
  filters: { event?: string; status?: WebhookStatus },
) {
  let query = webhooksOfSystem(db, accountId, system);
  if (filters.event !== undefined) query = query.where('event', '=', filters.event);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  return query;
}

/** The system's webhook sending `event` to `url`, other than `exceptId`, if there is one. */
export function sameWebhook(
  db: DbOrTrx,
  accountId: number,
  system: string,
  target: { event: string; url: string },
  exceptId?: number,
) {
  return webhooksOfSystem(db, accountId, system)
    .where('event', '=', target.event)
    .where('url', '=', target.url)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
}

/** The system's Active webhooks for one event. */
export function activeWebhooksFor(db: DbOrTrx, accountId: number, system: string, event: string) {
  return webhooksOfSystem(db, accountId, system)
    .where('event', '=', event)
    .where('status', '=', 'Active')
    .execute();
}

/** Serialises the per-event limit check on PostgreSQL (SQLite runs one write transaction at a time). */
export async function lockAccount(trx: Trx, dialect: DialectName, accountId: number) {
  if (dialect === 'postgres')
    await sql`select id from accounts where id = ${accountId} for update`.execute(trx);
}

export function findWebhook(db: DbOrTrx, accountId: number, system: string, id: number) {
  return webhooksOfSystem(db, accountId, system).where('id', '=', id).executeTakeFirst();
}

export async function countForEvent(
  db: DbOrTrx,
  accountId: number,
  system: string,
  event: string,
  exceptId?: number,
): Promise<number> {
  let query = db
    .selectFrom('webhooks')
    .select(sql<number>`count(*)`.as('n'))
    .where('account_id', '=', accountId)
    .where('system', '=', system)
    .where('inbox_app_id', 'is', null)
    .where('event', '=', event);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

export async function insertWebhook(
  db: DbOrTrx,
  accountId: number,
  input: { system: string; event: string; url: string; at: string },
) {
  return db
    .insertInto('webhooks')
    .values({
      account_id: accountId,
      system: input.system,
      event: input.event,
      url: input.url,
      status: 'Active',
      created_at: input.at,
      updated_at: input.at,
      failing_since: null,
      locked_by: null,
      locked_until: null,
    })
    .returning([...COLUMNS])
    .executeTakeFirstOrThrow();
}

export async function updateWebhook(
  db: DbOrTrx,
  accountId: number,
  id: number,
  changes: { event: string; url: string; status: WebhookStatus; at: string; reactivated: boolean },
) {
  return db
    .updateTable('webhooks')
    .set({
      event: changes.event,
      url: changes.url,
      status: changes.status,
      updated_at: changes.at,
      // Reactivation gives the webhook a fresh start against the disabling rule.
      ...(changes.reactivated ? { failing_since: null } : {}),
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning([...COLUMNS])
    .executeTakeFirstOrThrow();
}

export async function deleteWebhook(db: DbOrTrx, accountId: number, id: number): Promise<void> {
  await db
    .deleteFrom('webhooks')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Stops pending deliveries of a webhook that was disabled by hand or pointed elsewhere. */
export async function abandonPending(db: DbOrTrx, webhookId: number, at: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ state: 'abandoned', finished_at: at })
    .where('webhook_id', '=', webhookId)
    .where('state', '=', 'pending')
    .execute();
}

export function findEvent(db: DbOrTrx, accountId: number, uuid: string) {
  return db
    .selectFrom('webhook_events')
    .select(['id', 'event', 'payload'])
    .where('account_id', '=', accountId)
    .where('event_uuid', '=', uuid.toLowerCase())
    .where('event', 'not in', [...INBOX_APP_EVENTS])
    .executeTakeFirst();
}

/** New pending deliveries of one event to several webhooks, due now. */
export async function queueDeliveries(
  db: DbOrTrx,
  accountId: number,
  eventId: number,
  webhookIds: number[],
  at: string,
  dueAt: string,
): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values(
      webhookIds.map((webhookId) => ({
        account_id: accountId,
        webhook_id: webhookId,
        event_id: eventId,
        state: 'pending' as const,
        next_attempt_at: dueAt,
        created_at: at,
      })),
    )
    .execute();
}

export function attemptsQuery(db: DbOrTrx, accountId: number, webhookId: number) {
  return db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'a.id',
      'e.event_uuid',
      'e.event',
      'a.attempt',
      'a.attempted_at',
      'a.success',
      'a.status_code',
      'a.latency_ms',
      'a.error',
      'a.response',
    ])
    .where('a.account_id', '=', accountId)
    .where('a.webhook_id', '=', webhookId);
}
