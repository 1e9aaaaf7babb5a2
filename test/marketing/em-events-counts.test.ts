import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestServer,
  type TestUser,
  PUBLIC_URL,
  startServer,
  unique,
} from '../support/server.js';
import { decodedMessage, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { waitFor } from '../support/process.js';
import { sql } from 'kysely';
import {
  countedEmEvents,
  countedEmEventsOfPeople,
} from '../../src/marketing/emEvents/emEvents.counts.js';
import { countExistingEmEvents } from '../../src/platform/db/migrations/0340_em_event_counts.js';
import type { EmCounts } from '../../src/marketing/emEvents/emEvents.types.js';
import { visibleEmEvents } from '../../src/marketing/emEvents/emEvents.repo.js';
import type { AuthUser } from '../../src/accounts/auth/authenticate.js';

/**
 * The counters behind the statistics (emEvents.counts.ts) against the aggregate over the events
 * themselves, after every kind of write: third-party batches (with repeats), the built-in sender's
 * delivered, dropped and bounce events, tracked opens, clicks and unsubscribes, and deletions.
 */
describe('emEvents: counted statistics equal the aggregate', () => {
  let sink: SmtpSink;
  let server: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: { HEARTH_SMTP_URL: sink.url, HEARTH_EMAIL_FROM: 'news@hearth.test' },
      worker: true,
    });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  const nonZero = (counts: EmCounts) => ({
    byType: Object.fromEntries(Object.entries(counts.byType).filter(([, n]) => n > 0)),
    uniqueByType: Object.fromEntries(Object.entries(counts.uniqueByType).filter(([, n]) => n > 0)),
  });

  /** What the counters must hold, counted from the events `auth` sees: events and people per type. */
  async function aggregated(auth: AuthUser, filters: { campaignId?: number }): Promise<EmCounts> {
    const rows = await visibleEmEvents(server.ctx.db, auth, filters)
      .select([
        'em_events.type',
        sql<number>`count(*)`.as('events'),
        sql<number>`count(distinct em_events.campaign_id || ':' || em_events.person_id)`.as(
          'people',
        ),
      ])
      .groupBy('em_events.type')
      .execute();
    const counts: EmCounts = { byType: {}, uniqueByType: {} };
    for (const r of rows) {
      counts.byType[r.type] = Number(r.events);
      counts.uniqueByType[r.type] = Number(r.people);
    }
    return counts;
  }

  const authOf = (user: TestUser, accountId: number): AuthUser => ({
    accountId,
    userId: user.id,
    role: user.role,
    name: '',
    email: '',
  });

  /**
   * Both kinds of counters agree with the events, for the campaign and for the whole account, as
   * the owner and (per-person counts) as `agent`; answers the owner's.
   */
  async function assertCountsAgree(
    owner: TestUser,
    accountId: number,
    campaignId?: number,
    agent?: TestUser,
  ) {
    const auth = authOf(owner, accountId);
    const expected = nonZero(await aggregated(auth, { campaignId }));
    const counted = nonZero(await countedEmEvents(server.ctx.db, accountId, campaignId));
    assert.deepEqual(counted, expected, `campaign ${campaignId ?? 'all'}`);
    const perPerson = await countedEmEventsOfPeople(server.ctx.db, auth, { campaignId });
    assert.deepEqual(nonZero(perPerson), expected, `per person, campaign ${campaignId ?? 'all'}`);
    if (agent) {
      const agentAuth = authOf(agent, accountId);
      const seen = await countedEmEventsOfPeople(server.ctx.db, agentAuth, { campaignId });
      assert.deepEqual(nonZero(seen), nonZero(await aggregated(agentAuth, { campaignId })));
    }
    if (campaignId !== undefined) {
      const stats = await server.get(owner.key, `/v1/emCampaigns/${campaignId}/stats`);
      assert.equal(stats.status, 200, stats.text);
      assert.equal(stats.body.stats.opens, counted.byType.open ?? 0);
      assert.equal(stats.body.stats.uniqueOpens, counted.uniqueByType.open ?? 0);
    }
    return counted;
  }

  async function campaign(owner: TestUser) {
    const res = await server.post(owner.key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      subject: 'News',
      bodyHtml: '<p>News</p><a href="https://example.com/house">House</a>',
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id as number;
  }

  it('after batches, built-in sends, tracking and deletions', async () => {
    const account = await server.newAccount();
    const { owner, accountId } = account;
    const agent = await account.addUser('Agent');
    // The agent sees b, c and d only.
    const people = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((n) =>
        server.newPerson(owner.key, 'bcd'.includes(n) ? { assignedUserId: agent.id } : {}),
      ),
    );
    const [a, b, c, d, e, f] = people;
    const first = await campaign(owner);
    const second = await campaign(owner);
    const post = async (events: Record<string, unknown>[]) => {
      const res = await server.post(owner.key, '/v1/emEvents', { emEvents: events });
      assert.equal(res.status, 201, res.text);
    };
    // Third-party events, repeats included: opens and clicks of one person count once as unique.
    const event = (campaignId: number, type: string, p: { id: number }) => ({
      campaignId,
      type,
      personId: p.id,
    });
    await post([
      ...people.map((p) => event(first, 'delivered', p)),
      event(first, 'open', a),
      event(first, 'open', a),
      event(first, 'open', b),
      event(first, 'click', a),
      event(first, 'click', a),
      event(first, 'soft-bounce', f),
      event(first, 'bounced', f),
      event(first, 'spamreport', f),
      event(first, 'unsubscribe', e),
      event(second, 'open', a),
      event(second, 'open', f),
    ]);
    await assertCountsAgree(owner, accountId, first, agent);

    // The built-in sender: delivered (a, b, c), a hard bounce (d), dropped (e unsubscribed).
    sink.reject(d.email, 550);
    const send = await server.post(owner.key, `/v1/emCampaigns/${first}/send`, {
      personIds: [a.id, b.id, c.id, d.id, e.id],
    });
    assert.equal(send.status, 202, send.text);
    await waitFor(async () => {
      const counts = await countedEmEvents(server.ctx.db, accountId, first);
      return (
        counts.byType.delivered === 9 &&
        counts.byType['hard-bounce'] === 1 &&
        counts.byType.dropped === 1
      );
    }, 20_000);
    await assertCountsAgree(owner, accountId, first, agent);

    // Tracked opens (twice), a click and an unsubscribe from the built-in message to c.
    await waitFor(() => sink.countFor(c.email) === 1, 20_000);
    const body = decodedMessage(sink.messages.find((m) => m.to === c.email)!.data);
    const link = (kind: string) =>
      new RegExp(`${PUBLIC_URL}/e/${kind}/[^"\\s<>)]+`)
        .exec(body)![0]
        .replace(PUBLIC_URL, '')
        .replace(/&amp;/g, '&');
    assert.equal((await server.call('GET', link('o'))).status, 200);
    assert.equal((await server.call('GET', link('o'))).status, 200);
    assert.equal((await server.call('GET', link('c'))).status, 302);
    const raw = sink.messages.find((m) => m.to === c.email)!.data;
    const unsubscribe = /^List-Unsubscribe: <([^>]+)>$/m.exec(raw)![1].replace(PUBLIC_URL, '');
    const unsubscribed = await server.call('POST', unsubscribe, {
      raw: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(unsubscribed.status, 200, unsubscribed.text);
    const tracked = await assertCountsAgree(owner, accountId, first, agent);
    assert.deepEqual(
      { opens: tracked.byType.open, unique: tracked.uniqueByType.open },
      { opens: 5, unique: 3 },
    );

    // A deleted person takes their events out of the counts, and out of the unique ones.
    assert.equal((await server.del(owner.key, `/v1/people/${a.id}`)).status, 204);
    const afterDelete = await assertCountsAgree(owner, accountId, first, agent);
    assert.deepEqual(
      { opens: afterDelete.byType.open, unique: afterDelete.uniqueByType.open },
      { opens: 3, unique: 2 },
    );
    assert.equal(afterDelete.uniqueByType.click, 1);
    await assertCountsAgree(owner, accountId, second, agent);
    await assertCountsAgree(owner, accountId, undefined, agent);
    // Events after the deletion count as before: b's repeat open is not a new unique one.
    await post([event(first, 'open', b), event(first, 'open', d), event(first, 'delivered', d)]);
    const last = await assertCountsAgree(owner, accountId, first, agent);
    assert.equal(last.uniqueByType.open, 3);
    const list = await server.get(owner.key, `/v1/emEvents?campaignId=${first}`);
    assert.equal(list.body.stats.uniqueOpens, 3);
  });

  it('parallel batches and deletions on one campaign lose no count and do not deadlock', async () => {
    const { owner, accountId } = await server.newAccount();
    const campaignId = await campaign(owner);
    const people = await Promise.all(Array.from({ length: 20 }, () => server.newPerson(owner.key)));
    const doomed = await Promise.all(Array.from({ length: 4 }, () => server.newPerson(owner.key)));
    const types = ['delivered', 'open', 'click', 'unsubscribe', 'soft-bounce', 'hard-bounce'];
    const doomedEvents = doomed.flatMap((p) =>
      types.map((type) => ({ campaignId, type, personId: p.id })),
    );
    assert.equal(
      (await server.post(owner.key, '/v1/emEvents', { emEvents: doomedEvents })).status,
      201,
    );
    // Each batch lists types and people in its own order, so that any two overlap in reverse; the
    // deletions take their people's events out of the same counters meanwhile.
    const batches = Array.from({ length: 8 }, (_, k) =>
      Array.from({ length: 150 }, (_, i) => ({
        campaignId,
        type: types[(i + k) % types.length],
        personId: people[(k % 2 ? 150 - i : i + k) % people.length].id,
      })),
    );
    const answers = await Promise.all([
      ...batches.map((events) => server.post(owner.key, '/v1/emEvents', { emEvents: events })),
      ...doomed.map((p) => server.del(owner.key, `/v1/people/${p.id}`)),
    ]);
    for (const res of answers) assert.ok([201, 204].includes(res.status), res.text);
    const counted = await assertCountsAgree(owner, accountId, campaignId);
    const total = Object.values(counted.byType).reduce((s, n) => s + n, 0);
    assert.equal(total, 8 * 150);
    assert.equal(counted.uniqueByType.open, people.length);
  });

  // The migration's count of existing events rebuilds every counter of the database: only on a
  // database of this file's own (SQLite), where no other suite writes meanwhile.
  it(
    'the migration counts events stored before it as the writes count them',
    {
      skip: Boolean(process.env.TEST_DATABASE_URL),
    },
    async () => {
      const accounts = await server.ctx.db.selectFrom('accounts').select('id').execute();
      const before = await Promise.all(
        accounts.map((a) => countedEmEvents(server.ctx.db, a.id, undefined)),
      );
      await server.ctx.db.deleteFrom('em_event_counts').execute();
      await server.ctx.db.deleteFrom('em_event_person_counts').execute();
      await countExistingEmEvents(server.ctx.db);
      const rebuilt = await Promise.all(
        accounts.map((a) => countedEmEvents(server.ctx.db, a.id, undefined)),
      );
      assert.deepEqual(rebuilt.map(nonZero), before.map(nonZero));
      assert.ok(before.some((c) => (c.byType.open ?? 0) > 0));
    },
  );
});
