import type { FastifyInstance } from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyError } from 'fastify';
import type { AppContext } from '../platform/context.js';
import { toApiError } from '../platform/http/errors.js';
import { visiblePersonDocument } from '../contacts/people/people.answers.js';
import { callerOf } from './caller.js';

const PERSON_URI = /^hearth:\/\/people\/(\d{1,15})$/;

/** A person as a resource, `hearth://people/{personId}`: the REST API's person document. */
export function registerPersonResource(
  server: Server,
  ctx: AppContext,
  app: FastifyInstance,
): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'hearth://people/{personId}',
        name: 'person',
        title: 'A person',
        description: 'A person you can see, with emails, phones, addresses, stage and tags',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    const match = PERSON_URI.exec(uri);
    if (!match) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
    const caller = callerOf(extra.authInfo);
    try {
      const { authorization } = caller;
      await app.chargeInProcess({ method: 'GET', route: '/v1/people/:id', authorization });
      const text = await visiblePersonDocument(ctx, caller.auth, Number(match[1]));
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    } catch (err) {
      const refusal = toApiError(err as FastifyError);
      if (refusal) throw new McpError(ErrorCode.InvalidParams, refusal.message);
      throw err;
    }
  });
}
