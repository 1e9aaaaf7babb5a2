import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/**
 * Issue 30, two report reads made index ranges:
 * - the pipeline report reads every deal of the account that is not Deleted, by stage, with its
 *   price and the dates it groups by: covered here, it reads this index instead of every deal's
 *   whole row (a third of the time at 20,000 deals on SQLite);
 * - an Agent's uncontacted leads, oldest first: one range of their own leads nobody contacted,
 *   instead of the period's leads of every agent filtered down to theirs (partial: a lead leaves
 *   it at its first contact).
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await sql`create index report_deals_pipeline on deals (account_id, stage_id, status, price,
    entered_stage_at, projected_close_date)`.execute(db);
  await sql`create index report_leads_uncontacted on report_leads (account_id, user_id,
    created_at, person_id) where contact_seconds is null`.execute(db);
}
