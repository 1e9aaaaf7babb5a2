import { sql } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import type { ReportFilters } from './reports.filters.js';
import { type Period, splitByDays } from './reports.period.js';
import './reports.tables.js';

type Range = Pick<Period, 'since' | 'until'>;

const usersIn = (col: ReturnType<typeof sql.ref>, userIds: number[] | null) =>
  userIds === null
    ? sql``
    : userIds.length === 0
      ? sql`and false`
      : sql`and ${col} in (${sql.join(userIds)})`;

/** The people a lead report counts: created in the range, of the filters' users and source. */
export function leadsOf(f: ReportFilters, period: Range, alias = 'rl') {
  const source =
    f.source === undefined ? sql`` : sql`and ${sql.ref(`${alias}.source`)} = ${f.source}`;
  return sql`${sql.ref(`${alias}.account_id`)} = ${f.accountId}
    and ${sql.ref(`${alias}.created_at`)} >= ${period.since}
    and ${sql.ref(`${alias}.created_at`)} < ${period.until}
    ${usersIn(sql.ref(`${alias}.${f.peopleColumn}`), f.userIds)} ${source}`;
}

export interface LeadCounts {
  leads: number;
  contacted: number;
}

type Key = string | number | null;

/**
 * New leads, the contacted and the invited ones, per key (the agent, or the source): whole UTC
 * days from report_lead_days, the parts of days at the period's edges from report_leads' range.
 */
export async function leadCounts(
  db: DbOrTrx,
  f: ReportFilters,
  period: Period,
  by: 'user' | 'source',
): Promise<Map<Key, LeadCounts & { invited: number }>> {
  const { days, edges } = splitByDays(period);
  const parts = edges.map((edge) => {
    const key = by === 'user' ? sql.ref(`rl.${f.peopleColumn}`) : sql.ref('rl.source');
    return sql`select ${key} as key, count(*) as leads, count(rl.contact_seconds) as contacted,
        sum(case when rl.invitations > 0 then 1 else 0 end) as invited
      from report_leads rl where ${leadsOf(f, { since: edge.from, until: edge.to })}
      group by ${key}`;
  });
  if (days) {
    const key = by === 'user' ? sql.ref(`d.${f.peopleColumn}`) : sql.ref('d.source');
    const source = f.source === undefined ? sql`` : sql`and d.source = ${f.source}`;
    parts.push(sql`select ${key} as key, sum(d.leads) as leads, sum(d.contacted) as contacted,
        sum(d.invited) as invited
      from report_lead_days d
      where d.account_id = ${f.accountId} and d.day >= ${days.from} and d.day < ${days.to}
        ${usersIn(sql.ref(`d.${f.peopleColumn}`), f.userIds)} ${source}
      group by ${key}`);
  }
  const { rows } = await sql<{
    key: Key;
    leads: number | string;
    contacted: number | string;
    invited: number | string | null;
  }>`${sql.join(parts, sql` union all `)}`.execute(db);
  const counts = new Map<Key, LeadCounts & { invited: number }>();
  for (const r of rows) {
    // report_lead_days keeps "no agent" as 0
    const key = by === 'user' && Number(r.key) === 0 ? null : r.key;
    const c = counts.get(key) ?? { leads: 0, contacted: 0, invited: 0 };
    c.leads += Number(r.leads);
    c.contacted += Number(r.contacted);
    c.invited += Number(r.invited ?? 0);
    counts.set(key, c);
  }
  // counter rows of leads since moved away stay at zero
  for (const [key, c] of counts) if (c.leads === 0) counts.delete(key);
  return counts;
}

/**
 * Deals (not Deleted) holding at least one of the period's leads, and their price, per source.
 * First the leads some deal holds (report_leads_deals, a partial index), materialized: joined
 * directly, PostgreSQL walked every lead by person id (2 s at a million people).
 */
export async function dealsBySource(
  db: DbOrTrx,
  f: ReportFilters,
  period: Period,
): Promise<Map<string, { deals: number; dealValue: number }>> {
  const { rows } = await sql<{ source: string; deals: number | string; value: number | null }>`
    with leads as materialized (
      select rl.person_id, rl.source, rl.account_id from report_leads rl
      where ${leadsOf(f, period)} and rl.deal_links > 0
    )
    select source, count(*) as deals, sum(coalesce(price, 0)) as value from (
      select distinct l.source, d.id, d.price
      from leads l
      join deal_people dp on dp.person_id = l.person_id
      join deals d on d.id = dp.deal_id and d.account_id = l.account_id
      where d.status <> 'Deleted'
    ) held group by source`.execute(db);
  return new Map(
    rows.map((r) => [r.source, { deals: Number(r.deals), dealValue: Number(r.value ?? 0) }]),
  );
}
