import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestServer, startServer, unique } from '../support/server.js';
import type { Clock } from '../../src/platform/time.js';
import { setRateLimit, RateLimitCommandError } from '../../src/accounts/rateLimit/overrides.js';

const T0 = Date.UTC(2030, 0, 15, 9, 0, 0);

function movableClock(start = T0): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => now, set: (ms: number) => (now = ms) };
}

const dir = mkdtempSync(path.join(tmpdir(), 'hearth-rl-'));
function limitsFile(content: unknown): string {
  const file = path.join(dir, `${unique('limits')}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const sys = (s: { name: string; key: string }) => ({ 'x-system': s.name, 'x-system-key': s.key });

/** Backend of the suite: Redis when TEST_REDIS_URL is set, in process otherwise. */
const backend = process.env.TEST_REDIS_URL ? 'redis' : 'memory';

describe(`rate limits (${backend}): defaults, contexts and headers`, () => {
  let server: TestServer;
  let key: string;
  let personId: number;
  let system: { name: string; key: string };
  before(async () => {
    server = await startServer({ env: { HEARTH_RATE_LIMITS: '' } });
    key = (await server.newAccount()).owner.key;
    system = await server.newSystem('Limits');
    personId = (await server.post(key, '/v1/people', { firstName: 'Rate', lastName: 'Limited' }))
      .body.id;
  });
  after(async () => server.close());

  const expect = (res: { headers: Record<string, unknown> }, context: string, limit: number) => {
    assert.equal(res.headers['x-ratelimit-context'], context);
    assert.equal(res.headers['x-ratelimit-limit'], String(limit));
    assert.equal(res.headers['x-ratelimit-window'], '10');
    assert.match(String(res.headers['x-ratelimit-remaining']), /^\d+$/);
  };

  it('puts every endpoint with a valid system key in its context with the interface defaults', async () => {
    const h = sys(system);
    expect(await server.get(key, `/v1/people/${personId}`, h), 'global', 250);
    expect(await server.get(key, '/v1/events', h), 'events', 20);
    expect(await server.get(key, `/v1/events/${personId}`, h), 'events', 20);
    expect(
      await server.put(key, `/v1/people/${personId}`, { background: 'x' }, h),
      'PUT.people',
      25,
    );
    expect(await server.get(key, '/v1/notes', h), 'notes', 10);
    expect(await server.put(key, '/v1/notes/999999', { body: 'x' }, h), 'notes', 10);
    const posted = await server.post(
      key,
      '/v1/events',
      { type: 'General Inquiry', person: { firstName: 'Lead' } },
      h,
    );
    assert.equal(posted.headers['x-ratelimit-context'], 'POST.events');
    assert.equal(
      posted.headers['ratelimit-policy'],
      undefined,
      'an unlimited context has no policy',
    );
  });

  it('gives lower limits without a valid system key, and PUT.notes instead of notes', async () => {
    const h = { 'x-system': system.name, 'x-system-key': 'wrong' };
    expect(await server.get(key, `/v1/people/${personId}`, h), 'global', 125);
    expect(await server.get(key, '/v1/events'), 'events', 10);
    expect(await server.put(key, `/v1/people/${personId}`, { background: 'y' }), 'PUT.people', 25);
    expect(await server.put(key, '/v1/notes/999999', { body: 'x' }), 'PUT.notes', 10);
    expect(await server.get(key, '/v1/notes'), 'global', 125);
  });

  it('carries the headers on error responses and not outside /v1', async () => {
    const unauthorized = await server.get('hk_wrong', '/v1/people');
    assert.equal(unauthorized.status, 401);
    expect(unauthorized, 'global', 125);
    const invalid = await server.get(key, '/v1/people?limit=abc');
    assert.equal(invalid.status, 400, invalid.text);
    expect(invalid, 'global', 125);
    const health = await server.call('GET', '/health');
    assert.equal(health.headers['x-ratelimit-limit'], undefined);
  });

  it('counts down Remaining and shows the IETF headers', async () => {
    const h = sys(await server.newSystem('Count'));
    const first = await server.get(key, `/v1/people/${personId}`, h);
    const second = await server.get(key, `/v1/people/${personId}`, h);
    assert.equal(first.headers['x-ratelimit-remaining'], '249', first.text);
    assert.equal(second.headers['x-ratelimit-remaining'], '248');
    assert.equal(second.headers['ratelimit-policy'], '"global";q=250;w=10');
    assert.match(String(second.headers.ratelimit), /^"global";r=248;t=(9|10)$/);
  });
});

describe(`rate limits (${backend}): exact sliding window with an injected clock`, () => {
  let server: TestServer;
  let key: string;
  const clock = movableClock();
  before(async () => {
    const file = limitsFile({
      withSystemKey: { global: 3, events: 2 },
      withoutSystemKey: { global: 2 },
    });
    server = await startServer({ env: { HEARTH_RATE_LIMITS: file }, clock });
    key = (await server.newAccount()).owner.key;
  });
  after(async () => server.close());

  it('allows the limit, refuses limit+1 with Retry-After, and allows again when the oldest leaves', async () => {
    const h = sys(await server.newSystem('Edge'));
    const at = async (ms: number) => {
      clock.set(T0 + ms);
      return server.get(key, '/v1/users', h);
    };
    assert.equal((await at(0)).headers['x-ratelimit-remaining'], '2');
    assert.equal((await at(1000)).headers['x-ratelimit-remaining'], '1');
    assert.equal((await at(2000)).headers['x-ratelimit-remaining'], '0');
    const refused = await at(3000);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '7');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['x-ratelimit-context'], 'global');
    assert.match(refused.body.errorMessage, /global/);
    const justBefore = await at(9999);
    assert.equal(justBefore.status, 429);
    assert.equal(justBefore.headers['retry-after'], '1', 'never 0');
    const freed = await at(10_000);
    assert.equal(freed.status, 200, 'the request at 0 left the window');
    assert.equal(freed.headers['x-ratelimit-remaining'], '0');
    assert.equal(
      (await at(10_500)).status,
      429,
      'refused requests did not take slots, allowed ones still do',
    );
    assert.equal((await at(11_000)).status, 200);
  });

  it('keeps contexts apart, and systems, tiers and API keys in their own buckets', async () => {
    clock.set(T0 + 100_000);
    const a = await server.newSystem('A');
    const b = await server.newSystem('B');
    for (let i = 0; i < 2; i++)
      assert.equal((await server.get(key, '/v1/events', sys(a))).status, 200);
    assert.equal((await server.get(key, '/v1/events', sys(a))).status, 429);
    assert.equal(
      (await server.get(key, '/v1/users', sys(a))).status,
      200,
      'global is another window',
    );
    assert.equal((await server.get(key, '/v1/events', sys(b))).status, 200, 'another system');
    const spoof = { 'x-system': a.name };
    assert.equal(
      (await server.get(key, '/v1/users', spoof)).status,
      200,
      'a claimed name without key does not drain the real system',
    );
    assert.equal((await server.get(key, '/v1/users', spoof)).status, 200);
    assert.equal((await server.get(key, '/v1/users', spoof)).status, 429);
    const other = (await server.newAccount()).owner.key;
    const noSystemA = await server.get(key, '/v1/users');
    const noSystemB = await server.get(other, '/v1/users');
    assert.equal(
      noSystemA.headers['x-ratelimit-remaining'],
      noSystemB.headers['x-ratelimit-remaining'],
      'one bucket per API key',
    );
  });

  it('never refuses POST.events and counts it', async () => {
    clock.set(T0 + 200_000);
    const h = sys(await server.newSystem('Leads'));
    for (let i = 0; i < 6; i++) {
      const res = await server.post(
        key,
        '/v1/events',
        { type: 'Registration', person: { emails: [{ value: `${unique('lead')}@example.com` }] } },
        h,
      );
      assert.notEqual(res.status, 429);
      assert.equal(res.headers['x-ratelimit-context'], 'POST.events');
    }
  });
});

describe(`rate limits (${backend}): usage and limits endpoints`, () => {
  const clock = movableClock(T0);
  const dbFile = path.join(dir, `${unique('usage')}.db`);
  const env = {
    HEARTH_RATE_LIMITS: limitsFile({ withSystemKey: { global: 3 }, systems: {} }),
    DATABASE_URL: process.env.TEST_DATABASE_URL || `sqlite:${dbFile}`,
  };
  let server: TestServer;
  let key: string;
  let system: { name: string; key: string };
  before(async () => {
    server = await startServer({ env, clock });
    key = (await server.newAccount()).owner.key;
    system = await server.newSystem('Usage');
  });
  after(async () => server.close());

  it('refuses callers without a valid system key', async () => {
    assert.equal((await server.get(key, '/v1/rateLimit/usage')).status, 401);
    assert.equal(
      (
        await server.call('GET', '/v1/rateLimit/limits', {
          headers: { 'x-system': system.name, 'x-system-key': 'nope' },
        })
      ).status,
      401,
    );
  });

  it('reports the limits in force for the caller', async () => {
    const res = await server.call('GET', '/v1/rateLimit/limits', { headers: sys(system) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.system, system.name);
    assert.equal(res.body.window, 10);
    assert.deepEqual(res.body.limits.withSystemKey, {
      global: 3,
      'POST.events': null,
      events: 20,
      'PUT.people': 25,
      notes: 10,
    });
    assert.equal(res.body.limits.withoutSystemKey['PUT.notes'], 10);
  });

  it('reports totals, rate-limited share and the peak hour after a burst, and after a restart', async () => {
    const hourA = T0 + 3_600_000 + 5_000;
    clock.set(hourA);
    for (let i = 0; i < 5; i++) await server.get(key, '/v1/users', sys(system)); // 3 allowed, 2 refused
    await server.get(key, '/v1/events', sys(system));
    clock.set(T0 + 3 * 3_600_000 + 60_000);
    await server.get(key, '/v1/users', sys(system));
    const res = await server.call('GET', '/v1/rateLimit/usage', { headers: sys(system) });
    assert.equal(res.status, 200, res.text);
    // Counted for this system: the two /limits calls of the earlier tests (one without a valid key),
    // the burst of 5 + 1 in hour 10:00, one request at 12:00 and this report itself.
    assert.equal(res.body.totalRequests, 10);
    assert.equal(res.body.rateLimitedRequests, 2);
    assert.equal(res.body.percentRateLimited, 20);
    assert.deepEqual(res.body.peakHour, { hour: '2030-01-15T10:00:00Z', requests: 6 });
    assert.equal(res.body.from, '2030-01-14T13:00:00Z');
    const global = res.body.contexts.find((c: { context: string }) => c.context === 'global');
    assert.equal(global.totalRequests, 9);
    assert.equal(global.rateLimitedRequests, 2);
    const events = res.body.contexts.find((c: { context: string }) => c.context === 'events');
    assert.deepEqual(events, {
      context: 'events',
      totalRequests: 1,
      rateLimitedRequests: 0,
      percentRateLimited: 0,
      peakHour: { hour: '2030-01-15T10:00:00Z', requests: 1 },
    });
    assert.equal(res.body.limits.withSystemKey.global, 3);

    await server.close();
    clock.set(T0 + 3 * 3_600_000 + 120_000);
    server = await startServer({ env, clock });
    const again = await server.call('GET', '/v1/rateLimit/usage', { headers: sys(system) });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.totalRequests, 11, 'counts survived the restart');
    assert.deepEqual(again.body.peakHour, { hour: '2030-01-15T10:00:00Z', requests: 6 });

    clock.set(T0 + 30 * 3_600_000);
    const later = await server.call('GET', '/v1/rateLimit/usage', { headers: sys(system) });
    assert.equal(
      later.body.totalRequests,
      1,
      'the 24-hour window rolled past the burst: only this report',
    );
    assert.deepEqual(later.body.peakHour, { hour: '2030-01-16T15:00:00Z', requests: 1 });
  });

  it('applies an operator override stored with set-rate-limit', async () => {
    clock.set(T0 + 40 * 3_600_000);
    const mine = await server.newSystem('Override');
    const result = await setRateLimit(server.ctx.db, {
      context: 'global',
      limit: '1',
      system: mine.name,
    });
    assert.deepEqual(result, {
      rateLimit: { context: 'global', limit: 1, system: mine.name, tier: null },
    });
    await server.app!.rateLimiter.refreshOverrides();
    assert.equal((await server.get(key, '/v1/users', sys(mine))).headers['x-ratelimit-limit'], '1');
    assert.equal((await server.get(key, '/v1/users', sys(mine))).status, 429);
    assert.equal(
      (await server.get(key, '/v1/users', { 'x-system': mine.name })).headers['x-ratelimit-limit'],
      '125',
      'without the key: tier default',
    );
    await setRateLimit(server.ctx.db, { context: 'global', limit: 'default', system: mine.name });
    await server.app!.rateLimiter.refreshOverrides();
    assert.equal((await server.get(key, '/v1/users', sys(mine))).headers['x-ratelimit-limit'], '3');
    await assert.rejects(
      setRateLimit(server.ctx.db, { context: 'nope', limit: '1' }),
      RateLimitCommandError,
    );
    await assert.rejects(
      setRateLimit(server.ctx.db, { context: 'global', limit: '-1' }),
      RateLimitCommandError,
    );
    await assert.rejects(
      setRateLimit(server.ctx.db, { context: 'global', limit: '5', tier: 'gold' }),
      RateLimitCommandError,
    );
  });
});

after(() => rmSync(dir, { recursive: true, force: true }));
