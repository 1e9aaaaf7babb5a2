import { sql } from 'kysely';
import type { AnyDb } from '../dialect.js';

/**
 * Indexes for the other lists a team works in daily (issue 19, step 5), so that a filtered page
 * listed newest first (the default `-id`) is a range of one index read in order, at a million
 * rows as at a hundred, never a sort of every match:
 * - deals by pipeline stage or pipeline: 0040's (account_id, stage_id | pipeline_id) end before
 *   the id, so PostgreSQL sorted the whole stage (SQLite's indexes end in the rowid already);
 * - emEvents by campaign: 0040's (account_id, campaign_id, type, person_id) serves the campaign
 *   statistics, but a page of a campaign's events sorted all of them on both databases;
 * - tasks `due=` (today, upcoming, overdue) over the whole account: only an index led by the
 *   assignee existed, so the filter read every task of the account.
 * Events of a person (lead_events_person), notes of a person (notes_person) and tasks of a
 * person (tasks_person) are (account_id, person_id, id) since 0010/0020.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`drop index if exists deals_account_stage`.execute(db);
  await sql`drop index if exists deals_account_pipeline`.execute(db);
  await sql`create index deals_account_stage on deals (account_id, stage_id, id)`.execute(db);
  await sql`create index deals_account_pipeline on deals (account_id, pipeline_id, id)`.execute(db);
  await sql`create index em_events_campaign_id on em_events (account_id, campaign_id, id)`.execute(
    db,
  );
  await sql`create index tasks_account_due on tasks (account_id, due_date, id)`.execute(db);
}
