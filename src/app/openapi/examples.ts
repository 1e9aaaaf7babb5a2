import { EXAMPLE_VALUES } from './example-values.js';

/**
 * Request and response examples for every operation, made from its schema: each property takes
 * its realistic value from example-values.ts when that value fits the schema, otherwise one the
 * schema's own constraints give (enum, format, pattern-free string, minimum…). A request example
 * shows the required properties and those with a realistic value; a response example shows every
 * property (null when nullable and without a realistic value), a list one record on its last page. test/openapi-examples.test.ts validates each example against its schema.
 */

type Json = Record<string, unknown>;
type Mode = 'request' | 'response';

const WHEN = '2026-03-01T12:00:00Z';
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `GetDealsResponse`, `DealCreateBody`, `deals` → `Deal`: whose record a schema describes. */
export function nounOf(name: string): string {
  const base = name
    .replace(/^(Get|Create|Update|Delete)/, '')
    .replace(/ById/g, '')
    .replace(/(Create|Update|Merge)?(Response|Request|Body|Input|In)$/, '');
  const pascal = base.charAt(0).toUpperCase() + base.slice(1);
  if (pascal === 'People') return 'Person';
  return pascal.endsWith('ies')
    ? `${pascal.slice(0, -3)}y`
    : pascal.endsWith('s') && !pascal.endsWith('ss')
      ? pascal.slice(0, -1)
      : pascal;
}

interface Context {
  components: Json;
  mode: Mode;
  /** The record the enclosing object describes (`Deal`) and the enclosing property. */
  noun: string;
  parent: string;
  /** Components being expanded: a schema that contains itself stops there. */
  open: Set<string>;
}

function typesOf(schema: Json): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  return typeof schema.type === 'string' ? [schema.type] : [];
}

/** Whether a table value suits a schema closely enough to be tried (the test checks the rest). */
function fits(value: unknown, schema: Json): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  if (schema.const !== undefined) return schema.const === value;
  const types = typesOf(schema);
  if (!types.length) return !schema.anyOf && !schema.oneOf && !schema.$ref;
  const type = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  const ok = types.some((t) => t === type || (t === 'number' && type === 'integer'));
  if (!ok) return false;
  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
      return false;
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
  }
  if (Array.isArray(value) && isObject(schema.items))
    return value.every((item) => fits(item, schema.items as Json));
  return true;
}

function tableValue(property: string, schema: Json, ctx: Context): unknown {
  for (const key of [`${ctx.noun}.${property}`, `${ctx.parent}.${property}`, property]) {
    if (key in EXAMPLE_VALUES && fits(EXAMPLE_VALUES[key], schema)) return EXAMPLE_VALUES[key];
  }
  return undefined;
}

function stringFor(schema: Json, property: string): string {
  if (schema.format === 'date-time') return WHEN;
  if (schema.format === 'date') return '2026-03-01';
  if (schema.format === 'email') return 'ann@example.com';
  if (schema.format === 'uuid') return '3f1c2a9e-6b7d-4e21-9a0c-5d8e7f6a1b2c';
  if (schema.format === 'uri' || /(Url|Link|^uri|^url)$/.test(property))
    return 'https://crm.example.com/hearth';
  if (/(At|Date|Time)$/.test(property)) return WHEN;
  if (/email/i.test(property)) return 'ann@example.com';
  if (/(phone|Number)$/i.test(property)) return '555-0100';
  if (/[nN]ame$/.test(property)) return 'Ann Lee';
  const text = property ? property.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : 'text';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return text.padEnd(min, 'x').slice(0, max);
}

function numberFor(schema: Json, property: string): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = /[iI]d$/.test(property) ? 3 : 1;
  if (min !== undefined && value < min) value = min;
  if (max !== undefined && value > max) value = max;
  return value;
}

function objectFor(schema: Json, ctx: Context): Json {
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, Json>) : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Json = {};
  for (const [name, property] of Object.entries(properties)) {
    const wanted =
      ctx.mode === 'response' ||
      required.has(name) ||
      tableValue(name, property, ctx) !== undefined;
    if (!wanted) continue;
    const value = valueFor(property, name, ctx);
    if (value !== undefined) out[name] = value;
  }
  // A list answer: one record, on its last page (where `next` and `nextLink` are absent).
  const metadata = out._metadata;
  const collection = Object.keys(out).find((key) => Array.isArray(out[key]));
  if (isObject(metadata) && collection) {
    metadata.collection = collection;
    for (const key of ['next', 'nextLink']) if (!required.has(key)) delete metadata[key];
  }
  // A request body of optional properties none of which has a realistic value: show them all.
  if (ctx.mode === 'request' && !Object.keys(out).length) {
    for (const [name, property] of Object.entries(properties)) {
      const value = valueFor(property, name, ctx);
      if (value !== undefined) out[name] = value;
    }
  }
  return out;
}

/** An example of `schema`, the value of property `property` (empty at the top). */
export function valueFor(schema: unknown, property: string, ctx: Context): unknown {
  if (!isObject(schema)) return undefined;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (ctx.open.has(name)) return undefined;
    const target = ctx.components[name];
    const open = new Set(ctx.open).add(name);
    return valueFor(target, property, { ...ctx, noun: nounOf(name), open });
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (property) {
    const known = tableValue(property, schema, ctx);
    if (known !== undefined) return structuredClone(known);
  }
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(branches)) {
    const branch = branches.find((b) => !typesOf(b).includes('null')) ?? branches[0];
    return valueFor(branch, property, ctx);
  }
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((part) => valueFor(part, property, ctx)));
  const types = typesOf(schema);
  // A nullable property without a realistic value is shown empty, as an answer often has it.
  if (types.includes('null') && property) return null;
  const type = types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : '');
  switch (type) {
    case 'object':
      return objectFor(schema, { ...ctx, parent: property || ctx.parent });
    case 'array': {
      const item = valueFor(schema.items, property, {
        ...ctx,
        noun: property ? nounOf(property) : ctx.noun,
      });
      if (item === undefined) return [];
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return Array.from({ length: count }, () => structuredClone(item));
    }
    case 'string':
      return stringFor(schema, property);
    case 'integer':
    case 'number':
      return numberFor(schema, property);
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

/** The example of a request body or answer schema of the document. */
export function exampleOf(schema: unknown, components: Json, mode: Mode): unknown {
  return valueFor(schema, '', { components, mode, noun: '', parent: '', open: new Set() });
}

interface Media {
  schema?: unknown;
  example?: unknown;
}
interface Operation {
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}

/** Adds an example to every JSON request body and success answer that has none. */
export function addExamples(document: Json): void {
  const components = ((document.components as Json).schemas ?? {}) as Json;
  const add = (media: Media | undefined, mode: Mode) => {
    if (!media?.schema || media.example !== undefined) return;
    const example = exampleOf(media.schema, components, mode);
    if (example !== undefined) media.example = example;
  };
  for (const item of Object.values(document.paths as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(item)) {
      add(operation.requestBody?.content?.['application/json'], 'request');
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if (/^2/.test(status)) add(response.content?.['application/json'], 'response');
    }
  }
}
