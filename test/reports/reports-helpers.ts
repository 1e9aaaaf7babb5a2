import { sql } from 'kysely';
import type { TestServer } from '../support/server.js';

type Row = Record<string, unknown>;

/** Numbers as numbers whichever database answered (PostgreSQL's sums are strings). */
const norm = (rows: Row[]) =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [
        k,
        typeof v === 'bigint' || (/^\d+$/.test(String(v)) && k !== 'source') ? Number(v) : v,
      ]),
    ),
  );

/** Every report counter of an account (zero counters left out: a rebuild has none). */
export async function reportCounters(server: TestServer, accountId: number) {
  const db = server.ctx.db;
  const days = await sql<Row>`select day, user_id, kind, n from report_activity_days
    where account_id = ${accountId} and n <> 0 order by day, user_id, kind`.execute(db);
  const leads = await sql<Row>`select person_id, created_at, user_id, lender_id,
      source, first_contact_at, contact_seconds, invitations, deal_links from report_leads
    where account_id = ${accountId} order by person_id`.execute(db);
  const leadDays = await sql<Row>`select day, user_id, lender_id, source, leads, contacted,
      invited from report_lead_days
    where account_id = ${accountId} and (leads <> 0 or contacted <> 0 or invited <> 0)
    order by day, user_id, lender_id, source`.execute(db);
  const contactDays = await sql<Row>`select day, user_id, bucket, n from report_contact_days
    where account_id = ${accountId} and n <> 0 order by day, user_id, bucket`.execute(db);
  return {
    days: norm(days.rows),
    leads: norm(leads.rows),
    leadDays: norm(leadDays.rows),
    contactDays: norm(contactDays.rows),
  };
}
