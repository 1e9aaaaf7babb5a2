import type { FastifyInstance } from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { callRest, RestError } from './rest.js';
import { callerOf } from './caller.js';

const PERSON_URI = /^hearth:\/\/people\/(\d{1,15})$/;

/** A person as a resource, `hearth://people/{personId}`: the REST API's person document. */
export function registerPersonResource(server: Server, app: FastifyInstance): void {
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
    try {
      const { body } = await callRest(app, callerOf(extra.authInfo), {
        method: 'GET',
        url: `/v1/people/${match[1]}`,
      });
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
    } catch (err) {
      if (err instanceof RestError) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
}
