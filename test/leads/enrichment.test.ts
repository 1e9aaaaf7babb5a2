import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestServer, startServer, unique } from '../support/server.js';
import { readProfiles } from '../../src/leads/enrichment/enrichment.service.js';
import { eventually } from '../support/eventually.js';

const email = () => `${unique('enrich')}@example.com`;

describe('readProfiles', () => {
  it('keeps well-formed http(s) links, drops the rest and duplicates', () => {
    assert.deepEqual(
      readProfiles({
        profiles: [
          { network: 'LinkedIn', url: 'https://linkedin.com/in/x' },
          { network: 'LinkedIn', url: 'https://linkedin.com/in/x' },
          { network: 'Evil', url: 'javascript:alert(1)' },
          { network: '', url: 'https://a.b' },
          'junk',
        ],
      }),
      [{ network: 'LinkedIn', url: 'https://linkedin.com/in/x' }],
    );
    assert.throws(() => readProfiles({ nope: true }), /profiles array/);
  });
});

describe('social profile enrichment through HEARTH_ENRICHMENT_URL', () => {
  const requests: { personId: number; emails: string[]; phones: string[] }[] = [];
  /** answers queued per email: a status and a body; default 200 with one profile */
  const plan = new Map<string, { status: number; body: unknown }[]>();
  let provider: Server;
  let server: TestServer;
  let offsetMs = 0;
  before(async () => {
    provider = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw);
        requests.push(body);
        const next = plan.get(body.emails[0])?.shift() ?? {
          status: 200,
          body: {
            profiles: [
              { network: 'LinkedIn', url: `https://linkedin.example/in/${body.personId}` },
            ],
          },
        };
        res
          .writeHead(next.status, { 'content-type': 'application/json' })
          .end(JSON.stringify(next.body));
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const { port } = provider.address() as AddressInfo;
    server = await startServer({
      env: { HEARTH_ENRICHMENT_URL: `http://127.0.0.1:${port}/lookup` },
      worker: true,
      clock: { now: () => Date.now() + offsetMs },
    });
  });
  after(async () => {
    await server.close();
    await new Promise<void>((resolve) => provider.close(() => resolve()));
  });

  it("posts a new lead's contacts to the provider and stores the profiles it returns", async () => {
    const { owner, addUser } = await server.newAccount();
    const address = email();
    const lead = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [address], phones: ['555 123 4567'] },
    });
    assert.equal(lead.status, 201);
    const profiles = await eventually('stored profiles', async () => {
      const res = await server.get(owner.key, `/v1/people/${lead.body.id}/socialProfiles`);
      return res.body.socialProfiles?.length ? res.body : null;
    });
    assert.equal(profiles._metadata.collection, 'socialProfiles');
    assert.deepEqual(
      profiles.socialProfiles.map((p: { network: string; url: string }) => [p.network, p.url]),
      [['LinkedIn', `https://linkedin.example/in/${lead.body.id}`]],
    );
    assert.deepEqual(
      requests.find((r) => r.personId === lead.body.id),
      { personId: lead.body.id, emails: [address], phones: ['555 123 4567'] },
    );
    // a returning lead is not looked up again; an Agent without the person cannot read the profiles
    await server.post(owner.key, '/v1/events', {
      type: 'Viewed Property',
      person: { emails: [address] },
    });
    const agent = await addUser('Agent');
    assert.equal(
      (await server.get(agent.key, `/v1/people/${lead.body.id}/socialProfiles`)).status,
      404,
    );
    assert.equal(requests.filter((r) => r.personId === lead.body.id).length, 1);
  });

  it('retries a failing provider with backoff and gives up at once on a 4xx answer', async () => {
    const { accountId, owner } = await server.newAccount();
    const flaky = email();
    plan.set(flaky, [{ status: 503, body: { error: 'busy' } }]);
    const lead = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [flaky] },
    });
    const jobOf = () =>
      server.ctx.db
        .selectFrom('lead_jobs')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('kind', '=', 'enrichment')
        .executeTakeFirstOrThrow();
    const waiting = await eventually('the first failure', async () => {
      const job = await jobOf();
      return job.attempts === 1 && job.last_error ? job : null;
    });
    assert.equal(waiting.status, 'pending');
    assert.match(waiting.last_error!, /503/);
    assert.ok(
      Date.parse(waiting.run_at) >= Date.parse(waiting.created_at) + 30_000,
      'retry is scheduled 30 s later',
    );
    offsetMs += 31_000; // move the service clock past the backoff
    const done = await eventually('the retry', async () => {
      const job = await jobOf();
      return job.status === 'done' ? job : null;
    });
    assert.equal(done.attempts, 2);
    const stored = await server.get(owner.key, `/v1/people/${lead.body.id}/socialProfiles`);
    assert.equal(stored.body.socialProfiles.length, 1);

    const refused = email();
    plan.set(refused, [{ status: 400, body: { error: 'bad request' } }]);
    const other = await server.newAccount();
    await server.post(other.owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [refused] },
    });
    const failed = await eventually('the permanent failure', async () =>
      server.ctx.db
        .selectFrom('lead_jobs')
        .selectAll()
        .where('account_id', '=', other.accountId)
        .where('status', '=', 'failed')
        .executeTakeFirst(),
    );
    assert.equal(failed.attempts, 1);
    assert.match(failed.last_error!, /400/);
  });
});

describe('enrichment unset', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('queues nothing when HEARTH_ENRICHMENT_URL is not set', async () => {
    const { accountId, owner } = await server.newAccount();
    const lead = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [email()] },
    });
    assert.equal(lead.status, 201);
    const jobs = await server.ctx.db
      .selectFrom('lead_jobs')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    assert.equal(jobs.length, 0);
    const res = await server.get(owner.key, `/v1/people/${lead.body.id}/socialProfiles`);
    assert.deepEqual(res.body.socialProfiles, []);
  });
});
