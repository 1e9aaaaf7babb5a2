import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/platform/config.js';

describe('loadConfig', () => {
  let dir: string;
  let pem: string;
  let goodLimits: string;
  let badJson: string;
  let badShape: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'hearth-config-'));
    pem = path.join(dir, 'x.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n');
    goodLimits = path.join(dir, 'limits.json');
    writeFileSync(
      goodLimits,
      JSON.stringify({
        withSystemKey: { global: 250 },
        withoutSystemKey: { global: 125 },
        systems: { Zillow: { global: 1000 } },
      }),
    );
    badJson = path.join(dir, 'bad.json');
    writeFileSync(badJson, '{ not json');
    badShape = path.join(dir, 'shape.json');
    writeFileSync(badShape, JSON.stringify({ withSystemKey: { global: -1 } }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const base = () => ({ HEARTH_DATA_DIR: dir });

  it('defaults match CONTRACT.md', () => {
    const c = loadConfig(base());
    assert.equal(c.port, 8443);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.databaseUrl, `sqlite:${path.join(dir, 'hearth.db')}`);
    assert.equal(c.redisUrl, null);
    assert.equal(c.publicUrl, 'https://localhost:8443');
    assert.equal(c.trustProxy, false);
    assert.equal(c.role, 'all');
    assert.equal(c.webhookAllowPrivate, false);
    assert.deepEqual(c.webhookRetrySchedule, [60, 300, 300, 600, 1800]);
    assert.equal(c.webhookRetryWindow, 28800);
    assert.equal(c.webhookTimeout, 10);
    assert.equal(c.signatureHeader, 'Hearth-Signature');
    assert.equal(c.rateLimits, 'default');
    assert.equal(c.ownerEmail, 'owner@localhost');
    assert.ok(Object.isFrozen(c));
  });

  it('reads good values', () => {
    const c = loadConfig({
      ...base(),
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@db:5432/hearth',
      REDIS_URL: 'redis://127.0.0.1:6379',
      HEARTH_PUBLIC_URL: 'https://crm.example.com/',
      HEARTH_TLS_CERT: pem,
      HEARTH_TLS_KEY: pem,
      HEARTH_TRUST_PROXY: '1',
      HEARTH_ROLE: 'worker',
      HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
      HEARTH_WEBHOOK_CA: pem,
      HEARTH_WEBHOOK_RETRY_SCHEDULE: '1, 2,3',
      HEARTH_WEBHOOK_RETRY_WINDOW: '60',
      HEARTH_WEBHOOK_TIMEOUT: '5',
      HEARTH_SIGNATURE_HEADER: 'X-Sig',
      HEARTH_RATE_LIMITS: goodLimits,
    });
    assert.equal(c.port, 9000);
    assert.equal(c.publicUrl, 'https://crm.example.com');
    assert.equal(c.trustProxy, true);
    assert.equal(c.role, 'worker');
    assert.deepEqual(c.webhookRetrySchedule, [1, 2, 3]);
    assert.deepEqual(c.rateLimits, {
      withSystemKey: { global: 250 },
      withoutSystemKey: { global: 125 },
      systems: { Zillow: { global: 1000 } },
    });
    assert.equal(loadConfig({ ...base(), HEARTH_RATE_LIMITS: 'off' }).rateLimits, 'off');
    assert.equal(
      loadConfig({ ...base(), DATABASE_URL: 'sqlite::memory:' }).databaseUrl,
      'sqlite::memory:',
    );
    assert.equal(loadConfig({ ...base(), PORT: '0' }).port, 0);
    assert.equal(
      loadConfig({ ...base(), HEARTH_OWNER_EMAIL: ' Broker@Example.com ' }).ownerEmail,
      'broker@example.com',
    );
  });

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db/x' }],
    ['DATABASE_URL', { DATABASE_URL: 'sqlite:relative/path.db' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://db:port/hearth' }],
    ['REDIS_URL', { REDIS_URL: 'http://127.0.0.1:6379' }],
    ['REDIS_URL', { REDIS_URL: 'not a url' }],
    ['HEARTH_PUBLIC_URL', { HEARTH_PUBLIC_URL: 'crm.example.com' }],
    ['HEARTH_PUBLIC_URL', { HEARTH_PUBLIC_URL: 'ftp://crm.example.com' }],
    [
      'HEARTH_TLS_CERT',
      { HEARTH_TLS_CERT: '/nonexistent/cert.pem', HEARTH_TLS_KEY: '/nonexistent/key.pem' },
    ],
    ['HEARTH_TLS_KEY', { HEARTH_TLS_CERT: 'PEM' }],
    ['HEARTH_TLS_CERT', { HEARTH_TLS_KEY: 'PEM' }],
    ['HEARTH_TRUST_PROXY', { HEARTH_TRUST_PROXY: 'yes' }],
    ['HEARTH_ROLE', { HEARTH_ROLE: 'boss' }],
    ['HEARTH_WEBHOOK_ALLOW_PRIVATE', { HEARTH_WEBHOOK_ALLOW_PRIVATE: '2' }],
    ['HEARTH_WEBHOOK_CA', { HEARTH_WEBHOOK_CA: '/nonexistent/ca.pem' }],
    ['HEARTH_WEBHOOK_RETRY_SCHEDULE', { HEARTH_WEBHOOK_RETRY_SCHEDULE: '60,soon' }],
    ['HEARTH_WEBHOOK_RETRY_SCHEDULE', { HEARTH_WEBHOOK_RETRY_SCHEDULE: '60,,300' }],
    ['HEARTH_WEBHOOK_RETRY_SCHEDULE', { HEARTH_WEBHOOK_RETRY_SCHEDULE: '-60' }],
    ['HEARTH_WEBHOOK_RETRY_WINDOW', { HEARTH_WEBHOOK_RETRY_WINDOW: '0' }],
    ['HEARTH_WEBHOOK_RETRY_WINDOW', { HEARTH_WEBHOOK_RETRY_WINDOW: '8h' }],
    ['HEARTH_WEBHOOK_TIMEOUT', { HEARTH_WEBHOOK_TIMEOUT: '1000' }],
    ['HEARTH_WEBHOOK_TIMEOUT', { HEARTH_WEBHOOK_TIMEOUT: '2.5' }],
    ['HEARTH_SIGNATURE_HEADER', { HEARTH_SIGNATURE_HEADER: 'Bad Header:' }],
    ['HEARTH_RATE_LIMITS', { HEARTH_RATE_LIMITS: '/nonexistent/limits.json' }],
    ['HEARTH_RATE_LIMITS', { HEARTH_RATE_LIMITS: 'BAD_JSON' }],
    ['HEARTH_RATE_LIMITS', { HEARTH_RATE_LIMITS: 'BAD_SHAPE' }],
    ['HEARTH_LOG_LEVEL', { HEARTH_LOG_LEVEL: 'loud' }],
    ['HEARTH_OWNER_EMAIL', { HEARTH_OWNER_EMAIL: 'the owner' }],
    ['HEARTH_OWNER_EMAIL', { HEARTH_OWNER_EMAIL: 'owner@localhost <x>' }],
  ];
  for (const [variable, env] of bad) {
    it(`a bad ${variable} (${JSON.stringify(Object.values(env)[0])}) stops loadConfig with one line naming it`, () => {
      const resolved = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [
          k,
          v === 'PEM' ? pem : v === 'BAD_JSON' ? badJson : v === 'BAD_SHAPE' ? badShape : v,
        ]),
      );
      assert.throws(
        () => loadConfig({ ...base(), ...resolved }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError, String(err));
          assert.ok(err.message.includes(variable), err.message);
          assert.ok(!err.message.includes('\n'), `one line: ${err.message}`);
          return true;
        },
      );
    });
  }
});
