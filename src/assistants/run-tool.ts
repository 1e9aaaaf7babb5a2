import type { FastifyError, FastifyInstance } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../platform/context.js';
import { toApiError } from '../platform/http/errors.js';
import type { McpCaller } from './caller.js';
import { toolCallTrail } from './audit.repo.js';
import { toolNamed } from './tools/index.js';
import { missingConfirmation } from './tools/safety.js';
import type { AnyTool } from './tools/tool.js';

const failed = (text: string): CallToolResult => ({
  content: [{ type: 'text', text }],
  isError: true,
});

/** The first schema problem of the arguments, said so that the assistant can fix them. */
function argumentProblem(tool: AnyTool, args: Record<string, unknown>): string | null {
  // Checking is a third of finding the first error: errors are looked for only when there is one.
  if (Value.Check(tool.input, args)) return null;
  const first = Value.Errors(tool.input, args).First();
  if (!first) return null;
  const where = first.path ? `'${first.path.slice(1).replace(/\//g, '.')}'` : 'the arguments';
  return `Invalid arguments for ${tool.name}: ${where} ${first.message}`;
}

async function outcome(
  ctx: AppContext,
  app: FastifyInstance,
  tool: AnyTool,
  caller: McpCaller,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const problem =
    missingConfirmation(tool, args) ?? argumentProblem(tool, args) ?? tool.refuse?.(args) ?? null;
  if (problem) return failed(problem);
  try {
    const { method, url } = typeof tool.route === 'function' ? tool.route(args) : tool.route;
    await app.chargeInProcess({ method, route: url, authorization: caller.authorization });
    const result = await tool.run({ ctx, auth: caller.auth }, args);
    return { content: [{ type: 'text', text: result.text }], structuredContent: result.structured };
  } catch (err) {
    // What the REST route would answer with a 4xx is the tool's error text.
    const refusal = toApiError(err as FastifyError);
    if (refusal) return failed(refusal.message);
    ctx.log.error({ err, tool: tool.name }, 'MCP tool failed');
    return failed('Internal error; the call was not completed');
  }
}

/**
 * tools/call: checks the arguments, runs the tool as the caller and audits the call, a refused or
 * failed one included. An unknown tool is a protocol error, as the MCP specification says.
 */
export async function runTool(
  ctx: AppContext,
  app: FastifyInstance,
  caller: McpCaller,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const tool = toolNamed.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const result = await outcome(ctx, app, tool, caller, args);
  const error = result.isError ? (result.content[0] as { text: string }).text : null;
  toolCallTrail(ctx).record(caller, { tool: name, arguments: args, error }, ctx.clock.now());
  return result;
}
