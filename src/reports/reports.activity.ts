import { sql } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import {
  ACTIVITY_SOURCES,
  type ActivityKind,
} from '../platform/db/migrations/0410_report_counters.js';
import type { ReportFilters } from './reports.filters.js';
import { type Period, splitByDays } from './reports.period.js';
import './reports.tables.js';

export type ActivityCounts = Map<number, Record<ActivityKind, number>>;

const emptyCounts = (): Record<ActivityKind, number> =>
  Object.fromEntries(ACTIVITY_SOURCES.map((s) => [s.kind, 0])) as Record<ActivityKind, number>;

function add(counts: ActivityCounts, userId: number, kind: ActivityKind, n: number | string) {
  const row = counts.get(userId) ?? emptyCounts();
  row[kind] += Number(n);
  counts.set(userId, row);
}

const usersIn = (column: string, userIds: number[] | null) =>
  userIds === null
    ? sql``
    : userIds.length === 0
      ? sql`and false`
      : sql`and ${sql.ref(column)} in (${sql.join(userIds)})`;

/** Whole days from the daily counters. */
async function fromCounters(db: DbOrTrx, f: ReportFilters, from: string, to: string) {
  return sql<{ user_id: number; kind: ActivityKind; n: number | string }>`
    select user_id, kind, sum(n) as n from report_activity_days
    where account_id = ${f.accountId} and day >= ${from} and day < ${to}
      ${usersIn('user_id', f.userIds)}
    group by user_id, kind`
    .execute(db)
    .then((r) => r.rows);
}

/**
 * The parts of days at the period's edges, every kind at once (one statement): each kind's records
 * from its (account_id, time, user) index, less than a day of them per edge.
 */
async function fromRecords(db: DbOrTrx, f: ReportFilters, edges: { from: string; to: string }[]) {
  const parts = ACTIVITY_SOURCES.flatMap((s) =>
    edges.map((edge) => {
      const at = sql.ref(`r.${s.at}`);
      const user = sql.ref(`r.${s.user}`);
      return sql`select ${user} as user_id, ${sql.lit(s.kind)} as kind, count(*) as n
        from ${sql.table(s.table)} r
        where r.account_id = ${f.accountId} and ${at} >= ${edge.from} and ${at} < ${edge.to}
          and ${user} is not null and ${sql.raw(s.when.replaceAll('X.', 'r.'))}
          ${usersIn(`r.${s.user}`, f.userIds)}
        group by ${user}`;
    }),
  );
  if (parts.length === 0) return [];
  return sql<{ user_id: number; kind: ActivityKind; n: number | string }>`${sql.join(
    parts,
    sql` union all `,
  )}`
    .execute(db)
    .then((r) => r.rows);
}

/** Calls, text messages, emails, notes, appointments and completed tasks per user in the period. */
export async function activityCounts(
  db: DbOrTrx,
  f: ReportFilters,
  period: Period,
): Promise<ActivityCounts> {
  const counts: ActivityCounts = new Map();
  const { days, edges } = splitByDays(period);
  const [whole, parts] = await Promise.all([
    days ? fromCounters(db, f, days.from, days.to) : [],
    fromRecords(db, f, edges),
  ]);
  for (const row of [...whole, ...parts]) add(counts, row.user_id, row.kind, row.n);
  return counts;
}
