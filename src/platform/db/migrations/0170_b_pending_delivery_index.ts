import type { AnyDb } from '../dialect.js';

/** Due deliveries: the queue depth and oldest-age metrics read them on every scrape. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_state_due')
    .on('webhook_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
}
