import { sql } from 'kysely';
import type { AnyDb } from '../dialect.js';

/**
 * Indexes for every documented sort and filter of GET /v1/people (issue 19), the same on SQLite
 * and PostgreSQL. Each is (account_id, key, id, stage_id):
 * - `id` after the key is the tie-break of the sort and of the `next` cursor, so a page (or a
 *   filter by equality, listed newest first) is a range of the index read in order, never a sort
 *   of every match;
 * - `stage_id` last answers the Trash check (hidden by default) from the index itself, so a
 *   bounded count never reads the table.
 * lastActivity and price may be NULL: lists sort them as coalesce(…) (people.list.ts), and the
 * indexes are on the same expressions, so NULLs sort first ascending on both databases.
 * The indexes of 0001 on (account_id, assigned_user_id | assigned_lender_id | stage_id | source)
 * are prefixes of these and are dropped.
 */
const KEYS: Record<string, string> = {
  people_account_created: 'created_at',
  people_account_updated: 'updated_at',
  people_account_last_activity: "(coalesce(last_activity, ''))",
  people_account_name: 'name',
  people_account_first_name: 'first_name',
  people_account_last_name: 'last_name',
  people_account_price: '(coalesce(price, -1))',
  people_account_assigned: 'assigned_user_id',
  people_account_lender: 'assigned_lender_id',
  people_account_source: 'source',
};

export async function up(db: AnyDb): Promise<void> {
  for (const replaced of [
    'people_account_assigned',
    'people_account_lender',
    'people_account_stage',
    'people_account_source',
  ]) {
    await sql`drop index if exists ${sql.ref(replaced)}`.execute(db);
  }
  for (const [name, key] of Object.entries(KEYS)) {
    await sql`create index ${sql.ref(name)} on people (account_id, ${sql.raw(key)}, id, stage_id)`.execute(
      db,
    );
  }
  await sql`create index people_account_stage on people (account_id, stage_id, id)`.execute(db);
}
