import { sql } from 'kysely';
import type { AnyDb } from '../dialect.js';

/**
 * Leads by email: a received message's raw bytes are purged after HEARTH_INBOUND_RETENTION_DAYS
 * (the row, its status and its lead stay). `raw_purged_at` says when; the partial index holds only
 * the messages whose bytes are still kept, so the hourly purge never walks the purged ones.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('inbound_emails').addColumn('raw_purged_at', 'text').execute();
  await sql`create index inbound_emails_raw_kept on inbound_emails (received_at) where raw_purged_at is null`.execute(
    db,
  );
}
