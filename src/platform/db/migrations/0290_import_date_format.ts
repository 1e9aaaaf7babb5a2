import { sql } from 'kysely';
import type { AnyDb } from '../dialect.js';

/**
 * An import's `dateFormat` (src/contacts/imports/dates.ts): the order of day and month in its file's
 * numeric dates such as 3/7/2025. Imports queued before this migration read them as US
 * spreadsheets write them (MDY), the default.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table imports add column date_format text not null default 'MDY'`.execute(db);
}
