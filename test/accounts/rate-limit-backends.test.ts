import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { type TestServer, startServer } from '../support/server.js';
import { CapacityGuard } from '../../src/accounts/rateLimit/capacity.js';
import { LimitTable } from '../../src/accounts/rateLimit/limits.js';
import {
  MemoryWindowStore,
  VERIFIED_SYSTEM,
  type Decision,
} from '../../src/accounts/rateLimit/window.js';
import type { RedisWindowStore } from '../../src/accounts/rateLimit/redis-window.js';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const redisTarget = new URL(REDIS_URL);
const sys = (s: { name: string; key: string }) => ({ 'x-system': s.name, 'x-system-key': s.key });

/** A TCP proxy in front of Redis that the test can cut and restore. */
async function redisProxy(port = 0) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(redisTarget.port || 6379), redisTarget.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('rate limits: backends constructed explicitly', () => {
  it('memory: exact window, Retry-After material and idle clean-up', () => {
    const store = new MemoryWindowStore();
    const d: Decision = { allowed: false, remaining: 0, resetMs: 0 };
    for (let i = 0; i < 40; i++) {
      store.hit(VERIFIED_SYSTEM, 'S', 0, 40, 1000 + i, d);
      assert.equal(d.allowed, true);
    }
    assert.equal(d.remaining, 0);
    store.hit(VERIFIED_SYSTEM, 'S', 0, 40, 10_999, d);
    assert.deepEqual(d, { allowed: false, remaining: 0, resetMs: 1 });
    store.hit(VERIFIED_SYSTEM, 'S', 0, 40, 11_000, d);
    assert.equal(d.allowed, true, 'the request at 1000 left the window at 11000');
    store.sweep(20_000);
    assert.equal(store.size(), 1, 'a bucket used within the window stays');
    store.sweep(21_040);
    assert.equal(store.size(), 0, 'idle buckets are forgotten');
  });

  it('limit table: system overrides apply with the key only; CLI overrides beat the file', () => {
    const table = new LimitTable(
      { withSystemKey: { global: 300 }, systems: { Zillow: { global: 1000 } } },
      [
        { system: '', tier: 'withoutSystemKey', context: 'events', limit: 5 },
        { system: 'Zillow', tier: '', context: 'events', limit: 50 },
        { system: '', tier: '', context: 'global', limit: 400 },
      ],
    );
    assert.deepEqual(table.describe('Zillow').withSystemKey, {
      global: 1000,
      'POST.events': null,
      events: 50,
      'PUT.people': 25,
      notes: 10,
    });
    assert.deepEqual(table.describe('Zillow').withoutSystemKey, {
      global: 400,
      'POST.events': null,
      events: 5,
      'PUT.people': 25,
      'PUT.notes': 10,
    });
    assert.equal(table.describe('Other').withSystemKey.global, 400);
  });

  it('capacity guard trips on sustained lag only and recovers', () => {
    const guard = new CapacityGuard(1000, 3);
    guard.record(5000);
    guard.record(3000);
    assert.equal(guard.overloaded, false, 'a couple of long blocks (start-up) are not overload');
    guard.record(1500);
    assert.equal(guard.overloaded, true);
    guard.record(10);
    assert.equal(guard.overloaded, false);
  });
});

