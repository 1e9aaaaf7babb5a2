import type { TestServer } from './helpers.js';

export interface OutboxEvent {
  event: string;
  resourceIds: number[];
  data: Record<string, unknown> | null;
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
      const rows = await server.ctx.db
        .selectFrom('outbox')
        .select(['id', 'event', 'resource_ids', 'data'])
        .where('account_id', '=', accountId)
        .where('id', '>', last)
        .orderBy('id')
        .execute();
      if (rows.length) last = rows[rows.length - 1].id;
      return rows.map((r) => ({
        event: r.event,
        resourceIds: JSON.parse(r.resource_ids),
        data: r.data === null ? null : JSON.parse(r.data),
      }));
    },
  };
}
