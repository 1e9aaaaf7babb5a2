import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../platform/http/route-types.js';
import { ApiError } from '../platform/http/errors.js';
import type { AppContext } from '../platform/context.js';
import { toolCallTrail } from './audit.repo.js';
import { authenticateMcpCaller } from './caller.js';
import type { McpSessions } from './sessions.js';
import { writeWebResponse } from './web-bridge.js';

const DESCRIPTION =
  'The Model Context Protocol over Streamable HTTP for AI assistants (docs/mcp.md). Credentials as ' +
  '/v1: an OAuth bearer token (see /.well-known/oauth-protected-resource/mcp) or an API key in HTTP Basic.';

const Failure = Type.Object({ errorMessage: Type.String() }, { additionalProperties: true });

/**
 * DNS rebinding: a web page on another origin (even one whose name now points at this server)
 * must not drive /mcp. Assistants that are not browsers send no Origin.
 */
function refuseForeignOrigin(ctx: AppContext, request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined || origin === new URL(ctx.config.publicUrl).origin) return;
  throw new ApiError(403, 'FORBIDDEN_ORIGIN', `Requests from origin ${origin} may not use /mcp`);
}

/**
 * /mcp: the Model Context Protocol over Streamable HTTP (POST messages, GET the server's stream,
 * DELETE to end the session), with the credentials /v1 takes.
 */
export const mcpRoutes: RoutePlugin = async (instance, { ctx }) => {
  // The MCP SDK (0.3 s of CPU to load) and the session store's Redis connection come with the
  // first /mcp request, not with every process that starts the app.
  let sessions: Promise<McpSessions> | undefined;
  const openSessions = () =>
    (sessions ??= import('./sessions.js').then(
      ({ McpSessions }) => new McpSessions(ctx, instance),
    ));
  instance.addHook('onClose', async () => {
    if (sessions) await (await sessions).closeAll();
    await toolCallTrail(ctx).flush();
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    refuseForeignOrigin(ctx, request);
    const caller = await authenticateMcpCaller(ctx, request);
    const response = await (await openSessions()).handle(request, caller);
    reply.hijack();
    await writeWebResponse(reply.raw, response);
  };
  const operations = [
    ['POST', 'postMcp', 'Send MCP messages (initialize first; then with Mcp-Session-Id)'],
    ['GET', 'getMcp', "Open the session's stream of server messages (Last-Event-ID resumes it)"],
    ['DELETE', 'deleteMcp', 'End the MCP session named by Mcp-Session-Id'],
  ] as const;
  for (const [method, operationId, summary] of operations)
    instance.route({
      method,
      url: '/mcp',
      config: { auth: 'none' },
      schema: {
        tags: ['mcp'],
        operationId,
        summary,
        description: DESCRIPTION,
        response: {
          200: { description: 'a JSON-RPC answer, or an event stream', type: 'string' },
          400: Failure,
          401: Failure,
          403: Failure,
          404: Failure,
          429: Failure,
          503: Failure,
        },
      },
      handler,
    });
};