describe('rate limits: Redis shared by two instances, and Redis going away', () => {
  let reachable = true;
  before(async () => {
    reachable = await new Promise<boolean>((resolve) => {
      const s = net.connect(Number(redisTarget.port || 6379), redisTarget.hostname);
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
  });

  it('two instances share one window', async (t) => {
    if (!reachable) return t.skip('no Redis at ' + REDIS_URL);
    const env = { HEARTH_RATE_LIMITS: '', REDIS_URL };
    // One instant for both instances: on a loaded machine twenty requests can outlast the window,
    // and the counts this test reads would then recover as it slides.
    const instant = Date.now();
    const clock = { now: () => instant };
    const one = await startServer({ env, clock });
    const two = await startServer({ env, clock });
    try {
      // Both use their own SQLite file: register the same system in both.
      const key1 = (await one.newAccount()).owner.key;
      const key2 = (await two.newAccount()).owner.key;
      const system = await one.newSystem('Shared');
      if (!process.env.TEST_DATABASE_URL) {
        await two.ctx.db
          .insertInto('systems')
          .values(
            await one.ctx.db
              .selectFrom('systems')
              .select(['name', 'key_hash', 'created_at'])
              .where('name', '=', system.name)
              .executeTakeFirstOrThrow(),
          )
          .execute();
      }
      assert.equal(one.app!.rateLimiter.store.name, 'redis');
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) {
        const server = i % 2 === 0 ? one : two;
        const res = await server.get(i % 2 === 0 ? key1 : key2, '/v1/events', sys(system));
        assert.equal(res.status, 200, res.text);
        seen.push(Number(res.headers['x-ratelimit-remaining']));
      }
      assert.deepEqual(
        seen,
        Array.from({ length: 20 }, (_, i) => 19 - i),
      );
      const refused = await two.get(key2, '/v1/events', sys(system));
      assert.equal(refused.status, 429);
      assert.match(String(refused.headers['retry-after']), /^([1-9]|10)$/);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('fails open while Redis is unreachable and enforces again when it returns', async (t) => {
    if (!reachable) return t.skip('no Redis at ' + REDIS_URL);
    let proxy = await redisProxy();
    const port = proxy.port;
    const server: TestServer = await startServer({
      env: { HEARTH_RATE_LIMITS: '', REDIS_URL: `redis://127.0.0.1:${port}` },
    });
    try {
      const key = (await server.newAccount()).owner.key;
      const system = await server.newSystem('Flaky');
      const store = server.app!.rateLimiter.store as RedisWindowStore;
      const first = await server.get(key, '/v1/users', sys(system));
      assert.equal(first.headers['x-ratelimit-remaining'], '249');

      await proxy.stop();
      for (let i = 0; i < 3; i++) {
        const res = await server.get(key, '/v1/users', sys(system));
        assert.equal(res.status, 200, 'served while Redis is away');
      }
      assert.ok(store.stats.failOpen >= 3, 'fail-open checks are counted');

      proxy = await redisProxy(port);
      let remaining = '';
      for (let i = 0; i < 100 && remaining !== '248'; i++) {
        await new Promise((r) => setTimeout(r, 100)); // ioredis reconnects with a backoff of its own
        const res = await server.get(key, '/v1/users', sys(system));
        remaining = String(res.headers['x-ratelimit-remaining']);
      }
      assert.equal(remaining, '248', 'the shared window is used again once Redis answers');
    } finally {
      await server.close();
      await proxy.stop();
    }
  });

  it('serves normally when Redis never answers (nothing listening)', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const server = await startServer({
      env: { HEARTH_RATE_LIMITS: '', REDIS_URL: `redis://127.0.0.1:${port}` },
    });
    try {
      const key = (await server.newAccount()).owner.key;
      const res = await server.get(key, '/v1/users');
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-context'], 'global');
    } finally {
      await server.close();
    }
  });
});

describe('capacity protection over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('answers 429 with Retry-After while overloaded, and recovers', async () => {
    const key = (await server.newAccount()).owner.key;
    const guard = server.app!.capacityGuard;
    guard.stop(); // feed the samples by hand: deterministic
    for (let i = 0; i < guard.strikes; i++) guard.record(5000);
    const refused = await server.get(key, '/v1/users');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '2');
    assert.match(refused.body.errorMessage, /capacity/);
    assert.equal((await server.call('GET', '/health')).status, 200, '/health is not refused');
    guard.record(1);
    assert.equal((await server.get(key, '/v1/users')).status, 200);
  });
});
