import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
  unique,
} from '../support/server.js';
import { outboxOf } from '../support/outbox.js';

async function storedEvents(server: TestServer, accountId: number): Promise<number> {
  const row = await server.ctx.db
    .selectFrom('em_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('emEvents: batches, validation, webhooks, email status, statistics, visibility', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  async function person(
    user: TestUser,
    email: string,
    extra: Record<string, unknown> = {},
  ): Promise<number> {
    return (
      await server.newPerson(user.key, {
        firstName: 'P',
        lastName: email,
        emails: [{ value: email }],
        ...extra,
      })
    ).id;
  }

  async function campaign(user: TestUser, originId = unique('c')): Promise<number> {
    const res = await server.post(user.key, '/v1/emCampaigns', {
      origin: 'Tool',
      originId,
      subject: 's',
      bodyHtml: 'b',
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  }

  it('accepts a batch of 1000 events in one request and refuses 1001 storing nothing', async () => {
    const { accountId, owner } = await server.newAccount();
    const campaignId = await campaign(owner);
    const emails = Array.from({ length: 10 }, (_, i) => `reader${i}@example.com`);
    for (const email of emails) await person(owner, email);
    const types = [
      'delivered',
      'open',
      'click',
      'bounced',
      'soft-bounce',
      'dropped',
      'delivered',
      'open',
    ];
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      type: types[i % types.length],
      campaignId,
      recipient: emails[i % emails.length].toUpperCase(),
      occurred: `2026-01-01T10:${String(i % 60).padStart(2, '0')}:00Z`,
    }));
    const res = await server.post(owner.key, '/v1/emEvents', { emEvents: batch });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.emEventIds.length, 1000);
    assert.deepEqual(res.body.recipientsNotFound, []);
    const ids: number[] = res.body.emEventIds;
    assert.ok(
      ids.every((id, i) => i === 0 || id > ids[i - 1]),
      'ids in the order of the events sent',
    );
    assert.equal(await storedEvents(server, accountId), 1000);

    // Ids answer to the events in order: the 6th event sent is a dropped one at 10:05.
    const sixth = await server.get(owner.key, `/v1/emEvents/${ids[5]}`);
    assert.equal(sixth.status, 200);
    assert.equal(sixth.body.type, 'dropped');
    assert.equal(sixth.body.occurred, '2026-01-01T10:05:00Z');
    assert.equal(sixth.body.recipient, emails[5].toUpperCase());
    assert.equal(sixth.body.userId, owner.id);

    const list = await server.get(owner.key, '/v1/emEvents?limit=100');
    assert.equal(list.body._metadata.collection, 'emEvents');
    assert.equal(list.body._metadata.total, 1000);
    assert.equal(list.body.emEvents.length, 100);
    assert.equal(list.body.emEvents[0].id, ids[999]);

    const tooMany = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [...batch, batch[0]],
    });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.errorMessage, /emEvents.*1000/);
    assert.equal(await storedEvents(server, accountId), 1000);

    const huge = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [{ type: 'click', campaignId, recipient: emails[0], url: 'x'.repeat(1_100_000) }],
    });
    assert.equal(huge.status, 413);
  });

  it('refuses the whole batch with 400 naming each bad event by index and field', async () => {
    const { accountId, owner } = await server.newAccount();
    const stranger = await server.newAccount();
    const campaignId = await campaign(owner);
    const foreignCampaign = await campaign(stranger.owner);
    const foreignUser = await stranger.addUser('Agent');
    const personId = await person(owner, 'ok@example.com');
    const good = { type: 'open', campaignId, personId };

    const unknownCampaign = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [good, good, { ...good, campaignId: foreignCampaign }],
    });
    assert.equal(unknownCampaign.status, 400);
    assert.match(
      unknownCampaign.body.errorMessage,
      new RegExp(`emEvents\\[2\\]\\.campaignId: no campaign ${foreignCampaign}`),
    );
    assert.deepEqual(
      unknownCampaign.body.errors.map((e: { field: string }) => e.field),
      ['emEvents.2.campaignId'],
    );

    const several = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [
        { ...good, userId: foreignUser.id },
        { type: 'open', campaignId },
        { ...good, occurred: 'yesterday' },
        { ...good, personId: 999_999 },
        good,
      ],
    });
    assert.equal(several.status, 400);
    assert.deepEqual(
      several.body.errors.map((e: { field: string }) => e.field),
      ['emEvents.0.userId', 'emEvents.1.recipient', 'emEvents.2.occurred', 'emEvents.3.personId'],
    );
    assert.match(several.body.errorMessage, /^4 of 5 events are invalid; nothing was stored/);

    const badType = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [good, { ...good, type: 'opened' }],
    });
    assert.equal(badType.status, 400);
    assert.match(badType.body.errorMessage, /emEvents\.1\.type/);
    const unknownKey = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [{ ...good, colour: 'red' }],
    });
    assert.equal(unknownKey.status, 400);
    assert.match(unknownKey.body.errorMessage, /emEvents\.0\.colour/);
    assert.equal((await server.post(owner.key, '/v1/emEvents', { emEvents: [] })).status, 400);
    assert.equal((await server.post(owner.key, '/v1/emEvents', {})).status, 400);

    assert.equal(await storedEvents(server, accountId), 0);
    assert.equal(
      (
        await server.post(owner.key, '/v1/emEvents', {
          emEvents: [{ ...good, campaignId: String(campaignId), occurred: '2026-02-03 04:05:06' }],
          system: 'Tool',
        })
      ).status,
      201,
    );
    const stored = await server.get(owner.key, '/v1/emEvents');
    assert.equal(stored.body.emEvents[0].occurred, '2026-02-03T04:05:06Z');
    assert.equal(stored.body.emEvents[0].system, 'Tool');
  });

  it('lists recipients that match nobody without storing their events, and stores the rest', async () => {
    const { accountId, owner } = await server.newAccount();
    const campaignId = await campaign(owner);
    const known = await person(owner, 'Known@Example.com');
    const res = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [
        { type: 'delivered', campaignId, recipient: 'nobody@example.com' },
        { type: 'delivered', campaignId, recipient: 'known@example.COM' },
        { type: 'open', campaignId, recipient: 'nobody@example.com' },
        { type: 'open', campaignId, recipient: 'ghost@example.com' },
      ],
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.recipientsNotFound, ['nobody@example.com', 'ghost@example.com']);
    assert.equal(res.body.emEventIds.length, 1);
    assert.equal(await storedEvents(server, accountId), 1);
    assert.equal(
      (await server.get(owner.key, `/v1/emEvents/${res.body.emEventIds[0]}`)).body.personId,
      known,
    );
  });

  it('emits emEventsOpened/Clicked/Unsubscribed only, and marks unsubscribed, spam-reporting and hard-bounced addresses', async () => {
    const { accountId, owner } = await server.newAccount();
    const campaignId = await campaign(owner);
    const reader = await person(owner, 'reader@example.com');
    const leaver = await server.post(owner.key, '/v1/people', {
      firstName: 'L',
      emails: [{ value: 'first@example.com' }, { value: 'leaver@example.com' }],
    });
    const bouncer = await person(owner, 'bounce@example.com');
    const spammer = await person(owner, 'spam@example.com');
    const outbox = await outboxOf(server, accountId);

    const res = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [
        { type: 'delivered', campaignId, personId: reader },
        { type: 'open', campaignId, personId: reader, occurred: '2026-03-01T08:00:00Z' },
        {
          type: 'click',
          campaignId,
          personId: reader,
          url: 'https://example.com/a',
          occurred: '2026-03-01T08:01:00Z',
        },
        {
          type: 'open',
          campaignId,
          recipient: 'reader@example.com',
          occurred: '2026-03-01T07:00:00Z',
        },
        { type: 'bounced', campaignId, personId: reader },
        { type: 'soft-bounce', campaignId, personId: reader },
        { type: 'dropped', campaignId, personId: reader },
        { type: 'unsubscribe', campaignId, recipient: 'leaver@example.com' },
        { type: 'hard-bounce', campaignId, personId: bouncer },
        { type: 'spamreport', campaignId, recipient: 'spam@example.com' },
      ],
    });
    assert.equal(res.status, 201, res.text);
    const ids: number[] = res.body.emEventIds;
    const events = await outbox.take();
    const em = events
      .filter((e) => e.event.startsWith('emEvents'))
      .map(({ event, resourceIds }) => ({ event, resourceIds }));
    assert.deepEqual(em, [
      { event: 'emEventsOpened', resourceIds: [ids[1], ids[3]] },
      { event: 'emEventsClicked', resourceIds: [ids[2]] },
      { event: 'emEventsUnsubscribed', resourceIds: [ids[7]] },
    ]);
    const updated = events
      .filter((e) => e.event === 'peopleUpdated')
      .flatMap((e) => e.resourceIds)
      .sort();
    assert.deepEqual(
      updated,
      [leaver.body.id, bouncer, spammer].sort(),
      'opens, clicks and soft bounces change no person',
    );

    const leaverNow = (await server.get(owner.key, `/v1/people/${leaver.body.id}`)).body;
    assert.deepEqual(
      leaverNow.emails.map((e: { status: string }) => e.status),
      ['Not Validated', 'Unsubscribed'],
      'only the address the email went to',
    );
    assert.equal(
      (await server.get(owner.key, `/v1/people/${bouncer}`)).body.emails[0].status,
      'Bad',
    );
    assert.equal(
      (await server.get(owner.key, `/v1/people/${spammer}`)).body.emails[0].status,
      'Unsubscribed',
    );
    assert.equal(
      (await server.get(owner.key, `/v1/people/${reader}`)).body.emails[0].status,
      'Not Validated',
    );
    assert.equal(
      (await server.get(owner.key, `/v1/people/${reader}`)).body.lastActivity,
      '2026-03-01T08:01:00Z',
    );

    // The webhook uri of an emEvents event resolves: GET /v1/emEvents?id=… lists exactly those events.
    const byIds = await server.get(owner.key, `/v1/emEvents?id=${ids[1]},${ids[3]}`);
    assert.deepEqual(
      byIds.body.emEvents.map((e: { id: number }) => e.id).sort(),
      [ids[1], ids[3]].sort(),
    );

    // Repeating an unsubscribe changes nothing on the person, so no second peopleUpdated.
    await server.post(owner.key, '/v1/emEvents', {
      emEvents: [{ type: 'unsubscribe', campaignId, recipient: 'leaver@example.com' }],
    });
    assert.deepEqual(
      (await outbox.take()).map((e) => e.event),
      ['emEventsUnsubscribed'],
    );
  });

  it('loses no email status when concurrent batches mark different addresses of one person', async () => {
    const { owner } = await server.newAccount();
    const campaignId = await campaign(owner);
    const addresses = Array.from({ length: 6 }, (_, i) => `many${i}@example.com`);
    const created = await server.post(owner.key, '/v1/people', {
      firstName: 'Many',
      emails: addresses.map((value) => ({ value })),
    });
    const answers = await Promise.all(
      addresses.map((recipient, i) =>
        server.post(owner.key, '/v1/emEvents', {
          emEvents: [{ type: i % 2 ? 'hard-bounce' : 'unsubscribe', campaignId, recipient }],
        }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      addresses.map(() => 201),
    );
    const emails = (await server.get(owner.key, `/v1/people/${created.body.id}`)).body.emails;
    assert.deepEqual(
      emails.map((e: { status: string }) => e.status),
      ['Unsubscribed', 'Bad', 'Unsubscribed', 'Bad', 'Unsubscribed', 'Bad'],
    );

    // Batches naming the same people in opposite orders, with opens (lastActivity) and unsubscribes, all succeed.
    const a = await person(owner, 'order-a@example.com');
    const b = await person(owner, 'order-b@example.com');
    const batches = Array.from({ length: 8 }, (_, i) => {
      const pair = i % 2 ? [a, b] : [b, a];
      return pair.flatMap((personId) => [
        { type: 'open', campaignId, personId },
        { type: 'unsubscribe', campaignId, personId },
      ]);
    });
    const crossed = await Promise.all(
      batches.map((emEvents) => server.post(owner.key, '/v1/emEvents', { emEvents })),
    );
    assert.deepEqual(
      crossed.map((r) => r.status),
      batches.map(() => 201),
      crossed.map((r) => r.text).join('\n'),
    );
  });

  it('computes statistics per campaign and in the list (unique opens and clicks per person, rates)', async () => {
    const { owner } = await server.newAccount();
    const campaignId = await campaign(owner);
    const otherCampaign = await campaign(owner);
    const people: number[] = [];
    for (let i = 0; i < 4; i++) people.push(await person(owner, `s${i}@example.com`));
    const ev = (type: string, p: number, c = campaignId) => ({
      type,
      campaignId: c,
      personId: people[p],
    });
    const res = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [
        ev('delivered', 0),
        ev('delivered', 1),
        ev('delivered', 2),
        ev('delivered', 3),
        ev('open', 0),
        ev('open', 0),
        ev('open', 1),
        ev('click', 0),
        ev('click', 0),
        ev('hard-bounce', 3),
        ev('soft-bounce', 2),
        ev('bounced', 2),
        ev('unsubscribe', 1),
        ev('spamreport', 0),
        ev('dropped', 3),
        ev('delivered', 0, otherCampaign),
        ev('open', 0, otherCampaign),
      ],
    });
    assert.equal(res.status, 201, res.text);
    const stats = await server.get(owner.key, `/v1/emCampaigns/${campaignId}/stats`);
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual(stats.body, {
      campaignId,
      stats: {
        sends: 4,
        opens: 3,
        uniqueOpens: 2,
        clicks: 2,
        uniqueClicks: 1,
        bounces: 3,
        softBounces: 1,
        hardBounces: 1,
        unsubscribes: 1,
        spamReports: 1,
        dropped: 1,
        rates: {
          openRate: 0.5,
          clickRate: 0.25,
          clickToOpenRate: 0.5,
          bounceRate: 0.4286,
          unsubscribeRate: 0.25,
          spamReportRate: 0.25,
        },
      },
    });
    const listed = await server.get(
      owner.key,
      `/v1/emEvents?campaignId=${campaignId}&type=open&limit=1`,
    );
    assert.equal(listed.body._metadata.total, 3);
    assert.deepEqual(
      listed.body.stats,
      stats.body.stats,
      'the type filter narrows the list, not the statistics',
    );
    const all = (await server.get(owner.key, '/v1/emEvents')).body.stats;
    assert.equal(all.sends, 5);
    assert.equal(all.uniqueOpens, 3, 'a person who opened two campaigns counts once per campaign');
    const perPerson = (await server.get(owner.key, `/v1/emEvents?personId=${people[0]}`)).body;
    assert.equal(perPerson._metadata.total, 8);
    assert.equal(perPerson.stats.opens, 3);

    const fresh = await campaign(owner);
    const empty = (await server.get(owner.key, `/v1/emCampaigns/${fresh}/stats`)).body.stats;
    assert.equal(empty.sends, 0);
    assert.equal(empty.rates.openRate, null);
    assert.equal((await server.get(owner.key, '/v1/emEvents?type=opened')).status, 400);
  });

  it('shows Agents only the events of people they can see; Lenders may not post', async () => {
    const account: TestAccount = await server.newAccount();
    const agent = await account.addUser('Agent');
    const otherAgent = await account.addUser('Agent');
    const lender = await account.addUser('Lender');
    const campaignId = await campaign(account.owner);
    const mine = await person(account.owner, 'mine@example.com', { assignedUserId: agent.id });
    const theirs = await person(account.owner, 'theirs@example.com', {
      assignedUserId: otherAgent.id,
    });
    await server.post(account.owner.key, '/v1/emEvents', {
      emEvents: [
        { type: 'delivered', campaignId, personId: mine },
        { type: 'open', campaignId, personId: mine },
        { type: 'delivered', campaignId, personId: theirs },
        { type: 'open', campaignId, personId: theirs },
        { type: 'click', campaignId, personId: theirs },
      ],
    });
    const seen = await server.get(agent.key, '/v1/emEvents');
    assert.equal(seen.body._metadata.total, 2);
    assert.ok(seen.body.emEvents.every((e: { personId: number }) => e.personId === mine));
    assert.equal(seen.body.stats.sends, 1);
    assert.equal(seen.body.stats.clicks, 0);
    assert.equal(
      (await server.get(agent.key, `/v1/emCampaigns/${campaignId}/stats`)).body.stats.opens,
      1,
    );
    assert.equal(
      (await server.get(account.owner.key, `/v1/emCampaigns/${campaignId}/stats`)).body.stats.opens,
      2,
    );
    const theirEvent = (
      await server.get(account.owner.key, `/v1/emEvents?personId=${theirs}&type=click`)
    ).body.emEvents[0];
    assert.equal((await server.get(agent.key, `/v1/emEvents/${theirEvent.id}`)).status, 404);
    assert.equal(
      (await server.get(agent.key, `/v1/emEvents?personId=${theirs}`)).body._metadata.total,
      0,
    );

    // An Agent posts for the people they can see; others are unknown to them.
    const byAgent = await server.post(agent.key, '/v1/emEvents', {
      emEvents: [
        { type: 'open', campaignId, recipient: 'theirs@example.com' },
        { type: 'open', campaignId, recipient: 'mine@example.com', userId: otherAgent.id },
      ],
    });
    assert.equal(byAgent.status, 201, byAgent.text);
    assert.deepEqual(byAgent.body.recipientsNotFound, ['theirs@example.com']);
    assert.equal(
      (await server.get(agent.key, `/v1/emEvents/${byAgent.body.emEventIds[0]}`)).body.userId,
      otherAgent.id,
    );
    const hidden = await server.post(agent.key, '/v1/emEvents', {
      emEvents: [{ type: 'open', campaignId, personId: theirs }],
    });
    assert.equal(hidden.status, 400);
    assert.deepEqual(
      hidden.body.errors.map((e: { field: string }) => e.field),
      ['emEvents.0.personId'],
    );

    const refused = await server.post(lender.key, '/v1/emEvents', {
      emEvents: [{ type: 'open', campaignId, personId: mine }],
    });
    assert.equal(refused.status, 403);
    assert.equal((await server.get(lender.key, '/v1/emEvents')).body._metadata.total, 0);
  });

  it("keeps one account's events, campaigns and people out of another's reach", async () => {
    const a = await server.newAccount();
    const b = await server.newAccount();
    const campaignA = await campaign(a.owner);
    const personA = await person(a.owner, 'shared@example.com');
    await person(b.owner, 'shared@example.com');
    const posted = await server.post(a.owner.key, '/v1/emEvents', {
      emEvents: [{ type: 'open', campaignId: campaignA, personId: personA }],
    });
    const eventId = posted.body.emEventIds[0];
    assert.equal((await server.get(b.owner.key, `/v1/emEvents/${eventId}`)).status, 404);
    const listB = await server.get(b.owner.key, '/v1/emEvents');
    assert.equal(listB.body._metadata.total, 0);
    assert.equal(listB.body.stats.opens, 0);
    assert.equal(
      (await server.get(b.owner.key, `/v1/emEvents?campaignId=${campaignA}`)).body._metadata.total,
      0,
    );
    const crossPerson = await server.post(b.owner.key, '/v1/emEvents', {
      emEvents: [{ type: 'open', campaignId: await campaign(b.owner), personId: personA }],
    });
    assert.equal(crossPerson.status, 400);
    const crossCampaign = await server.post(b.owner.key, '/v1/emEvents', {
      emEvents: [{ type: 'open', campaignId: campaignA, recipient: 'shared@example.com' }],
    });
    assert.equal(crossCampaign.status, 400);
    assert.deepEqual(
      crossCampaign.body.errors.map((e: { field: string }) => e.field),
      ['emEvents.0.campaignId'],
    );

    // Deleting a person takes their events along.
    assert.equal((await server.del(a.owner.key, `/v1/people/${personA}`)).status, 204);
    assert.equal((await server.get(a.owner.key, `/v1/emEvents/${eventId}`)).status, 404);
  });
});
