import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Named component schemas without touching the resource folders: every TypeBox object exported by
 * a `*.schemas.ts` file is known by its export name, and wherever the document inlines a schema
 * of the same shape it becomes a `$ref` to `#/components/schemas/<ExportName>`. Request bodies and
 * success answers that match no export are named after their operation (`CreatePeopleRequest`,
 * `GetPeopleResponse`), so that a generated client has a name for every shape.
 */

type Json = Record<string, unknown>;
const SRC = fileURLToPath(new URL('../../', import.meta.url));
const DROPPED = new Set(['$id', '$schema', 'description', 'title', 'examples', 'example']);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The shape of a schema as @fastify/swagger writes it, without annotations, keys sorted. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort()) {
    if (DROPPED.has(key)) continue;
    const v = value[key];
    if (key === '$ref' && typeof v === 'string') out.$ref = v.replace(/^.*\//, '').replace('#', '');
    else if (key === 'const') out.enum = [v];
    else if (key === 'patternProperties' && isObject(v))
      out.additionalProperties = canonical(Object.values(v)[0]);
    else if (key === 'properties' && isObject(v)) {
      const props: Json = {};
      for (const name of Object.keys(v).sort()) props[name] = canonical(v[name]);
      out.properties = props;
    } else out[key] = canonical(v);
  }
  return out;
}

export const fingerprint = (schema: unknown) => JSON.stringify(canonical(schema));

/** Worth a name: an object with at least two properties (an `{ id }` alone would match too much). */
function nameable(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const properties = schema.properties;
  return schema.type === 'object' && isObject(properties) && Object.keys(properties).length >= 2;
}

function schemaFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => /\.schemas\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.join(dir, file))
    .sort();
}

/** fingerprint → export name, over every resource's schema module. The first name wins. */
export async function loadSchemaNames(): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const file of schemaFiles(SRC)) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, schema] of Object.entries(module)) {
      if (!/^[A-Z]/.test(name) || /(Params|Query)$/.test(name) || !nameable(schema)) continue;
      const key = fingerprint(schema);
      if (!names.has(key)) names.set(key, name);
    }
  }
  return names;
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

export class ComponentNamer {
  constructor(
    private readonly names: Map<string, string>,
    private readonly components: Json,
  ) {}

  /** Replaces every known shape inside `schema` (and `schema` itself) by a reference. */
  name(schema: unknown, fallback?: string): unknown {
    if (!isObject(schema) || typeof schema.$ref === 'string') return schema;
    const known = nameable(schema) ? this.names.get(fingerprint(schema)) : undefined;
    const name = known ?? (fallback && nameable(schema) ? fallback : undefined);
    if (!name) return this.children(schema);
    if (!this.components[name]) this.components[name] = this.children({ ...schema });
    const ref: Json = { $ref: `#/components/schemas/${name}` };
    const description = schema.description;
    const own = (this.components[name] as Json).description;
    if (typeof description === 'string' && description !== own) ref.description = description;
    return ref;
  }

  private children(schema: Json): Json {
    if (isObject(schema.properties)) {
      const props: Json = {};
      for (const [key, value] of Object.entries(schema.properties)) props[key] = this.name(value);
      schema.properties = props;
    }
    for (const key of ['items', 'additionalProperties', 'not']) {
      if (isObject(schema[key])) schema[key] = this.name(schema[key]);
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) schema[key] = list.map((item) => this.name(item));
    }
    return schema;
  }
}

type Operation = {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

/** Names the request and answer schemas of every operation of the document. */
export function nameComponents(document: Json, names: Map<string, string>): void {
  const components = (document.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Json;
  const namer = new ComponentNamer(names, schemas);
  for (const item of Object.values(document.paths as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(item)) {
      const base = pascal(operation.operationId ?? '');
      for (const media of Object.values(operation.requestBody?.content ?? {}))
        media.schema = namer.name(media.schema, base && `${base}Request`);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const success = /^2/.test(status);
        for (const media of Object.values(response.content ?? {}))
          media.schema = namer.name(media.schema, success && base ? `${base}Response` : undefined);
      }
    }
  }
}
