import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { badRequest } from './errors.js';
import { MAX_ID } from './schemas.js';

interface IntegerRule {
  name: string;
  allowNegative: boolean;
  minimum?: number;
  maximum: number;
}

interface JsonSchemaLike {
  type?: string | string[];
  properties?: Record<string, JsonSchemaLike>;
  items?: JsonSchemaLike;
  allOf?: JsonSchemaLike[];
  minimum?: number;
  maximum?: number;
}

const isInteger = (schema: JsonSchemaLike | undefined) =>
  schema?.type === 'integer' || (Array.isArray(schema?.type) && schema.type.includes('integer'));

/** The integer properties of a params or querystring schema (and arrays of integers). */
function integerRules(schema: unknown): IntegerRule[] {
  const shape = schema as JsonSchemaLike | undefined;
  const properties = Object.assign(
    {},
    ...(shape?.allOf ?? []).map((part) => part.properties ?? {}),
    shape?.properties ?? {},
  ) as Record<string, JsonSchemaLike>;
  const rules: IntegerRule[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const integer = isInteger(property)
      ? property
      : property.type === 'array' && isInteger(property.items)
        ? property.items!
        : undefined;
    if (!integer) continue;
    rules.push({
      name,
      allowNegative: integer.minimum === undefined || integer.minimum < 0,
      minimum: integer.minimum,
      maximum: integer.maximum ?? MAX_ID,
    });
  }
  return rules;
}

function problem(raw: unknown, rule: IntegerRule): string | null {
  if (raw === undefined || raw === null) return null;
  if (Array.isArray(raw)) {
    for (const item of raw) {
      const found = problem(item, rule);
      if (found) return found;
    }
    return null;
  }
  if (typeof raw !== 'string') return null;
  const pattern = rule.allowNegative ? /^-?\d{1,16}$/ : /^\d{1,16}$/;
  const digits = rule.allowNegative
    ? 'decimal digits, optionally after a minus sign'
    : 'decimal digits';
  if (!pattern.test(raw)) return `must be a whole number written with ${digits}`;
  const value = Number(raw);
  if (value > rule.maximum) return `must be at most ${rule.maximum}`;
  if (rule.minimum !== undefined && value < rule.minimum) return `must be at least ${rule.minimum}`;
  return null;
}

function check(values: unknown, rules: IntegerRule[], where: string): void {
  const record = (values ?? {}) as Record<string, unknown>;
  for (const rule of rules) {
    const found = problem(record[rule.name], rule);
    if (found) {
      throw badRequest(`Invalid ${where} '${rule.name}': ${found}`, [
        { field: rule.name, message: found },
      ]);
    }
  }
}

/**
 * The validator's type coercion reads `0x1`, `1e0`, `+1` or `Infinity` as numbers. Path and query
 * integers are checked first, as the client wrote them: decimal digits only, within range.
 */
export function registerStrictIntegers(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const params = integerRules(route.schema?.params);
    const query = integerRules(route.schema?.querystring);
    if (params.length === 0 && query.length === 0) return;
    const strict = async (request: FastifyRequest) => {
      check(request.params, params, 'path parameter');
      check(request.query, query, 'query parameter');
    };
    const existing = route.preValidation;
    route.preValidation = existing
      ? [strict, ...(Array.isArray(existing) ? existing : [existing])]
      : [strict];
  });
}
