import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/server.js';

// With the default rate limits on, as `npm start` runs: the docs pages pass through every hook.
describe('API documentation', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { HEARTH_RATE_LIMITS: '' } });
  });
  after(async () => server.close());

  it('serves the browsable reference at /docs, a page per tag, without script', async () => {
    const page = await server.call('GET', '/docs');
    assert.equal(page.status, 200, page.text.slice(0, 300));
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'(;|$)/);
    assert.equal((await server.call('GET', '/docs/')).status, 200);
    // Every operation of the document is listed, linked to its section on its tag's page.
    const doc = (await server.call('GET', '/openapi.json')).body;
    const people = await server.call('GET', '/docs/people');
    assert.equal(people.status, 200);
    for (const [path, item] of Object.entries(doc.paths as Record<string, object>))
      for (const [method, operation] of Object.entries(
        item as Record<string, { operationId: string; tags: string[] }>,
      )) {
        const slug = operation.tags[0].replace(/[^A-Za-z0-9_-]+/g, '-');
        assert.ok(
          page.text.includes(`href="/docs/${slug}#${operation.operationId}"`),
          `/docs lacks ${method} ${path}`,
        );
      }
    assert.match(people.text, /id="createPeople"/);
    for (const text of [page.text, people.text]) {
      assert.doesNotMatch(text, /<script/, 'no script at all');
      assert.doesNotMatch(text, /(src|href)="https?:/, 'nothing from elsewhere');
    }
    const webhooks = await server.call('GET', '/docs/webhook-deliveries');
    assert.match(webhooks.text, /id="peopleCreated"/);
    const missing = await server.call('GET', '/docs/nothing-here');
    assert.equal(missing.status, 404);
    assert.match(missing.body.errorMessage, /reference page nothing-here not found/);
  });

  it('serves the OpenAPI document with every resource and the two auth schemes', async () => {
    const res = await server.call('GET', '/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, '3.1.0');
    for (const path of [
      '/v1/people',
      '/v1/people/{id}',
      '/v1/events',
      '/v1/webhooks',
      '/v1/notes',
      '/v1/deals',
      '/v1/stages',
      '/v1/pipelines',
      '/v1/emEvents',
      '/v1/templates',
      '/v1/rateLimit/usage',
      '/oauth/token',
    ]) {
      assert.ok(doc.paths[path], `OpenAPI document lacks ${path}`);
    }
    const schemes = doc.components.securitySchemes;
    assert.deepEqual(schemes.basicAuth, {
      type: 'http',
      scheme: 'basic',
      description: schemes.basicAuth.description,
    });
    assert.equal(schemes.oauth2.type, 'oauth2');
    const flow = schemes.oauth2.flows.authorizationCode;
    assert.equal(flow.authorizationUrl, `${server.ctx.config.publicUrl}/oauth/authorize`);
    assert.equal(flow.tokenUrl, `${server.ctx.config.publicUrl}/oauth/token`);
    assert.deepEqual(
      [schemes.systemName.name, schemes.systemKey.name, schemes.systemKey.in],
      ['X-System', 'X-System-Key', 'header'],
    );
  });

  it('names its schemas and gives each operation only the errors it can answer', async () => {
    const doc = (await server.call('GET', '/openapi.json')).body;
    const names = Object.keys(doc.components.schemas);
    assert.ok(!names.some((n) => /^def-/.test(n)), names.join(' '));
    for (const name of ['Person', 'PersonBody', 'EventBody', 'Webhook', 'ErrorResponse'])
      assert.ok(names.includes(name), `no component ${name}`);
    const statuses = (op: { responses: object }) => Object.keys(op.responses).join(',');
    // Public, no input: a malformed request is all that can go wrong.
    assert.equal(statuses(doc.paths['/livez'].get), '200,400');
    // A list: no body (413/415), no record named (404), no write (409), no role gate (403).
    assert.equal(statuses(doc.paths['/v1/people'].get), '200,400,401,429');
    // A gated write with a body and an idempotency key.
    assert.equal(statuses(doc.paths['/v1/webhooks'].post), '201,400,401,403,409,413,415,422,429');
    assert.equal(statuses(doc.paths['/v1/notes/{id}'].delete), '204,400,401,404,409,429');
    // Webhook registration needs the system and its key; an ordinary operation the default.
    assert.deepEqual(doc.paths['/v1/webhooks'].post.security, [
      { basicAuth: [], systemName: [], systemKey: [] },
      { oauth2: [], systemName: [], systemKey: [] },
    ]);
    assert.deepEqual(doc.security, [{ basicAuth: [] }, { oauth2: [] }]);
    assert.equal(doc.paths['/v1/people'].get.security, undefined);
    const rateLimit = doc.paths['/v1/rateLimit/usage'].get;
    assert.deepEqual(rateLimit.security, [{ systemName: [], systemKey: [] }]);
  });

  it('enumerates webhook event names and lead event types', async () => {
    const doc = (await server.call('GET', '/openapi.json')).body;
    const { schemas } = doc.components;
    assert.ok(schemas.WebhookEventName.enum.includes('peopleCreated'));
    assert.equal(
      schemas.CreateWebhookBody.properties.event.$ref,
      '#/components/schemas/WebhookEventName',
    );
    assert.ok(schemas.EventBody.properties.type.enum.includes('Property Inquiry'));
  });

  it('documents every webhook delivery and its signatures', async () => {
    const doc = (await server.call('GET', '/openapi.json')).body;
    const names = doc.components.schemas.WebhookEventName.enum as string[];
    const inboxApp = ['inboxAppReply', 'inboxAppConversationRead', 'inboxAppConversationArchived'];
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...names, ...inboxApp].sort());
    for (const name of inboxApp) assert.ok(!names.includes(name), `${name} is no webhook event`);
    const reply = doc.webhooks.inboxAppReply.post;
    const replyData =
      reply.requestBody.content['application/json'].schema.properties.data.properties;
    assert.deepEqual(replyData.attachments.items.required, ['filename', 'url', 'mimeType']);
    assert.deepEqual(
      reply.parameters.map((p: { name: string }) => p.name),
      ['Hearth-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature'],
    );
    const delivery = doc.webhooks.peopleTagsCreated.post;
    const headers = delivery.parameters.map((p: { name: string }) => p.name);
    assert.deepEqual(headers, [
      'Hearth-Signature',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const media = delivery.requestBody.content['application/json'];
    assert.deepEqual(media.example.data, { tags: ['vip'] });
    assert.match(delivery.description, /HMAC-SHA256/);
  });
});
