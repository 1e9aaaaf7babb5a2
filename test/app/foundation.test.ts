import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';

describe('foundation: server, auth, errors', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('answers /health without a key', async () => {
    const res = await server.call('GET', '/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
  });

  it('refuses a missing key with 401 and WWW-Authenticate', async () => {
    const res = await server.call('GET', '/v1/people');
    assert.equal(res.status, 401);
    assert.match(res.headers['www-authenticate'] as string, /^Basic/);
    assert.match(res.body.errorMessage, /API key/);
  });

  it('refuses a wrong key with 401', async () => {
    const res = await server.get('hk_not-a-real-key', '/v1/people');
    assert.equal(res.status, 401);
    assert.equal(res.body.errorMessage, 'Invalid API key');
  });

  it('creates and reads a person', async () => {
    const { owner } = await server.newAccount();
    const created = await server.post(owner.key, '/v1/people', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      emails: [{ value: 'ada@example.com' }],
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.name, 'Ada Lovelace');
    assert.equal(created.body.stage, 'Lead');
    assert.equal(created.body.createdVia, 'API');
    const got = await server.get(owner.key, `/v1/people/${created.body.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.emails[0].value, 'ada@example.com');
    const list = await server.get(owner.key, '/v1/people');
    assert.equal(list.body._metadata.total, 1);
    assert.equal(list.body.people[0].id, created.body.id);
  });

  it('never hands out the id of a deleted person again', async () => {
    const { owner } = await server.newAccount();
    const first = await server.post(owner.key, '/v1/people', { firstName: 'First' });
    const second = await server.post(owner.key, '/v1/people', { firstName: 'Second' });
    assert.equal((await server.del(owner.key, `/v1/people/${second.body.id}`)).status, 204);
    const third = await server.post(owner.key, '/v1/people', { firstName: 'Third' });
    assert.ok(
      third.body.id > second.body.id,
      `id ${third.body.id} reuses a deleted id (${second.body.id})`,
    );
    assert.ok(second.body.id > first.body.id);
  });
});
