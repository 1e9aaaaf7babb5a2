import type { TestServer } from './server.js';
import { isEventName } from '../../src/accounts/webhooks/event-names.js';

/** One webhook event as the outbox holds it (every test reads the outbox through this file). */
export interface OutboxEvent {
  event: string;
  resourceIds: number[];
  data: Record<string, unknown> | null;
}

interface OutboxPage {
  events: OutboxEvent[];
  lastId: number;
}

async function readOutbox(
  server: TestServer,
  accountId: number,
  afterId: number,
): Promise<OutboxPage> {
  const rows = await server.ctx.db
    .selectFrom('outbox')
    .select(['id', 'event', 'resource_ids', 'data'])
    .where('account_id', '=', accountId)
    .where('id', '>', afterId)
    .orderBy('id')
    .execute();
  // Internal rows (automation triggers) are not webhook events.
  const events = rows
    .filter((r) => isEventName(r.event))
    .map((r) => ({
      event: r.event,
      resourceIds: JSON.parse(r.resource_ids) as number[],
      data: r.data === null ? null : (JSON.parse(r.data) as Record<string, unknown>),
    }));
  return { events, lastId: rows.length ? rows[rows.length - 1].id : afterId };
}

/** Every webhook event of an account so far, oldest first. */
export async function outboxEvents(server: TestServer, accountId: number): Promise<OutboxEvent[]> {
  return (await readOutbox(server, accountId, 0)).events;
}

/** The events of one name, oldest first. */
export async function outboxEventsNamed(
  server: TestServer,
  accountId: number,
  event: string,
): Promise<OutboxEvent[]> {
  return (await outboxEvents(server, accountId)).filter((e) => e.event === event);
}

/**
 * Tracks the outbox rows of one account from now on: `take()` returns, in order, the rows written
 * since the tracker was made or since the previous `take()`.
 */
export async function outboxOf(server: TestServer, accountId: number) {
  const newest = await server.ctx.db
    .selectFrom('outbox')
    .select('id')
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  let last = newest?.id ?? 0;
  return {
    async take(): Promise<OutboxEvent[]> {
      const page = await readOutbox(server, accountId, last);
      last = page.lastId;
      return page.events;
    },
  };
}
