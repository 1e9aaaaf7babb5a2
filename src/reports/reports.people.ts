import { sql } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import type { ReportFilters } from './reports.filters.js';
import type { Period } from './reports.period.js';
import './reports.tables.js';

export interface LeadsQuery {
  contacted?: boolean;
  limit: number;
}

/**
 * The people behind a lead figure (the drill-down): the period's new leads of the filters' users
 * and source, contacted or not, oldest first, with how long they waited (until first contact, or
 * until now for those nobody contacted yet).
 */
export async function reportPeople(
  db: DbOrTrx,
  f: ReportFilters,
  period: Period,
  q: LeadsQuery,
  nowMs: number,
) {
  let query = db
    .selectFrom('report_leads as rl')
    .innerJoin('people', 'people.id', 'rl.person_id')
    .select([
      'rl.person_id',
      'people.name',
      'rl.source',
      'rl.user_id',
      'rl.created_at',
      'rl.first_contact_at',
    ])
    .where('rl.account_id', '=', f.accountId)
    .where('rl.created_at', '>=', period.since)
    .where('rl.created_at', '<', period.until);
  if (f.userIds !== null)
    query =
      f.userIds.length === 0
        ? query.where(sql<boolean>`false`)
        : query.where(`rl.${f.peopleColumn}`, 'in', f.userIds);
  if (f.source !== undefined) query = query.where('rl.source', '=', f.source);
  if (q.contacted === false) query = query.where('rl.contact_seconds', 'is', null);
  if (q.contacted === true) query = query.where('rl.contact_seconds', 'is not', null);
  const rows = await query
    .orderBy('rl.created_at')
    .orderBy('rl.person_id')
    .limit(q.limit)
    .execute();
  return rows.map((r) => {
    const created = Date.parse(r.created_at);
    const end = r.first_contact_at ? Date.parse(r.first_contact_at) : nowMs;
    return {
      personId: r.person_id,
      name: r.name,
      source: r.source,
      userId: r.user_id,
      created: r.created_at,
      firstContact: r.first_contact_at,
      waitedSeconds: Math.max(0, Math.round((end - created) / 1000)),
    };
  });
}
