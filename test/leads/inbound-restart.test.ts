import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { type TestServer, startServer } from '../support/server.js';
import { fixture, leadAddresses, parsedInbound, sendSmtp } from './inbound-helpers.js';

describe('leads by email: nothing lost between receipt and parse', () => {
  let server: TestServer;
  before(async () => {
    // The listener's process parses nothing: as if it died right after answering 250.
    server = await startServer({ worker: false, env: { HEARTH_INBOUND_SMTP_PORT: '0' } });
  });
  after(() => server.close());

  it('parses after a restart what was stored before it', async () => {
    const { owner } = await server.newAccount();
    const { account } = await leadAddresses(server, owner.key);
    for (const name of ['zillow.eml', 'trulia.eml', 'not-a-lead.eml'])
      await sendSmtp(server, fixture(name), account);
    const waiting = await server.get(owner.key, '/v1/inboundEmails');
    assert.equal(waiting.body._metadata.total, 3);
    assert.ok(waiting.body.inboundemails.every((r: { parsedAt: null }) => r.parsedAt === null));
    assert.equal((await server.get(owner.key, '/v1/people')).body._metadata.total, 0);

    const worker = await startServer({
      api: false,
      worker: true,
      env: {
        DATABASE_URL:
          process.env.TEST_DATABASE_URL || `sqlite:${path.join(server.dataDir, 'hearth.db')}`,
      },
    });
    try {
      const rows = await parsedInbound(server, owner.key, 3);
      assert.deepEqual(rows.map((r) => r.status).sort(), ['parsed', 'parsed', 'unparsed']);
      const people = await server.get(owner.key, '/v1/people');
      assert.equal(people.body._metadata.total, 2);
    } finally {
      await worker.close();
    }
  });
});
