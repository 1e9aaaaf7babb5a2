import { sql } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import { contactBucket } from '../platform/db/migrations/0470_report_lead_days.js';
import type { ReportFilters } from './reports.filters.js';
import { leadsOf } from './reports.leads.js';
import { type Period, splitByDays } from './reports.period.js';
import './reports.tables.js';

type Medians = Map<number | null, number>;

/**
 * The median seconds from created to first contact over the contacted leads, per agent (the mean
 * of the two middle values for an even count). By agent, it reads the bucket counts of
 * report_contact_days to find which bucket holds each middle value, then only that bucket's leads
 * of the period (report_leads_contact_bucket); a lender's or one source's read them all.
 */
export async function speedToLead(db: DbOrTrx, f: ReportFilters, period: Period): Promise<Medians> {
  if (f.peopleColumn !== 'user_id' || f.source !== undefined) return scanMedian(db, f, period);
  const histograms = await bucketCounts(db, f, period);
  const wanted: { userId: number; bucket: number; index: number }[][] = [];
  for (const [userId, buckets] of histograms) {
    const n = [...buckets.values()].reduce((a, b) => a + b, 0);
    if (n === 0) continue;
    // the 1-based ranks of the middle values, as the scan's row_number picks them
    const ranks = [Math.floor((n + 1) / 2), Math.floor((n + 2) / 2)];
    wanted.push(ranks.map((rank) => locate(userId, buckets, rank)));
  }
  if (wanted.length === 0) return new Map();
  const values = await bucketValues(db, f, period, wanted.flat());
  const medians: Medians = new Map();
  for (const pair of wanted) {
    const [a, b] = pair.map((w) => values.get(`${w.userId}:${w.bucket}`)?.[w.index]);
    // a write between the two reads moved a lead: count again the slow, consistent way
    if (a === undefined || b === undefined) return scanMedian(db, f, period);
    medians.set(pair[0].userId, (a + b) / 2);
  }
  return medians;
}

/** Which bucket holds the `rank`-th smallest value, and its index among the bucket's values. */
function locate(userId: number, buckets: Map<number, number>, rank: number) {
  let below = 0;
  for (const bucket of [...buckets.keys()].sort((a, b) => a - b)) {
    const n = buckets.get(bucket)!;
    if (below + n >= rank) return { userId, bucket, index: rank - below - 1 };
    below += n;
  }
  throw new Error(`rank ${rank} beyond the counts of user ${userId}`);
}

const usersIn = (col: string, userIds: number[] | null) =>
  userIds === null
    ? sql``
    : userIds.length === 0
      ? sql`and false`
      : sql`and ${sql.ref(col)} in (${sql.join(userIds)})`;

/** Contacted leads per agent and bucket: whole days from the counters, edges from the leads. */
async function bucketCounts(db: DbOrTrx, f: ReportFilters, period: Period) {
  const { days, edges } = splitByDays(period);
  const bucket = sql.raw(contactBucket('rl.contact_seconds'));
  const parts = edges.map(
    (edge) => sql`select rl.user_id, ${bucket} as bucket, count(*) as n
      from report_leads rl
      where ${leadsOf(f, { since: edge.from, until: edge.to })}
        and rl.contact_seconds is not null and rl.user_id is not null
      group by rl.user_id, ${bucket}`,
  );
  if (days)
    parts.push(sql`select c.user_id, c.bucket, sum(c.n) as n from report_contact_days c
      where c.account_id = ${f.accountId} and c.day >= ${days.from} and c.day < ${days.to}
        ${usersIn('c.user_id', f.userIds)}
      group by c.user_id, c.bucket`);
  const { rows } = await sql<{
    user_id: number;
    bucket: number;
    n: number | string;
  }>`${sql.join(parts, sql` union all `)}`.execute(db);
  const histograms = new Map<number, Map<number, number>>();
  for (const r of rows) {
    const buckets = histograms.get(Number(r.user_id)) ?? new Map<number, number>();
    const bucket = Number(r.bucket);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + Number(r.n));
    histograms.set(Number(r.user_id), buckets);
  }
  for (const buckets of histograms.values())
    for (const [bucket, n] of buckets) if (n === 0) buckets.delete(bucket);
  return histograms;
}

/** The period's contact seconds of each (agent, bucket), sorted: one index range each. */
async function bucketValues(
  db: DbOrTrx,
  f: ReportFilters,
  period: Period,
  wanted: { userId: number; bucket: number }[],
) {
  const keys = [...new Map(wanted.map((w) => [`${w.userId}:${w.bucket}`, w])).values()];
  const bucket = sql.raw(contactBucket('rl.contact_seconds'));
  const parts = keys.map(
    (k) => sql`select rl.user_id, ${bucket} as bucket, rl.contact_seconds as seconds
      from report_leads rl
      where rl.account_id = ${f.accountId} and rl.user_id = ${k.userId}
        and ${bucket} = ${k.bucket}
        and rl.created_at >= ${period.since} and rl.created_at < ${period.until}`,
  );
  const { rows } = await sql<{
    user_id: number;
    bucket: number;
    seconds: number | string;
  }>`${sql.join(parts, sql` union all `)}`.execute(db);
  const values = new Map<string, number[]>();
  for (const r of rows) {
    const key = `${r.user_id}:${r.bucket}`;
    const list = values.get(key) ?? [];
    list.push(Number(r.seconds));
    values.set(key, list);
  }
  for (const list of values.values()) list.sort((a, b) => a - b);
  return values;
}

/** The median over every contacted lead of the period (a lender's people, one source's). */
async function scanMedian(db: DbOrTrx, f: ReportFilters, period: Period): Promise<Medians> {
  const user = sql.ref(`rl.${f.peopleColumn}`);
  const { rows } = await sql<{ user_id: number | null; median: number | string }>`
    select user_id, avg(seconds) as median from (
      select user_id, seconds,
        row_number() over (partition by user_id order by seconds) as rn,
        count(*) over (partition by user_id) as n
      from (select ${user} as user_id, rl.contact_seconds as seconds
        from report_leads rl where ${leadsOf(f, period)} and rl.contact_seconds is not null) c
    ) ranked
    where rn in ((n + 1) / 2, (n + 2) / 2)
    group by user_id`.execute(db);
  return new Map(rows.map((r) => [r.user_id, Number(r.median)]));
}
