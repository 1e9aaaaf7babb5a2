import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../platform/http/route-types.js';
import { responses } from '../platform/http/schemas.js';
import { sendCsv } from './reports.csv.js';
import {
  AgentActivityQuery,
  AgentActivityReport,
  AgentActivityRow,
  LeadSourceRow,
  LeadSourcesQuery,
  LeadSourcesReport,
} from './reports.schemas.js';
import { agentActivityAnswer, leadSourcesAnswer } from './reports.answers.js';

const tags = ['reports'];
const csvOrJson = (schema: Parameters<typeof responses>[0][number]) =>
  responses({ 200: Type.Union([schema, Type.String({ description: 'format=csv' })]) });
const columnsOf = (row: { properties: Record<string, unknown> }) => Object.keys(row.properties);

/**
 * /v1/reports: read-only, open to every role; reportScope (src/access/reports.ts) narrows an
 * Agent's or a Lender's to their own row and people.
 */
export const reportsRoutes: RoutePlugin = async (app, { ctx }) => {
  app.get(
    '/v1/reports/agentActivity',
    {
      schema: {
        tags,
        summary: 'Per agent: new leads, contacted, speed to lead and activity in a period',
        querystring: AgentActivityQuery,
        produces: ['application/json', 'text/csv'],
        response: csvOrJson(AgentActivityReport),
      },
    },
    async (request, reply) => {
      const { period, report } = await agentActivityAnswer(ctx, request.auth, request.query);
      if (request.query.format !== 'csv') return report;
      return sendCsv(reply, 'agent-activity', period, columnsOf(AgentActivityRow), report.agents);
    },
  );
  app.get(
    '/v1/reports/leadSources',
    {
      schema: {
        tags,
        summary: 'Per source: leads created in a period, contacted, appointments, deals and value',
        querystring: LeadSourcesQuery,
        produces: ['application/json', 'text/csv'],
        response: csvOrJson(LeadSourcesReport),
      },
    },
    async (request, reply) => {
      const { period, report } = await leadSourcesAnswer(ctx, request.auth, request.query);
      if (request.query.format !== 'csv') return report;
      return sendCsv(reply, 'lead-sources', period, columnsOf(LeadSourceRow), report.sources);
    },
  );
};
