import { sql } from 'kysely';
import type { AnyDb } from '../dialect.js';

/**
 * The bell's event stream counts a user's unread notifications every few seconds for each open
 * tab: a partial index holds only the unread ones, so the count reads a handful of entries however
 * many notifications the user has had.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create index notifications_unread on notifications (user_id, account_id)
    where read_at is null`.execute(db);
}
