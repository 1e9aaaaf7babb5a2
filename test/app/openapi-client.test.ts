import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import createClient from 'openapi-fetch';
import type { paths } from '../../clients/hearth-api.js';
import { API_TYPES_FILE, apiTypesSource } from '../../scripts/api-types.js';
import { basic, startServer, type TestServer } from '../support/server.js';

/**
 * The typed client generated from the OpenAPI document (clients/hearth-api.d.ts, openapi-typescript)
 * driving the real API through openapi-fetch: what compiles here is what the document promises.
 */
describe('the typed client generated from the OpenAPI document', () => {
  let server: TestServer;
  let dispatcher: Agent;
  const clientFor = (key: string, headers: Record<string, string> = {}) =>
    createClient<paths>({
      baseUrl: server.url,
      headers: { authorization: basic(key), ...headers },
      // openapi-fetch builds a global Request; undici's own fetch carries the test CA.
      fetch: async (request) =>
        (await undiciFetch(request.url, {
          method: request.method,
          headers: [...request.headers],
          body: request.body ? await request.text() : undefined,
          dispatcher,
        })) as unknown as Response,
    });

  before(async () => {
    server = await startServer({ env: { HEARTH_WEBHOOK_ALLOW_PRIVATE: '1' } });
    dispatcher = new Agent({ connect: { ca: server.cert, servername: 'localhost' } });
  });
  after(async () => {
    await dispatcher?.close();
    await server?.close();
  });

  it('clients/hearth-api.d.ts is what the document generates (npm run openapi:types)', async () => {
    const document = (await server.call('GET', '/openapi.json')).body;
    const expected = await apiTypesSource(document);
    assert.ok(
      readFileSync(API_TYPES_FILE, 'utf8') === expected,
      'clients/hearth-api.d.ts is stale: run `npm run openapi:types`',
    );
  });

  it('sends a lead event and finds the person it created', async () => {
    const account = await server.newAccount();
    const api = clientFor(account.owner.key);
    const email = `typed-${Date.now()}@example.com`;
    const sent = await api.POST('/v1/events', {
      body: {
        type: 'Registration',
        source: 'typed-client.example',
        person: { firstName: 'Tia', lastName: 'Typed', emails: [{ value: email }] },
      },
      params: { header: { 'Idempotency-Key': `typed-${email}` } },
    });
    assert.equal(sent.response.status, 201, JSON.stringify(sent.error));

    const found = await api.GET('/v1/people', { params: { query: { email } } });
    assert.equal(found.response.status, 200);
    const people = found.data?.people ?? [];
    assert.equal(people.length, 1);
    assert.equal(people[0].firstName, 'Tia');
    assert.equal(found.data?._metadata.total, 1);

    const one = await api.GET('/v1/people/{id}', { params: { path: { id: people[0].id } } });
    assert.equal(one.data?.lastName, 'Typed');
  });

  it('answers errors in the documented shape', async () => {
    const account = await server.newAccount();
    const api = clientFor(account.owner.key);
    const missing = await api.GET('/v1/people/{id}', { params: { path: { id: 2_000_000 } } });
    assert.equal(missing.response.status, 404);
    assert.match(missing.error?.errorMessage ?? '', /not found/);
  });

  it('registers, reads and removes a webhook as a system', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const api = clientFor(account.owner.key, {
      'x-system': system.name,
      'x-system-key': system.key,
    });
    const created = await api.POST('/v1/webhooks', {
      body: { event: 'peopleCreated', url: 'https://127.0.0.1:9/hearth-hook' },
    });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    const id = created.data!.id;
    assert.equal(created.data?.event, 'peopleCreated');

    const listed = await api.GET('/v1/webhooks', { params: { query: { event: 'peopleCreated' } } });
    assert.deepEqual(
      listed.data?.webhooks.map((w) => w.id),
      [id],
    );
    const removed = await api.DELETE('/v1/webhooks/{id}', { params: { path: { id } } });
    assert.equal(removed.response.status, 204);
  });
});
