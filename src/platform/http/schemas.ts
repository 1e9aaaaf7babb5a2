import { type Static, type TSchema, Type } from '@sinclair/typebox';

/** The content type of JSON sent as text that is already serialized. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export const ErrorResponse = Type.Object(
  {
    errorMessage: Type.String(),
    errorCode: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
    ),
    requestId: Type.Optional(
      Type.String({ description: 'The X-Request-Id of this request: quote it when reporting' }),
    ),
  },
  { $id: 'ErrorResponse', description: 'Every error on /v1' },
);

/**
 * The error schema `responses()` puts on every status; the OpenAPI document keeps only the statuses
 * an operation can answer (src/app/openapi/errors.ts), recognising these by identity.
 */
export const GENERIC_ERROR = Type.Ref('ErrorResponse');
const errorRef = GENERIC_ERROR;

/** Response schemas for a route: its success shapes plus every error status the API can answer. */
export function responses<T extends Record<number, TSchema>>(success: T) {
  return {
    ...success,
    400: errorRef,
    401: errorRef,
    403: errorRef,
    404: errorRef,
    409: errorRef,
    413: errorRef,
    415: errorRef,
    429: errorRef,
    500: errorRef,
  };
}

/** Ids are 32-bit integers (serial on PostgreSQL); larger values cannot name a record. */
export const MAX_ID = 2_147_483_647;

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID }) });

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * `T | null`. Scalars become `type: [T, "null"]` rather than anyOf: with type coercion on, the
 * first anyOf branch would turn a null into 0 or "" (so `"price": null` stored 0 instead of clearing).
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  typeof schema.type === 'string' && SCALAR_TYPES.has(schema.type)
    ? Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] })
    : Type.Union([schema, Type.Null()]);

/** Bodies may carry `system` (system identification) besides their own fields. */
export const SystemField = { system: Type.Optional(Type.String()) };

/** Booleans arrive as true/false, 0/1 or "true"/"false"/"1"/"0". */
export const Bool = (options: { description?: string } = {}) =>
  Type.Union(
    [
      Type.Boolean(),
      Type.Literal(0),
      Type.Literal(1),
      Type.Literal('0'),
      Type.Literal('1'),
      Type.Literal('true'),
      Type.Literal('false'),
    ],
    options,
  );

export function toBool(value: boolean | number | string | undefined | null): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  return value === true || value === 1 || value === '1' || value === 'true';
}
