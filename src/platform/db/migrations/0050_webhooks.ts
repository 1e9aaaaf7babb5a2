import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Webhook subscriptions, the event log (the exact payloads delivered, fetchable by eventId),
 * one delivery per (event, webhook) with its retry state, every attempt, and the encrypted
 * system keys deliveries are signed with.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);

  await db.schema
    .createTable('webhooks')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // When the 48-hour failure share first went above 50% (null: healthy).
    .addColumn('failing_since', 'text')
    // Lease of the worker currently sending this webhook's deliveries (one sender per webhook keeps them in order).
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .execute();
  await db.schema
    .createIndex('webhooks_account_system')
    .on('webhooks')
    .columns(['account_id', 'system', 'event'])
    .execute();
  await db.schema
    .createIndex('webhooks_account_event')
    .on('webhooks')
    .columns(['account_id', 'event', 'status'])
    .execute();

  await db.schema
    .createTable('webhook_signing_keys')
    .addColumn('system', 'text', (c) => c.primaryKey())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('key_cipher', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('event_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('event', 'text', (c) => c.notNull())
    // The exact JSON body bytes sent (and signed).
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_events_created')
    .on('webhook_events')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('webhook_id', 'integer', (c) =>
      c.notNull().references('webhooks.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'integer', (c) =>
      c.notNull().references('webhook_events.id').onDelete('cascade'),
    )
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('first_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'state', 'next_attempt_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_event')
    .on('webhook_deliveries')
    .column('event_id')
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('webhook_id', 'integer', (c) =>
      c.notNull().references('webhooks.id').onDelete('cascade'),
    )
    .addColumn('delivery_id', 'integer', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_webhook')
    .on('webhook_attempts')
    .columns(['webhook_id', 'attempted_at'])
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .column('delivery_id')
    .execute();
}
