import { type Static, Type } from '@sinclair/typebox';
import {
  AgentActivityQuery,
  AgentActivityReport,
  LeadSourcesQuery,
  LeadSourcesReport,
  PipelineQuery,
  PipelineReport,
  ReportPeople,
  ReportPeopleQuery,
} from '../../reports/reports.schemas.js';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import {
  agentActivityAnswer,
  leadSourcesAnswer,
  pipelineAnswer,
  reportPeopleAnswer,
} from '../../reports/reports.answers.js';
import { defineTool, objectOf, reading } from './tool.js';

type Answer = (ctx: AppContext, auth: AuthUser, q: never) => Promise<{ report: object }>;

/**
 * Each report: its REST route, the arguments that route takes (format is JSON here) and what the
 * route answers.
 */
const REPORTS = {
  agentActivity: {
    url: '/v1/reports/agentActivity',
    query: AgentActivityQuery,
    answer: agentActivityAnswer as Answer,
  },
  leadSources: {
    url: '/v1/reports/leadSources',
    query: LeadSourcesQuery,
    answer: leadSourcesAnswer as Answer,
  },
  people: {
    url: '/v1/reports/people',
    query: ReportPeopleQuery,
    answer: ((ctx, auth, q) => reportPeopleAnswer(ctx, auth, q, false)) as Answer,
  },
  uncontacted: {
    url: '/v1/reports/uncontacted',
    query: ReportPeopleQuery,
    answer: ((ctx, auth, q) => reportPeopleAnswer(ctx, auth, q, true)) as Answer,
  },
  pipeline: { url: '/v1/reports/pipeline', query: PipelineQuery, answer: pipelineAnswer as Answer },
} as const;
type ReportName = keyof typeof REPORTS;

/** Rows a text summary names; the structured answer has them all. */
const SHOWN = 10;
const { properties: people } = ReportPeopleQuery;

const RunReportInput = objectOf({
  report: Type.Union(
    (Object.keys(REPORTS) as ReportName[]).map((name) => Type.Literal(name)),
    {
      description:
        'agentActivity: per agent, new leads, contacted, speed to lead, calls, emails, tasks done; ' +
        'leadSources: per source, leads, contacted, appointments, deals and value; ' +
        'people: the new leads behind a figure (by userId, source, contacted); ' +
        'uncontacted: new leads nobody has contacted yet, longest waiting first; ' +
        'pipeline: deals by pipeline and stage, closed and expected per month',
    },
  ),
  since: people.since,
  until: people.until,
  userId: people.userId,
  teamId: people.teamId,
  source: Type.Optional({ ...people.source, description: 'leadSources, people, uncontacted' }),
  contacted: Type.Optional({ ...people.contacted, description: 'people only' }),
  pipelineId: Type.Optional({
    ...PipelineQuery.properties.pipelineId,
    description: 'pipeline only',
  }),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 50,
      description: 'people, uncontacted: how many (default 10)',
    }),
  ),
});
type RunReportArgs = Static<typeof RunReportInput>;

const duration = (seconds: number) =>
  seconds < 3600
    ? `${Math.round(seconds / 60)} min`
    : seconds < 172_800
      ? `${Math.round(seconds / 3600)} h`
      : `${Math.round(seconds / 86_400)} days`;

type Body<T extends { static: unknown }> = T['static'];
type AnyReport = Partial<
  Body<typeof AgentActivityReport> &
    Body<typeof LeadSourcesReport> &
    Body<typeof ReportPeople> &
    Body<typeof PipelineReport>
>;

/** The report's rows as short lines for the model; the first few, and how many more. */
function rowsOf(report: ReportName, body: AnyReport): string[] {
  switch (report) {
    case 'agentActivity':
      return body.agents!.map(
        (a) =>
          `${a.name}: ${a.newLeads} new leads, ${a.contacted} contacted` +
          (a.speedToLeadSeconds === null ? '' : ` (median ${duration(a.speedToLeadSeconds)})`) +
          `, ${a.calls} calls, ${a.emails} emails, ${a.tasksCompleted} tasks done`,
      );
    case 'leadSources':
      return body.sources!.map(
        (s) =>
          `${s.source}: ${s.leads} leads, ${s.contacted} contacted, ${s.appointments} appointments, ` +
          `${s.deals} deals worth ${s.dealValue}`,
      );
    case 'people':
    case 'uncontacted':
      return body.people!.map(
        (p) =>
          `${p.name || '(no name)'} (person ${p.personId}, ${p.source}, ` +
          `${p.firstContact ? 'contacted after' : 'waiting'} ${duration(p.waitedSeconds)})`,
      );
    case 'pipeline':
      return body.stages!.map(
        (s) => `${s.pipelineName} / ${s.stageName}: ${s.deals} deals worth ${s.value}`,
      );
  }
}

function summary(report: ReportName, body: AnyReport): string {
  const rows = rowsOf(report, body);
  const shown = rows.slice(0, SHOWN).join('; ');
  const more = rows.length > SHOWN ? `; and ${rows.length - SHOWN} more` : '';
  return `${report} from ${body.since} until ${body.until}: ${rows.length ? shown : 'nothing'}${more}`;
}

/** An argument the chosen report does not take, said so the assistant can drop it. */
function unusedArgument(report: ReportName, args: RunReportArgs): string | null {
  const takes = Object.keys(REPORTS[report].query.properties).filter((k) => k !== 'format');
  const extra = Object.keys(args).find((k) => k !== 'report' && !takes.includes(k));
  if (extra === undefined) return null;
  return `run_report ${report} does not take '${extra}'; it takes ${takes.join(', ')}`;
}

export const runReport = defineTool({
  name: 'run_report',
  title: 'Run a report',
  description:
    'Team figures for a period (default the last 30 days): agent activity, lead sources, the leads behind a figure, uncontacted leads, or the deal pipeline. Agents see their own figures only.',
  input: RunReportInput,
  output: objectOf({
    report: RunReportInput.properties.report,
    since: Type.String(),
    until: Type.String(),
    agents: Type.Optional(AgentActivityReport.properties.agents),
    sources: Type.Optional(LeadSourcesReport.properties.sources),
    people: Type.Optional(ReportPeople.properties.people),
    stages: Type.Optional(PipelineReport.properties.stages),
    closedByMonth: Type.Optional(PipelineReport.properties.closedByMonth),
    expectedByMonth: Type.Optional(PipelineReport.properties.expectedByMonth),
  }),
  annotations: reading,
  route: (args) => ({ method: 'GET', url: REPORTS[args.report].url }),
  refuse: (args) => unusedArgument(args.report, args),
  async run({ ctx, auth }, args) {
    const { report, ...query } = args;
    const paged = report === 'people' || report === 'uncontacted';
    const q = paged ? { ...query, limit: query.limit ?? 10 } : query;
    const body = (await REPORTS[report].answer(ctx, auth, q as never)).report as AnyReport;
    return { text: summary(report, body), structured: { report, ...body } };
  },
});
