import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers.js';

// With the default rate limits on, as `npm start` runs: the docs pages pass through every hook.
describe('API documentation', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { HEARTH_RATE_LIMITS: '' } });
  });
  after(async () => server.close());

  it('serves the browsable reference at /docs', async () => {
    const page = await server.call('GET', '/docs/');
    assert.equal(page.status, 200, page.text.slice(0, 300));
    assert.match(page.text, /swagger/i);
    const root = await server.call('GET', '/docs');
    assert.ok(root.status === 200 || root.status === 302, `GET /docs answered ${root.status}`);
  });

  it('serves the OpenAPI document with every resource and the two auth schemes', async () => {
    const res = await server.call('GET', '/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, '3.0.3');
    for (const path of ['/v1/people', '/v1/people/{id}', '/v1/events', '/v1/webhooks', '/v1/notes', '/v1/deals', '/v1/stages', '/v1/pipelines', '/v1/emEvents', '/v1/templates', '/v1/rateLimit/usage', '/oauth/token']) {
      assert.ok(doc.paths[path], `OpenAPI document lacks ${path}`);
    }
    assert.ok(doc.components.securitySchemes.apiKey);
  });
});
