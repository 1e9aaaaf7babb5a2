import type { FastifyInstance } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool as ListedTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../platform/context.js';
import { callerOf } from './caller.js';
import { runTool } from './run-tool.js';
import { TOOLS } from './tools/index.js';
import type { AnyTool } from './tools/tool.js';
import { registerPersonResource } from './resources.js';
import { registerPrompts } from './prompts.js';

const INSTRUCTIONS =
  'Hearth is a real-estate CRM. You act as the signed-in user and see only what their role lets ' +
  'them see. Find people with search_people before using their ids. Tools marked destructive ' +
  'need confirm: true, which you send only after the user agreed to the change.';

/** Keywords that describe a value rather than constrain it: kept outside the anyOf branches. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples']);

/**
 * `type: [T, 'null']` as `anyOf` branches of one type each: legal either way, but clients that map
 * tool schemas onto a single-type dialect (Gemini's function declarations) reject the array form,
 * as the MCP Inspector's portability check warns.
 */
function singleTyped(schema: Record<string, unknown>): Record<string, unknown> {
  const { type, ...rest } = schema;
  if (!Array.isArray(type)) return schema;
  const outer = Object.fromEntries(Object.entries(rest).filter(([k]) => ANNOTATIONS.has(k)));
  const inner = Object.fromEntries(Object.entries(rest).filter(([k]) => !ANNOTATIONS.has(k)));
  const branches = (type as string[]).map((t) =>
    t === 'null' ? { type: t } : { ...inner, type: t },
  );
  return { ...outer, anyOf: branches };
}

/** A TypeBox schema as plain, portable JSON Schema: no $id (one schema may appear twice in a tool's). */
function jsonSchema(schema: object): ListedTool['inputSchema'] {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => {
    if (key === '$id') return undefined;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return singleTyped(value as Record<string, unknown>);
    return value;
  }) as ListedTool['inputSchema'];
}

function listing(tool: AnyTool): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input),
    outputSchema: jsonSchema(tool.output),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** One MCP server per session: tools, the person resource and the prompts. */
export function buildMcpServer(ctx: AppContext, app: FastifyInstance): Server {
  const server = new Server(
    { name: 'hearth', title: 'Hearth CRM', version: '1.0.0' },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const tools = TOOLS.map(listing);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  // Protocol's registration, not Server's: Server's wraps tools/call to parse the request a second
  // time and to parse the result runTool built, 40–50 µs a call (docs/mcp.md). The request is still
  // parsed once, and an invalid one is refused as before.
  const register = Protocol.prototype.setRequestHandler as Server['setRequestHandler'];
  register.call(server, CallToolRequestSchema, async (request, extra) =>
    runTool(
      ctx,
      app,
      callerOf(extra.authInfo),
      request.params.name,
      request.params.arguments ?? {},
    ),
  );
  registerPersonResource(server, ctx, app);
  registerPrompts(server);
  return server;
}
