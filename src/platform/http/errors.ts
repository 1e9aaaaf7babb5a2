import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isForeignKeyViolation, isUniqueViolation } from '../db/dialect.js';
import { JSON_TYPE } from './schemas.js';

export interface FieldError {
  field: string;
  message: string;
}

/** The one error type of the API: a status, a machine-readable code and a message for humans. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new ApiError(400, 'BAD_REQUEST', message, errors);
export const unauthorized = (message: string) =>
  new ApiError(401, 'UNAUTHORIZED', message, undefined, {
    'WWW-Authenticate': 'Basic realm="Hearth"',
  });
export const forbidden = (message: string) => new ApiError(403, 'FORBIDDEN', message);
export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new ApiError(409, 'CONFLICT', message);
/** The 404 of a path no route answers: "No route for GET /v1/reports/x". */
export const noRoute = (method: string, url: string) =>
  new ApiError(404, 'NOT_FOUND', `No route for ${method} ${url.split('?')[0]}`);

interface AjvError {
  instancePath?: string;
  schemaPath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldName(error: AjvError, context: string | undefined): string {
  const path = (error.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'additionalProperties') {
    const extra = String(error.params.additionalProperty);
    return path ? `${path}.${extra}` : extra;
  }
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty);
    return path ? `${path}.${missing}` : missing;
  }
  return path || (context === 'body' ? 'body' : (context ?? 'request'));
}

function describe(error: AjvError, field: string): string {
  switch (error.keyword) {
    case 'additionalProperties':
      return `Unknown field '${field}'`;
    case 'required':
      return `Field '${field}' is required`;
    case 'enum':
      return `Field '${field}' must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `Field '${field}' ${error.message ?? 'is invalid'}`;
  }
}

/** What one failed branch of an anyOf accepts: `a boolean`, `1`, `"true"`… */
function alternative(error: AjvError): string[] {
  if (error.keyword === 'type')
    return [
      String(error.params.type)
        .split(',')
        .map((t) => `a${/^[aeiou]/.test(t) ? 'n' : ''} ${t}`)
        .join(' or '),
    ];
  if (error.keyword === 'const') return [JSON.stringify(error.params.allowedValue)];
  if (error.keyword === 'enum')
    return (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
  return [];
}

/** The real API's words for body keys it does not know. */
export const invalidFieldsMessage = (fields: string[]) =>
  `Invalid fields in the request body: ${fields.join(', ')}.`;

export function validationError(error: FastifyError): ApiError {
  const failed = (error.validation as AjvError[]).map((e) => ({
    error: e,
    field: fieldName(e, error.validationContext),
  }));
  // A field matching none of several forms (anyOf) fails each branch too: one message lists the forms.
  const unions = new Set(failed.filter((f) => f.error.keyword === 'anyOf').map((f) => f.field));
  const errors: { field: string; message: string }[] = [];
  for (const { error: e, field } of failed) {
    if (!unions.has(field)) {
      errors.push({ field, message: describe(e, field) });
      continue;
    }
    if (errors.some((x) => x.field === field)) continue;
    const branches = failed.filter((f) => f.field === field).map((f) => f.error);
    // A literal's branch fails both its type and its value: the value says it.
    const branchOf = (e: AjvError) => (e.schemaPath ?? '').replace(/\/[^/]*$/, '');
    const literal = new Set(
      branches.filter((e) => e.keyword === 'const' || e.keyword === 'enum').map(branchOf),
    );
    const forms = branches
      .filter((e) => !(e.keyword === 'type' && literal.has(branchOf(e))))
      .flatMap(alternative);
    errors.push({
      field,
      message: forms.length
        ? `Field '${field}' must be one of: ${[...new Set(forms)].join(', ')}`
        : `Field '${field}' is invalid`,
    });
  }
  const where = error.validationContext === 'querystring' ? 'query' : error.validationContext;
  const topLevelUnknown = failed
    .filter((f) => f.error.keyword === 'additionalProperties' && !f.error.instancePath)
    .map((f) => f.field);
  const message =
    where === 'body' && topLevelUnknown.length === errors.length
      ? invalidFieldsMessage(topLevelUnknown)
      : errors.map((e) => e.message).join('; ');
  return new ApiError(
    400,
    'VALIDATION_FAILED',
    where === 'body' || !where ? message : `Invalid ${where}: ${message}`,
    errors,
  );
}

/**
 * PostgreSQL refuses some values SQLite stores (an id beyond 32 bits, a NUL character, a malformed
 * number): SQLSTATE class 22 "data exception". Such a value came from the client, so it is a 400.
 */
function dataExceptionMessage(error: unknown): string | null {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string' || !/^22[0-9A-Z]{3}$/.test(code)) return null;
  switch (code) {
    case '22003':
      return 'A number in the request is out of range';
    case '22021':
    case '22P05':
      return 'Text in the request contains a character that cannot be stored (such as \\u0000)';
    case '22007':
    case '22008':
      return 'A date or time in the request is invalid';
    default:
      return 'A value in the request is invalid';
  }
}

/** The API error a thrown error stands for (a 4xx), or null for a fault of ours (a 500). */
export function toApiError(error: FastifyError): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error.validation) return validationError(error);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large (limit 1 MiB)');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Request body must be JSON (Content-Type: application/json)',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('Request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest(`Malformed request body: ${error.message}`);
  }
  if (error instanceof SyntaxError) return badRequest(`Malformed JSON body: ${error.message}`);
  if (isUniqueViolation(error))
    return conflict('A record with the same unique value already exists');
  // PostgreSQL broke a deadlock or a serialization conflict by aborting this request's transaction:
  // nothing of it was stored, and sending it again succeeds.
  const code = (error as { code?: unknown }).code;
  if (code === '40P01' || code === '40001')
    return conflict(
      'The request collided with a concurrent change and was not applied; send it again',
    );
  const dataProblem = dataExceptionMessage(error);
  if (dataProblem) return badRequest(dataProblem);
  if (isForeignKeyViolation(error)) return badRequest('A referenced record does not exist');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, error.code ?? 'BAD_REQUEST', error.message);
  }
  return null;
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  const body: Record<string, unknown> = { errorMessage: error.message, errorCode: error.code };
  if (error.errors?.length) body.errors = error.errors;
  body.requestId = reply.request.id;
  return reply.code(error.status).type(JSON_TYPE).send(body);
}

/**
 * For Fastify's `frameworkErrors` option: errors raised before routing (a malformed URL such as
 * `/v1/people/%`) answer in the API's error shape too, not Fastify's default one.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const apiError = toApiError(error) ?? badRequest(error.message);
  sendError(reply, apiError);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError) return sendError(reply, apiError);
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendError(
      reply,
      new ApiError(
        500,
        'INTERNAL',
        `Internal error; quote request id ${request.id} when reporting it`,
      ),
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, noRoute(request.method, request.url)),
  );
}
