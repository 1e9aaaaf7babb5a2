import { type Static, type TObject, type TProperties, Type } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';

/**
 * What a tool runs with: the services behind the REST routes, called as the caller. They hold the
 * visibility rules, role checks and webhook events; runTool counts the call against the caller's
 * rate limit as its REST route would be counted.
 */
export interface ToolContext {
  ctx: AppContext;
  /** The user the assistant acts for. */
  auth: AuthUser;
}

/** The REST route a tool stands for: its rate-limit context counts every call of the tool. */
export interface RestTwin {
  method: 'GET' | 'POST' | 'PUT';
  /** The route's path pattern: '/v1/people/:id'. */
  url: string;
}

export interface ToolResult {
  /** A short line or two for the model to read. */
  text: string;
  /** The same answer, matching the tool's output schema. */
  structured: Record<string, unknown>;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Every tool works inside this Hearth only. */
  openWorldHint: false;
}

export interface Tool<Input extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: TObject;
  annotations: ToolAnnotations;
  /** Its REST route, or the route its arguments choose (run_report's report). */
  route: RestTwin | ((args: Static<Input>) => RestTwin);
  /** Why these (schema-valid) arguments cannot work together, or null: checked before run. */
  refuse?(args: Static<Input>): string | null;
  run(tool: ToolContext, args: Static<Input>): Promise<ToolResult>;
}

/** A tool erased to its common shape (the registry holds tools of every input type). */
export type AnyTool = Tool<TObject>;

export const defineTool = <Input extends TObject>(tool: Tool<Input>): AnyTool =>
  tool as unknown as AnyTool;

export const reading: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const adding: ToolAnnotations = { ...reading, readOnlyHint: false, idempotentHint: false };
/** Overwrites what is there: asks for `confirm` (safety.ts). */
export const overwriting: ToolAnnotations = {
  ...reading,
  readOnlyHint: false,
  destructiveHint: true,
};

export const PersonId = Type.Integer({ minimum: 1, description: 'The person (see search_people)' });

/** The paging arguments of every list tool: small pages, continued by cursor. */
export const pageArgs = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 50, description: 'How many to return (default 10)' }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 2000, description: 'nextCursor of the previous page' }),
  ),
};

export const pageFields = {
  total: Type.Integer({ description: 'How many match in all' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next page; null on the last page',
  }),
};

/** A person's document is JSON text written by the database (people.answers.ts): as an object. */
export const asObject = <T>(answer: string | object): T =>
  (typeof answer === 'string' ? JSON.parse(answer) : answer) as T;

/** The REST list envelope's _metadata. */
export interface ListMetadata {
  total: number;
  next?: string;
}

export const pageQuery = (args: { limit?: number; cursor?: string }) => ({
  limit: args.limit ?? 10,
  next: args.cursor,
});

export const pageOf = (metadata: ListMetadata) => ({
  total: metadata.total,
  nextCursor: metadata.next ?? null,
});

export const objectOf = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });
