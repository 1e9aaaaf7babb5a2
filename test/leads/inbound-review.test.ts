import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';
import { movableClock } from '../accounts/webhooks/receiver.js';
import {
  fixture,
  type Inbound,
  INBOUND_SECRET,
  leadAddresses,
  parsedInbound,
  withMessageId,
} from './inbound-helpers.js';
import { purgeInboundRaw } from '../../src/leads/inboundEmail/retention.job.js';

const DAY = 86_400_000;

describe('leads by email: the review actions and the raw-message retention', () => {
  const clock = movableClock();
  let server: TestServer;
  before(async () => {
    server = await startServer({
      clock,
      worker: true,
      env: { HEARTH_INBOUND_SECRET: INBOUND_SECRET, HEARTH_INBOUND_RETENTION_DAYS: '30' },
    });
  });
  after(() => server.close());

  /** Posts fixtures to /e/inbound (each under a Message-ID of its own); their parsed rows. */
  async function receive(key: string, names: string[]): Promise<Inbound[]> {
    const { account } = await leadAddresses(server, key);
    for (const name of names) {
      const raw = withMessageId(fixture(name), `${unique('review')}@example.com`);
      const res = await server.call('POST', `/e/inbound?to=${account}`, {
        raw,
        contentType: 'message/rfc822',
        headers: { authorization: `Bearer ${INBOUND_SECRET}` },
      });
      assert.equal(res.status, 202, res.text);
    }
    return parsedInbound(server, key, names.length);
  }

  it('makes a lead by hand or ignores a message, at /review/lead and /review/ignore', async () => {
    const { owner, addUser } = await server.newAccount();
    const rows = await receive(owner.key, ['not-a-lead.eml', 'broken.eml']);
    assert.deepEqual(
      rows.map((r) => r.status),
      ['unparsed', 'unparsed'],
    );
    const [second, first] = rows; // newest first
    const agent = await addUser('Agent');
    const refused = await server.post(agent.key, `/v1/inboundEmails/${first.id}/review/ignore`);
    assert.equal(refused.status, 403);
    const made = await server.post(owner.key, `/v1/inboundEmails/${first.id}/review/lead`, {
      type: 'Inquiry',
      source: 'Open house',
      person: { name: 'Dana Fox', emails: [{ value: 'dana.fox@example.com' }] },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.createdVia, 'Email Parsing');
    const again = await server.post(owner.key, `/v1/inboundEmails/${first.id}/review/ignore`);
    assert.equal(again.status, 409, 'a lead cannot be ignored');
    const ignored = await server.post(owner.key, `/v1/inboundEmails/${second.id}/review/ignore`);
    assert.equal(ignored.status, 200);
    assert.equal(ignored.body.status, 'ignored');
    const list = await server.get(owner.key, '/v1/inboundEmails');
    const byId = new Map<number, Inbound>(list.body.inboundemails.map((r: Inbound) => [r.id, r]));
    assert.equal(byId.get(first.id)?.personId, made.body.id);
    assert.equal(byId.get(first.id)?.parser, 'manual');
  });

  it('purges the raw bytes after the retention days; the rows and their leads stay', async () => {
    const { owner } = await server.newAccount();
    const rows0 = await receive(owner.key, ['zillow.eml', 'not-a-lead.eml']);
    const lead = rows0.find((r) => r.status === 'parsed')!;
    const other = rows0.find((r) => r.status === 'unparsed')!;
    assert.ok(lead && other);
    assert.equal(await purgeInboundRaw(server.ctx.db, clock.now() + 29 * DAY, 30), 0);
    const detail = await server.get(owner.key, `/v1/inboundEmails/${other.id}`);
    assert.match(detail.body.text, /lunch on Friday/);

    clock.advance(31 * DAY);
    assert.ok((await purgeInboundRaw(server.ctx.db, clock.now(), 30)) >= 2);
    const rows = await server.get(owner.key, '/v1/inboundEmails');
    for (const row of rows.body.inboundemails as Inbound[]) {
      assert.ok(row.rawPurgedAt, `message ${row.id} purged`);
      assert.notEqual(row.status, 'received');
    }
    const kept = rows.body.inboundemails.find((r: Inbound) => r.id === lead.id);
    assert.equal(kept.status, 'parsed');
    assert.equal(kept.personId, lead.personId);
    assert.equal((await server.get(owner.key, `/v1/people/${lead.personId}`)).status, 200);
    const stored = await server.ctx.db
      .selectFrom('inbound_emails')
      .select('raw')
      .where('id', 'in', [lead.id, other.id])
      .execute();
    assert.deepEqual(
      stored.map((r) => r.raw.length),
      [0, 0],
    );
    const purged = await server.get(owner.key, `/v1/inboundEmails/${other.id}`);
    assert.equal(purged.status, 200);
    assert.match(purged.body.text, /purged/);
    assert.equal(await purgeInboundRaw(server.ctx.db, clock.now(), 30), 0, 'once is enough');
    assert.equal(await purgeInboundRaw(server.ctx.db, clock.now(), 0), 0, '0 keeps for ever');
  });
});
