import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../platform/http/route-types.js';
import { responses } from '../platform/http/schemas.js';
import { sendCsv } from './reports.csv.js';
import { reportFilters } from './reports.filters.js';
import { periodOf } from './reports.period.js';
import { pipelineAnswer, reportPeopleAnswer } from './reports.answers.js';
import { campaignsReport } from './reports.campaigns.js';
import { teamDay } from './reports.team.js';
import {
  CampaignRow,
  CampaignsQuery,
  CampaignsReport,
  PipelineQuery,
  PipelineReport,
  ReportPeople,
  ReportPeopleQuery,
  ReportPerson,
  StageTotals,
  TeamAgentRow,
  TeamQuery,
  TeamReport,
} from './reports.schemas.js';

const tags = ['reports'];
const csvOr = (schema: Parameters<typeof responses>[0][number]) =>
  responses({ 200: Type.Union([schema, Type.String({ description: 'format=csv' })]) });
const columns = (row: { properties: Record<string, unknown> }) => Object.keys(row.properties);

/** The reports around the contract's two: the people behind a figure, pipeline, campaigns. */
export const moreReportsRoutes: RoutePlugin = async (app, { ctx }) => {
  const peopleRoute = (url: string, summary: string, uncontacted: boolean) =>
    app.get(
      url,
      {
        schema: {
          tags,
          summary,
          querystring: ReportPeopleQuery,
          produces: ['application/json', 'text/csv'],
          response: csvOr(ReportPeople),
        },
      },
      async (request, reply) => {
        const { period, report } = await reportPeopleAnswer(
          ctx,
          request.auth,
          request.query,
          uncontacted,
        );
        if (request.query.format !== 'csv') return report;
        return sendCsv(reply, url.split('/').pop()!, period, columns(ReportPerson), report.people);
      },
    );
  peopleRoute(
    '/v1/reports/people',
    'The new leads behind a figure (agent, source, contacted or not), oldest first',
    false,
  );
  peopleRoute(
    '/v1/reports/uncontacted',
    'New leads nobody has contacted yet, oldest first, with how long they have waited',
    true,
  );

  app.get(
    '/v1/reports/pipeline',
    {
      schema: {
        tags,
        summary: 'Deals by pipeline and stage (count, value), closed and expected per month',
        querystring: PipelineQuery,
        produces: ['application/json', 'text/csv'],
        response: csvOr(PipelineReport),
      },
    },
    async (request, reply) => {
      const { period, report } = await pipelineAnswer(ctx, request.auth, request.query);
      if (request.query.format !== 'csv') return report;
      return sendCsv(reply, 'pipeline', period, columns(StageTotals), report.stages);
    },
  );

  app.get(
    '/v1/reports/campaigns',
    {
      schema: {
        tags,
        summary: 'Per campaign and per day: sends, opens, clicks, unsubscribes and bounces',
        description:
          'Built-in and third-party campaigns together, counted by the UTC day each event ' +
          'occurred (a period starting or ending mid-day counts those days whole). Owner and ' +
          "Admin see every event; an Agent or a Lender those of the emails they sent (the event's " +
          'userId), as do the userId and teamId filters.',
        querystring: CampaignsQuery,
        produces: ['application/json', 'text/csv'],
        response: csvOr(CampaignsReport),
      },
    },
    async (request, reply) => {
      const period = periodOf(request.query, ctx.clock.now());
      const filters = await reportFilters(ctx.db, request.auth, request.query);
      const report = await campaignsReport(ctx.db, filters, period, request.query.campaignId);
      if (request.query.format !== 'csv') return report;
      return sendCsv(reply, 'campaigns', period, columns(CampaignRow), report.campaigns);
    },
  );

  app.get(
    '/v1/reports/team',
    {
      schema: {
        tags,
        summary: "A team leader's day: per agent, uncontacted new leads and overdue tasks",
        description:
          'Owner and Admin see every active user (`teamId`: its members); anyone else the ' +
          'members of the teams they lead, and no rows when they lead none.',
        querystring: TeamQuery,
        produces: ['application/json', 'text/csv'],
        response: csvOr(TeamReport),
      },
    },
    async (request, reply) => {
      const now = ctx.clock.now();
      const period = periodOf(request.query, now);
      const report = await teamDay(ctx.db, request.auth, period, now, request.query.teamId);
      if (request.query.format !== 'csv') return report;
      return sendCsv(reply, 'team', period, columns(TeamAgentRow), report.agents);
    },
  );
};
