import type { Static } from '@sinclair/typebox';
import type { DbOrTrx } from '../platform/db/database.js';
import { activityCounts } from './reports.activity.js';
import type { ReportFilters } from './reports.filters.js';
import { dealsBySource, leadCounts } from './reports.leads.js';
import { speedToLead } from './reports.median.js';
import type { Period } from './reports.period.js';
import type { AgentActivityReport, LeadSourcesReport } from './reports.schemas.js';

/** The account's active users the report has rows for. */
async function reportUsers(db: DbOrTrx, f: ReportFilters) {
  let query = db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('account_id', '=', f.accountId)
    .where('deleted_at', 'is', null);
  if (f.userIds !== null) {
    if (f.userIds.length === 0) return [];
    query = query.where('id', 'in', f.userIds);
  }
  return query.orderBy('name').orderBy('id').execute();
}

export async function agentActivity(
  db: DbOrTrx,
  f: ReportFilters,
  period: Period,
): Promise<Static<typeof AgentActivityReport>> {
  const [users, leads, speed, activity] = await Promise.all([
    reportUsers(db, f),
    leadCounts(db, f, period, 'user'),
    speedToLead(db, f, period),
    activityCounts(db, f, period),
  ]);
  return {
    since: period.since,
    until: period.until,
    agents: users.map((u) => {
      const a = activity.get(u.id);
      return {
        userId: u.id,
        name: u.name,
        newLeads: leads.get(u.id)?.leads ?? 0,
        contacted: leads.get(u.id)?.contacted ?? 0,
        speedToLeadSeconds: speed.get(u.id) ?? null,
        calls: a?.call ?? 0,
        textMessages: a?.textMessage ?? 0,
        emails: a?.email ?? 0,
        notes: a?.note ?? 0,
        appointments: a?.appointment ?? 0,
        tasksCompleted: a?.taskCompleted ?? 0,
      };
    }),
  };
}

export async function leadSources(
  db: DbOrTrx,
  f: ReportFilters,
  period: Period,
): Promise<Static<typeof LeadSourcesReport>> {
  const [leads, deals] = await Promise.all([
    leadCounts(db, f, period, 'source'),
    dealsBySource(db, f, period),
  ]);
  const sources = [...leads.entries()].map(([source, counts]) => ({
    source: String(source),
    leads: counts.leads,
    contacted: counts.contacted,
    appointments: counts.invited,
    deals: deals.get(String(source))?.deals ?? 0,
    dealValue: deals.get(String(source))?.dealValue ?? 0,
  }));
  sources.sort((a, b) => b.leads - a.leads || a.source.localeCompare(b.source));
  return { since: period.since, until: period.until, sources };
}
