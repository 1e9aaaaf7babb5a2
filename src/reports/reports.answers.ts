import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../platform/context.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { type ReportFilters, reportFilters } from './reports.filters.js';
import { type Period, periodOf } from './reports.period.js';
import { reportPeople } from './reports.people.js';
import { pipelineReport } from './reports.pipeline.js';
import type {
  AgentActivityQuery,
  LeadSourcesQuery,
  PipelineQuery,
  ReportPeopleQuery,
} from './reports.schemas.js';
import { agentActivity, leadSources } from './reports.service.js';

/**
 * What the report routes answer in JSON (and the run_report tool), with the period they cover
 * (a CSV names it). Each narrows an Agent's or a Lender's report to their own row and people.
 */
/** A report over the query's period and filters (narrowed to the caller's scope). */
async function filteredReport<Q extends Static<typeof AgentActivityQuery>, R>(
  ctx: AppContext,
  auth: AuthUser,
  q: Q,
  compute: (db: AppContext['db'], filters: ReportFilters, period: Period) => Promise<R>,
) {
  const period = periodOf(q, ctx.clock.now());
  const filters = await reportFilters(ctx.db, auth, q);
  return { period, report: await compute(ctx.db, filters, period) };
}

export const agentActivityAnswer = (
  ctx: AppContext,
  auth: AuthUser,
  q: Static<typeof AgentActivityQuery>,
) => filteredReport(ctx, auth, q, agentActivity);

export const leadSourcesAnswer = (
  ctx: AppContext,
  auth: AuthUser,
  q: Static<typeof LeadSourcesQuery>,
) => filteredReport(ctx, auth, q, leadSources);

/** The new leads behind a figure; `uncontacted` only those nobody has contacted yet. */
export async function reportPeopleAnswer(
  ctx: AppContext,
  auth: AuthUser,
  q: Static<typeof ReportPeopleQuery>,
  uncontacted: boolean,
) {
  const now = ctx.clock.now();
  const period: Period = periodOf(q, now);
  const filters = await reportFilters(ctx.db, auth, q);
  const people = await reportPeople(
    ctx.db,
    filters,
    period,
    { contacted: uncontacted ? false : q.contacted, limit: q.limit ?? 100 },
    now,
  );
  return { period, report: { since: period.since, until: period.until, people } };
}

export async function pipelineAnswer(
  ctx: AppContext,
  auth: AuthUser,
  q: Static<typeof PipelineQuery>,
) {
  const period = periodOf(q, ctx.clock.now());
  return { period, report: await pipelineReport(ctx.db, auth, period, q.pipelineId) };
}
