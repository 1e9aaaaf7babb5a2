import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';

describe('Idempotency-Key on POST /v1', () => {
  let server: TestServer;
  let key: string;
  let nowMs = Date.now();
  before(async () => {
    server = await startServer({ clock: { now: () => nowMs } });
    key = (await server.newAccount()).owner.key;
  });
  after(async () => server.close());

  const countPeople = async (apiKey: string, email: string) =>
    (await server.get(apiKey, `/v1/people?email=${encodeURIComponent(email)}`)).body._metadata
      .total as number;

  it('a retry with the same key and body gets the stored answer without redoing the work', async () => {
    const email = `${unique('idem')}@example.com`;
    const body = { firstName: 'Ida', emails: [{ value: email }] };
    const headers = { 'idempotency-key': unique('k') };
    const first = await server.post(key, '/v1/people', body, headers);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await server.post(key, '/v1/people', body, headers);
    assert.equal(again.status, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.text, first.text);
    assert.match(String(again.headers['content-type']), /application\/json/);
    assert.equal(await countPeople(key, email), 1);
  });

  it('the same key with a different body is a 422; another account has its own keys', async () => {
    const headers = { 'idempotency-key': unique('k') };
    assert.equal((await server.post(key, '/v1/people', { firstName: 'A' }, headers)).status, 201);
    const other = await server.post(key, '/v1/people', { firstName: 'B' }, headers);
    assert.equal(other.status, 422, other.text);
    assert.match(other.body.errorMessage, /different request/);
    const otherAccount = (await server.newAccount()).owner.key;
    const theirs = await server.post(otherAccount, '/v1/people', { firstName: 'A' }, headers);
    assert.equal(theirs.status, 201);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);
  });

  it('concurrent requests with one key do the work once; the others get 409 or the answer', async () => {
    const email = `${unique('race')}@example.com`;
    const body = { firstName: 'Race', emails: [{ value: email }] };
    const headers = { 'idempotency-key': unique('k') };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => server.post(key, '/v1/people', body, headers)),
    );
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.includes(201), statuses.join());
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(),
    );
    for (const busy of answers.filter((a) => a.status === 409))
      assert.match(busy.body.errorMessage, /still being processed/);
    assert.equal(await countPeople(key, email), 1);
  });

  it('lead events with a key are recorded once', async () => {
    const email = `${unique('lead')}@example.com`;
    const body = {
      source: 'idem.example.com',
      type: 'General Inquiry',
      message: 'once',
      person: { firstName: 'Lee', emails: [{ value: email }] },
    };
    const headers = { 'idempotency-key': unique('k') };
    const first = await server.post(key, '/v1/events', body, headers);
    assert.equal(first.status, 201, first.text);
    const again = await server.post(key, '/v1/events', body, headers);
    assert.equal(again.status, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const events = await server.get(key, `/v1/events?personId=${first.body.id}`);
    assert.equal(events.body._metadata.total, 1, events.text);
  });

  it('errors are stored too, keys expire after 24 hours, and bad keys are refused', async () => {
    const headers = { 'idempotency-key': unique('k') };
    const missing = await server.post(
      key,
      '/v1/notes',
      { personId: 2_000_000_000, body: 'x' },
      headers,
    );
    assert.ok(missing.status >= 400 && missing.status < 500, missing.text);
    const replayed = await server.post(
      key,
      '/v1/notes',
      { personId: 2_000_000_000, body: 'x' },
      headers,
    );
    assert.equal(replayed.status, missing.status);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');

    const email = `${unique('exp')}@example.com`;
    const body = { firstName: 'Exp', emails: [{ value: email }] };
    const expiring = { 'idempotency-key': unique('k') };
    assert.equal((await server.post(key, '/v1/people', body, expiring)).status, 201);
    nowMs += 25 * 3600_000;
    const later = await server.post(key, '/v1/people', body, expiring);
    assert.equal(later.headers['idempotent-replayed'], undefined, later.text);

    const bad = await server.post(key, '/v1/people', body, { 'idempotency-key': 'x'.repeat(256) });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /Idempotency-Key/);
  });
});
