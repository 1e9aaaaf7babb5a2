import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, basic, startServer } from '../support/server.js';
import { rawExchange, responseBodies } from '../support/raw-http.js';

type Json = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
}
interface Target {
  method: string;
  path: string;
  query: string[];
  body: string[];
}

/** Nesting well inside the body parser's limit (64), so the handlers and validators meet it. */
const DEEP = 48;
const deepArray = (leaf: unknown) =>
  JSON.parse('['.repeat(DEEP) + JSON.stringify(leaf) + ']'.repeat(DEEP));
const NUL = '\u0000';
/** Each query parameter sent with all of these: repeated, NUL, beyond 64 bits, not a number. */
const QUERY_VALUES = ['1', '%00', '99999999999999999999', 'x'];

function bodyProperties(operation: Operation, components: Record<string, Json>): string[] {
  let schema = operation.requestBody?.content?.['application/json']?.schema;
  const ref = schema?.$ref;
  if (typeof ref === 'string') schema = components[ref.replace('#/components/schemas/', '')];
  const properties = schema?.properties;
  return properties && typeof properties === 'object' ? Object.keys(properties) : [];
}

/** Every operation of the OpenAPI document, its path parameters filled with `pathValue`. */
function targets(document: Json, pathValue: string): Target[] {
  const components = ((document.components as Json)?.schemas ?? {}) as Record<string, Json>;
  return Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(
    ([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, pathValue),
        query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: bodyProperties(operation, components),
      })),
  );
}

const queryOf = (names: string[], values: string[]) =>
  names.length ? `?${names.flatMap((n) => values.map((v) => `${n}=${v}`)).join('&')}` : '';

/**
 * Every route of the OpenAPI document as a clumsy or hostile client calls it (an Owner's key):
 * absolute-form targets, repeated and NUL query parameters, odd path values, deeply nested and
 * NUL-holding bodies, repeated form fields. No answer may be a 5xx.
 */
describe('fuzz: every documented route, odd input, never a 5xx', () => {
  let server: TestServer;
  let key: string;
  let document: Json;
  let agentId: number;
  const failures: string[] = [];
  let requests = 0;

  before(async () => {
    server = await startServer({ env: { HEARTH_REQUEST_TIMEOUT: '10' } });
    const account = await server.newAccount();
    key = account.owner.key;
    // Path ids name this Agent: a PUT or DELETE of /v1/users/{id} changes them, not the Owner.
    agentId = (await account.addUser('Agent')).id;
    await server.newPerson(key);
    const res = await server.get(key, '/openapi.json');
    assert.equal(res.status, 200);
    document = res.body;
  });
  after(async () => server.close());

  const record = (variant: string, target: Target, status: number, body: string) => {
    requests += 1;
    if (status >= 500 || status === 0)
      failures.push(
        `${variant}: ${target.method} ${target.path} → ${status} ${body.slice(0, 160)}`,
      );
  };

  async function call(variant: string, target: Target, url: string, raw?: string, type?: string) {
    const res = await server
      .call(target.method, url, { key, raw, contentType: type })
      .catch((err: Error) => ({ status: 0, text: err.message }));
    record(variant, target, res.status, res.text);
  }

  /** Over a raw TLS socket: the absolute-form target no ordinary client sends. */
  async function absolute(variant: string, target: Target, url: string, credentials: boolean) {
    const head =
      `${target.method} https://localhost${url} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
      (credentials ? `Authorization: ${basic(key)}\r\n` : '') +
      (['POST', 'PUT', 'PATCH'].includes(target.method)
        ? 'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'
        : '\r\n');
    const res = await rawExchange(server.url, [head], { waitMs: 15_000 });
    const [answer] = responseBodies(res.received);
    record(variant, target, answer?.status ?? 0, answer?.body ?? res.received);
  }

  it('absolute-form targets, with and without credentials', async () => {
    for (const target of targets(document, String(agentId))) {
      await absolute('absolute, no credentials', target, target.path, false);
      if (target.method === 'GET')
        await absolute(
          'absolute, repeated query',
          target,
          target.path + queryOf(target.query, ['1', 'x']),
          true,
        );
    }
    assert.deepEqual(failures, []);
  });

  it('repeated, NUL and out-of-range query parameters and path values', async () => {
    for (const target of targets(document, String(agentId)))
      await call('repeated query', target, target.path + queryOf(target.query, QUERY_VALUES));
    for (const value of ['%00', '99999999999999999999'])
      for (const target of targets(document, value).filter((t) => t.path.includes(value)))
        await call(`path ${value}`, target, target.path);
    assert.deepEqual(failures, []);
  });

  it('deeply nested and NUL-holding bodies, repeated form fields', async () => {
    const withBody = targets(document, String(agentId)).filter(
      (t) => t.method !== 'GET' && t.method !== 'HEAD',
    );
    for (const target of withBody) {
      const fields = target.body.length ? target.body : ['value'];
      const each = (value: (field: string) => unknown) =>
        JSON.stringify(Object.fromEntries(fields.map((f) => [f, value(f)])));
      // Arrays nested under each field but the last, an object nested under that one.
      const nested = (f: string) =>
        f === fields.at(-1)
          ? JSON.parse('{"a":'.repeat(DEEP) + '"x"' + '}'.repeat(DEEP))
          : deepArray(NUL);
      await call('nested', target, target.path, each(nested), 'application/json');
      await call(
        'NUL strings',
        target,
        target.path,
        each((f) => `${f}${NUL}`),
        'application/json',
      );
      const form = fields.flatMap((f) => [`${f}=1`, `${f}=%00`, `${f}=x`]).join('&');
      await call(
        'repeated form fields',
        target,
        target.path,
        form,
        'application/x-www-form-urlencoded',
      );
    }
    assert.deepEqual(failures, []);
  });

  it('the Owner was still the Owner throughout (the fuzz reached the handlers)', async () => {
    const identity = await server.get(key, '/v1/identity');
    assert.equal(identity.status, 200, identity.text);
    assert.equal(identity.body.user.role, 'Owner');
    assert.ok(requests > 800, `${requests} requests`);
  });
});
