import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { loadConfig } from '../../src/platform/config.js';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('metrics', () => {
  let server: TestServer;
  let off: TestServer;
  before(async () => {
    server = await startServer({ env: { HEARTH_METRICS_TOKEN: TOKEN } });
    off = await startServer();
  });
  after(async () => {
    await server.close();
    await off.close();
  });

  it('are off unless HEARTH_METRICS_TOKEN is set', async () => {
    const res = await off.call('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    // No route: a 404, or the web app's page for unknown paths; never metrics.
    assert.ok(!/hearth_|nodejs_/.test(res.text), res.text.slice(0, 200));
    assert.throws(
      () => loadConfig({ HEARTH_METRICS_TOKEN: 'short' }),
      /HEARTH_METRICS_TOKEN must be at least 16 characters/,
    );
  });

  it('need the token as a bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN]) {
      const res = await server.call('GET', '/metrics', {
        headers: authorization ? { authorization } : {},
      });
      assert.equal(res.status, 401, res.text);
      assert.match(res.body.errorMessage, /metrics token/);
    }
  });

  it('show request durations by route and status, queues, deliveries, limits, the event loop', async () => {
    const key = (await server.newAccount()).owner.key;
    assert.equal((await server.get(key, '/v1/identity')).status, 200);
    assert.equal((await server.get(key, '/v1/people/0')).status, 400);
    const res = await server.call('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    const text = res.text;
    assert.match(
      text,
      /hearth_http_request_duration_seconds_count\{method="GET",route="\/v1\/identity",status_code="200"\} [1-9]/,
    );
    assert.match(text, /route="\/v1\/people\/:id",status_code="400"/);
    assert.match(text, /hearth_queue_depth\{queue="webhook_deliveries"\} \d+/);
    assert.match(text, /hearth_queue_oldest_age_seconds\{queue="jobs"\} [\d.]+/);
    assert.match(text, /# TYPE hearth_webhook_delivery_attempts_total counter/);
    assert.match(text, /# TYPE hearth_rate_limit_rejections_total counter/);
    assert.match(text, /nodejs_eventloop_lag_seconds \d/);
    if (process.env.TEST_DATABASE_URL)
      assert.match(text, /hearth_db_pool_connections\{state="total"\} \d+/);
  });
});
