import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Agent, request } from 'undici';
import { type TestServer, PUBLIC_URL, basic, startServer } from '../support/server.js';
import { spawnServer, waitFor } from '../support/process.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The one date rule (src/platform/time.ts): a date-time without a zone is UTC. The server runs here with
 * TZ=America/New_York, where `Date.parse('2025-01-01T10:00')` is 15:00Z; every date input stores 10:00Z.
 */
describe('date inputs on a server in another time zone', () => {
  let db: TestServer;
  let server: ReturnType<typeof spawnServer>;
  let base = '';
  let key = '';
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false }, pipelining: 0 });

  async function call(method: string, path: string, body?: unknown) {
    const res = await request(`${base}${path}`, {
      method: method as 'GET',
      dispatcher,
      headers: {
        authorization: basic(key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  }

  before(async () => {
    db = await startServer({ api: false });
    key = (await db.newAccount()).owner.key;
    const port = await freePort();
    base = `https://127.0.0.1:${port}`;
    server = spawnServer({
      TZ: 'America/New_York',
      HEARTH_ROLE: 'api',
      DATABASE_URL: db.ctx.config.databaseUrl,
      HEARTH_DATA_DIR: db.dataDir,
      HEARTH_PUBLIC_URL: PUBLIC_URL,
      HEARTH_RATE_LIMITS: 'off',
      HEARTH_LOG_LEVEL: 'warn',
      PORT: String(port),
    });
    await waitFor(async () => {
      try {
        const res = await request(`${base}/livez`, { dispatcher });
        await res.body.dump();
        return res.statusCode === 200;
      } catch {
        return false;
      }
    });
  });
  after(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await dispatcher.close();
    await db?.close();
  });

  it('stores 2025-01-01T10:00 as 10:00Z in every date input', async () => {
    const tz = await call('GET', '/livez');
    assert.equal(tz.status, 200, server.output());
    const event = await call('POST', '/v1/events', {
      source: 'tz.example.com',
      type: 'General Inquiry',
      occurredAt: '2025-01-01T10:00',
      person: {
        firstName: 'Zone',
        emails: [{ value: `tz-${process.pid}-${Date.now()}@example.com` }],
      },
    });
    assert.ok(event.status === 200 || event.status === 201, JSON.stringify(event.body));
    const personId = event.body.id;
    const events = await call('GET', `/v1/events?personId=${personId}`);
    assert.equal(events.body.events[0].occurred, '2025-01-01T10:00:00Z');

    const appointment = await call('POST', '/v1/appointments', {
      title: 'Viewing',
      start: '2025-01-01T10:00',
      end: '2025-01-01 11:00',
    });
    assert.equal(appointment.status, 201, JSON.stringify(appointment.body));
    assert.equal(appointment.body.start, '2025-01-01T10:00:00Z');
    assert.equal(appointment.body.end, '2025-01-01T11:00:00Z');

    const task = await call('POST', '/v1/tasks', {
      personId,
      name: 'Call back',
      dueDateTime: '2025-01-01T10:00',
    });
    assert.equal(task.status, 201, JSON.stringify(task.body));
    assert.equal(task.body.dueDateTime, '2025-01-01T10:00:00Z');

    const email = await call('POST', '/v1/emails', { personId, sentAt: '2025-01-01T10:00' });
    assert.equal(email.status, 201, JSON.stringify(email.body));
    assert.equal(email.body.sentAt, '2025-01-01T10:00:00Z');
  });

  it('refuses dates that Date.parse would guess at, naming the field', async () => {
    // A person of this account, so the email's only fault is its date.
    const person = await call('POST', '/v1/people', { firstName: 'Loose', lastName: 'Dates' });
    assert.equal(person.status, 201, JSON.stringify(person.body));
    const cases: [string, string, unknown, RegExp][] = [
      [
        'POST',
        '/v1/appointments',
        { title: 'x', start: 'March 7, 2025', end: '2025-03-07T11:00Z' },
        /start/,
      ],
      ['POST', '/v1/emails', { personId: person.body.id, sentAt: 'March 7, 2025' }, /sentAt/],
      ['GET', '/v1/people?createdAfter=March%207%2C%202025', undefined, /createdAfter/],
      ['GET', '/v1/appointments?startAfter=3%2F7%2F2025', undefined, /startAfter/],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await call(method, path, body);
      assert.equal(res.status, 400, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.errorMessage, field);
    }
  });
});
