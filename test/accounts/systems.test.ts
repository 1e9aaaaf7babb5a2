import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import type { Clock } from '../../src/platform/time.js';

const T0 = Date.UTC(2030, 2, 10, 9, 0, 0);
const HOUR = 3_600_000;

function movableClock(start = T0): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => now, set: (ms: number) => (now = ms) };
}

const sys = (s: { name: string; key: string }) => ({ 'x-system': s.name, 'x-system-key': s.key });

describe('/v1/systems: registered systems and their hourly rate-limit usage (Owner/Admin)', () => {
  const clock = movableClock();
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-systems-'));
  let server: TestServer;
  let account: TestAccount;
  let system: { name: string; key: string };
  let systemId: number;
  before(async () => {
    const limits = path.join(dir, 'limits.json');
    writeFileSync(limits, JSON.stringify({ withSystemKey: { global: 3 } }));
    server = await startServer({
      env: { HEARTH_RATE_LIMITS: limits, HEARTH_WEBHOOK_ALLOW_PRIVATE: '1' },
      clock,
    });
    account = await server.newAccount();
    system = await server.newSystem('Chart');
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists systems by name with this account’s webhook count, never a key; Owner and Admin only', async () => {
    const other = await server.newAccount();
    const hook = await server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'peopleCreated', url: 'https://127.0.0.1:9/a' },
      sys(system),
    );
    assert.equal(hook.status, 201, hook.text);
    const all: { id: number; name: string; webhooks: number }[] = [];
    let next: string | null = '/v1/systems?limit=2';
    while (next) {
      const page = await server.get(account.owner.key, next);
      assert.equal(page.status, 200, page.text);
      assert.equal(page.body._metadata.collection, 'systems');
      all.push(...page.body.systems);
      next = page.body._metadata.nextLink
        ? new URL(page.body._metadata.nextLink).pathname +
          new URL(page.body._metadata.nextLink).search
        : null;
    }
    const names = all.map((s) => s.name);
    assert.deepEqual(names, [...names].sort(), 'sorted by name across pages');
    const mine = all.find((s) => s.name === system.name)!;
    assert.ok(mine, 'the registered system is listed');
    systemId = mine.id;
    assert.equal(mine.webhooks, 1);
    assert.deepEqual(Object.keys(mine).sort(), ['created', 'id', 'name', 'webhooks']);
    assert.doesNotMatch(JSON.stringify(all), /hsk_|key/i);
    // Another account sees the same system, without this account's webhook.
    const seen = await server.get(other.owner.key, `/v1/systems/${systemId}`);
    assert.equal(seen.status, 200, seen.text);
    assert.equal(seen.body.webhooks, 0);

    const admin = await account.addUser('Admin');
    assert.equal((await server.get(admin.key, `/v1/systems/${systemId}`)).status, 200);
    for (const role of ['Agent', 'Lender'] as const) {
      const user = await account.addUser(role);
      assert.equal((await server.get(user.key, '/v1/systems')).status, 403);
      assert.equal((await server.get(user.key, `/v1/systems/${systemId}/usage`)).status, 403);
    }
    assert.equal((await server.get(account.owner.key, '/v1/systems/999999')).status, 404);
    assert.equal((await server.get(account.owner.key, '/v1/systems/999999/usage')).status, 404);
  });

  it('reports usage hour by hour, zeros included, with rate-limited requests and the limits', async () => {
    clock.set(T0 + 2 * HOUR + 60_000);
    for (let i = 0; i < 5; i++) await server.get(account.owner.key, '/v1/users', sys(system));
    clock.set(T0 + 4 * HOUR + 60_000);
    await server.get(account.owner.key, '/v1/events', sys(system));
    const res = await server.get(account.owner.key, `/v1/systems/${systemId}/usage?hours=6`);
    assert.equal(res.status, 200, res.text);
    const body = res.body;
    assert.equal(body.system, system.name);
    assert.equal(body.hours.length, 6);
    assert.equal(body.from, '2030-03-10T08:00:00Z');
    assert.deepEqual(
      body.hours.map((h: { totalRequests: number }) => h.totalRequests),
      [0, 1, 0, 5, 0, 1],
    );
    const burst = body.hours[3];
    assert.equal(burst.hour, '2030-03-10T11:00:00Z');
    assert.equal(burst.rateLimitedRequests, 2);
    assert.deepEqual(burst.contexts, { global: 5 });
    assert.deepEqual(body.hours[5].contexts, { events: 1 });
    // 09:00: the first test's webhook registration, sent as the system.
    assert.deepEqual(body.hours[1].contexts, { global: 1 });
    assert.equal(body.totalRequests, 7);
    assert.equal(body.rateLimitedRequests, 2);
    assert.deepEqual(body.peakHour, { hour: '2030-03-10T11:00:00Z', requests: 5 });
    assert.equal(body.limits.withSystemKey.global, 3);
    assert.equal(body.enforced, true);
    // The admin's own reads are not counted against the system.
    const again = await server.get(account.owner.key, `/v1/systems/${systemId}/usage`);
    assert.equal(again.body.hours.length, 24);
    assert.equal(again.body.totalRequests, 7);
    assert.equal(
      (await server.get(account.owner.key, `/v1/systems/${systemId}/usage?hours=0`)).status,
      400,
    );
    assert.equal(
      (await server.get(account.owner.key, `/v1/systems/${systemId}/usage?hours=500`)).status,
      400,
    );
  });
});
