import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../platform/http/route-types.js';
import { IdParams, Nullable, responses } from '../platform/http/schemas.js';
import {
  ListEnvelope,
  PageQuery,
  paginate,
  readPage,
  readSort,
} from '../platform/http/pagination.js';
import { notFound } from '../platform/http/errors.js';
import { Gate } from '../access/gates.js';
import { isoSeconds } from '../platform/time.js';
import { assistantsQuery, removeAssistant } from './assistants.repo.js';
import { toolCallsQuery, toolCallTrail } from './audit.repo.js';

const tags = ['mcp'];

const Assistant = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'The name the assistant gave itself' }),
  clientId: Type.String(),
  redirectUris: Type.Array(Type.String()),
  users: Type.Integer({ description: 'Users with a live authorization' }),
  created: Type.String(),
});

const ToolCall = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  userName: Type.String(),
  assistantId: Nullable(Type.Integer({ description: 'null: an API key' })),
  assistantName: Nullable(Type.String()),
  tool: Type.String(),
  arguments: Type.String({ description: 'JSON, cut to 4,000 characters' }),
  outcome: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  error: Nullable(Type.String()),
  created: Type.String(),
});

const ListQuery = Type.Object(
  { ...PageQuery, system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/** The admin area's view of AI assistants: who is connected, what they did, and disconnecting. */
export const assistantsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const owner = { gate: Gate.owner };

  app.get(
    '/v1/mcp/assistants',
    {
      config: owner,
      schema: {
        tags,
        summary: 'AI assistants connected to the account through MCP (Owner)',
        querystring: ListQuery,
        response: responses({ 200: ListEnvelope('assistants', Assistant) }),
      },
    },
    async (request) => {
      const page = await paginate<{
        id: number;
        identifier: string;
        name: string;
        redirect_uris: string;
        created_at: string;
        users: number | null;
      }>(request, {
        collection: 'assistants',
        query: assistantsQuery(db, request.auth.accountId, ctx.clock.now()),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'c.id'),
        idExpression: 'c.id',
        publicUrl: ctx.config.publicUrl,
      });
      return {
        _metadata: page.metadata,
        assistants: page.rows.map((row) => ({
          id: row.id,
          name: row.name,
          clientId: row.identifier,
          redirectUris: JSON.parse(row.redirect_uris) as string[],
          users: Number(row.users ?? 0),
          created: isoSeconds(Date.parse(row.created_at)),
        })),
      };
    },
  );

  app.delete(
    '/v1/mcp/assistants/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Disconnect an AI assistant: its tokens stop working at once (Owner)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const { accountId } = request.auth;
      const id = request.params.id;
      const known = await assistantsQuery(db, accountId, ctx.clock.now())
        .where('c.id', '=', id)
        .executeTakeFirst();
      if (!known || !(await removeAssistant(db, accountId, id))) throw notFound(`Assistant ${id}`);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/mcp/toolCalls',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Every tool call of AI assistants: who, through which assistant, what (Owner)',
        querystring: ListQuery,
        response: responses({ 200: ListEnvelope('toolcalls', ToolCall) }),
      },
    },
    async (request) => {
      // The calls of the last moments are still waiting to be written (audit.repo.ts).
      await toolCallTrail(ctx).flush();
      const page = await paginate<{
        id: number;
        user_id: number;
        user_name: string;
        client_id: number | null;
        client_name: string | null;
        tool: string;
        arguments: string;
        outcome: 'ok' | 'error';
        error: string | null;
        created_at: string;
      }>(request, {
        collection: 'toolcalls',
        query: toolCallsQuery(db, request.auth.accountId),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'c.id'),
        idExpression: 'c.id',
        publicUrl: ctx.config.publicUrl,
      });
      return {
        _metadata: page.metadata,
        toolcalls: page.rows.map((row) => ({
          id: row.id,
          userId: row.user_id,
          userName: row.user_name,
          assistantId: row.client_id,
          assistantName: row.client_name,
          tool: row.tool,
          arguments: row.arguments,
          outcome: row.outcome,
          error: row.error,
          created: isoSeconds(Date.parse(row.created_at)),
        })),
      };
    },
  );
};
