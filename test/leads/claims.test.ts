import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestServer, type TestUser, startServer, unique } from '../support/server.js';
import { expireDueOffers } from '../../src/leads/claims/claims.service.js';
import { eventually } from '../support/eventually.js';
import { outboxEvents } from '../support/outbox.js';

const START = Date.parse('2031-03-01T09:00:00Z');

function movableClock(start = START) {
  return {
    t: start,
    now() {
      return this.t;
    },
    advanceSeconds(seconds: number) {
      this.t += seconds * 1000;
    },
  };
}

/** A first-to-claim group routed to by a lead flow of its own source. */
async function claimGroup(
  server: TestServer,
  ownerKey: string,
  members: TestUser[],
  extra: Record<string, unknown> = {},
) {
  const group = await server.post(ownerKey, '/v1/groups', {
    name: unique('Claimers'),
    distribution: 'first-to-claim',
    users: members.map((m) => m.id),
    ...extra,
  });
  assert.equal(group.status, 201, group.text);
  const source = `${unique('claim')}.example`;
  const flow = await server.post(ownerKey, '/v1/leadFlows', { source, groupId: group.body.id });
  assert.equal(flow.status, 201, flow.text);
  return { group: group.body, source };
}

async function sendLead(server: TestServer, key: string, source: string) {
  const res = await server.post(key, '/v1/events', {
    type: 'Registration',
    source,
    person: { firstName: 'Lena', lastName: 'Lead', emails: [`${unique('lena')}@example.com`] },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as number;
}

async function peopleEvents(server: TestServer, accountId: number, personId: number) {
  return (await outboxEvents(server, accountId))
    .filter((e) => e.resourceIds.includes(personId))
    .map((e) => e.event);
}

describe('first-to-claim lead routing', () => {
  const clock = movableClock();
  let server: TestServer;
  before(async () => {
    server = await startServer({ clock });
  });
  after(async () => server.close());

  it('offers a new lead to every member, the first claim wins and fires peopleUpdated', async () => {
    const account = await server.newAccount();
    const [a, b, c] = [
      await account.addUser('Agent'),
      await account.addUser('Agent'),
      await account.addUser('Agent'),
    ];
    const outsider = await account.addUser('Agent');
    const { source } = await claimGroup(server, account.owner.key, [a, b, c]);
    const personId = await sendLead(server, account.owner.key, source);

    const person = await server.get(account.owner.key, `/v1/people/${personId}`);
    assert.equal(person.body.assignedUserId, null);
    for (const member of [a, b, c]) {
      const notes = await server.get(member.key, '/v1/notifications');
      assert.equal(notes.body._metadata.total, 1, notes.text);
      assert.equal(notes.body.notifications[0].type, 'leadOffer');
      assert.equal(notes.body.notifications[0].personId, personId);
      const offered = await server.get(member.key, '/v1/people/unclaimed');
      assert.equal(offered.status, 200, offered.text);
      assert.equal(offered.body._metadata.collection, 'people');
      assert.deepEqual(
        offered.body.people.map((p: { id: number }) => p.id),
        [personId],
      );
    }
    assert.equal((await server.get(outsider.key, '/v1/people/unclaimed')).body._metadata.total, 0);
    // An open offer is seen only through /v1/people/unclaimed: not a person of the member's yet.
    assert.equal((await server.get(a.key, `/v1/people/${personId}`)).status, 404);
    assert.equal((await server.get(a.key, '/v1/people')).body._metadata.total, 0);
    assert.equal(
      (await server.get(account.owner.key, '/v1/notifications')).body._metadata.total,
      0,
    );
    const notOffered = await server.post(outsider.key, '/v1/people/claim', { personId });
    assert.equal(notOffered.status, 403, notOffered.text);

    const before = await peopleEvents(server, account.accountId, personId);
    const won = await server.post(b.key, '/v1/people/claim', { personId: String(personId) });
    assert.equal(won.status, 200, won.text);
    assert.equal(won.body.id, personId);
    assert.equal(won.body.assignedUserId, b.id);
    assert.deepEqual(
      (await peopleEvents(server, account.accountId, personId)).slice(before.length),
      ['peopleUpdated'],
    );
    const late = await server.post(a.key, '/v1/people/claim', { personId });
    assert.equal(late.status, 409, late.text);
    assert.match(late.body.errorMessage, new RegExp(`already claimed by ${b.name}`));
    const again = await server.post(b.key, '/v1/people/claim', { personId });
    assert.equal(again.status, 409);
    assert.match(again.body.errorMessage, /You already claimed/);
    assert.equal((await server.get(a.key, '/v1/people/unclaimed')).body._metadata.total, 0);
    assert.equal((await server.get(b.key, `/v1/people/${personId}`)).status, 200);
    assert.equal((await server.get(a.key, `/v1/people/${personId}`)).status, 404);
  });

  it('twenty simultaneous claims: exactly one 200, the rest a clear 409', async () => {
    const account = await server.newAccount();
    const members: TestUser[] = [];
    for (let i = 0; i < 20; i++) members.push(await account.addUser('Agent'));
    const { source } = await claimGroup(server, account.owner.key, members);
    const personId = await sendLead(server, account.owner.key, source);
    const results = await Promise.all(
      members.map((m) => server.post(m.key, '/v1/people/claim', { personId })),
    );
    const winners = results.filter((r) => r.status === 200);
    const losers = results.filter((r) => r.status !== 200);
    assert.equal(winners.length, 1, results.map((r) => `${r.status} ${r.text}`).join('\n'));
    for (const loser of losers) {
      assert.equal(loser.status, 409, loser.text);
      assert.match(loser.body.errorMessage, /already claimed by/);
    }
    const person = await server.get(account.owner.key, `/v1/people/${personId}`);
    assert.equal(person.body.assignedUserId, winners[0].body.assignedUserId);
    const offers = await server.ctx.db
      .selectFrom('lead_offers')
      .selectAll()
      .where('person_id', '=', personId)
      .execute();
    assert.equal(offers.length, 1);
    assert.equal(offers[0].status, 'claimed');
    assert.equal(offers[0].claimed_by_id, person.body.assignedUserId);
  });

  it('ignoreUnclaimed declines for the caller; when all declined the fallback user gets it', async () => {
    const account = await server.newAccount();
    const [a, b] = [await account.addUser('Agent'), await account.addUser('Agent')];
    const fallback = await account.addUser('Agent');
    const { source } = await claimGroup(server, account.owner.key, [a, b], {
      defaultUserId: fallback.id,
    });
    const personId = await sendLead(server, account.owner.key, source);
    const ignored = await server.post(a.key, '/v1/people/ignoreUnclaimed', { personId });
    assert.equal(ignored.status, 200, ignored.text);
    assert.deepEqual(ignored.body, { personId, status: 'ignored' });
    assert.equal((await server.get(a.key, '/v1/people/unclaimed')).body._metadata.total, 0);
    assert.equal((await server.post(a.key, '/v1/people/claim', { personId })).status, 409);
    assert.equal(
      (await server.post(a.key, '/v1/people/ignoreUnclaimed', { personId })).status,
      404,
    );
    assert.equal(await expireDueOffers(server.ctx), 0, 'b has not declined yet');
    assert.equal(
      (await server.post(b.key, '/v1/people/ignoreUnclaimed', { personId })).status,
      200,
    );
    assert.equal(await expireDueOffers(server.ctx), 1);
    const person = await server.get(account.owner.key, `/v1/people/${personId}`);
    assert.equal(person.body.assignedUserId, fallback.id);
    const notes = await server.get(fallback.key, '/v1/notifications');
    assert.equal(notes.body.notifications[0].type, 'newLead');
    assert.equal((await server.post(b.key, '/v1/people/claim', { personId })).status, 409);
  });

  it('an unclaimed lead moves to the fallback group when the window ends, and after two fallbacks to the owner', async () => {
    const account = await server.newAccount();
    const [a, b] = [await account.addUser('Agent'), await account.addUser('Agent')];
    const second = await server.post(account.owner.key, '/v1/groups', {
      name: unique('Second'),
      distribution: 'first-to-claim',
      claimWindow: 120,
      users: [b.id],
    });
    const { group, source } = await claimGroup(server, account.owner.key, [a], {
      claimWindow: 60,
      defaultGroupId: second.body.id,
    });
    // The second group falls back to the first: a cycle ends at the owner after two fallbacks.
    const cycle = await server.put(account.owner.key, `/v1/groups/${second.body.id}`, {
      defaultGroupId: group.id,
    });
    assert.equal(cycle.status, 200, cycle.text);
    assert.equal(cycle.body.defaultGroupId, group.id);
    const personId = await sendLead(server, account.owner.key, source);
    const events0 = (await peopleEvents(server, account.accountId, personId)).length;

    clock.advanceSeconds(59);
    assert.equal(await expireDueOffers(server.ctx), 0);
    clock.advanceSeconds(1);
    assert.equal(await expireDueOffers(server.ctx), 1);
    assert.equal((await server.get(a.key, '/v1/people/unclaimed')).body._metadata.total, 0);
    assert.equal((await server.get(b.key, '/v1/people/unclaimed')).body._metadata.total, 1);
    clock.advanceSeconds(120);
    assert.equal(await expireDueOffers(server.ctx), 1);
    assert.equal((await server.get(a.key, '/v1/people/unclaimed')).body._metadata.total, 1);
    clock.advanceSeconds(60);
    assert.equal(await expireDueOffers(server.ctx), 1);
    const person = await server.get(account.owner.key, `/v1/people/${personId}`);
    assert.equal(person.body.assignedUserId, account.owner.id);
    assert.deepEqual((await peopleEvents(server, account.accountId, personId)).slice(events0), [
      'peopleUpdated',
    ]);
    const offers = await server.ctx.db
      .selectFrom('lead_offers')
      .select(['group_id', 'status', 'fallbacks'])
      .where('person_id', '=', personId)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      offers.map((o) => [o.group_id, o.status, o.fallbacks]),
      [
        [group.id, 'expired', 0],
        [second.body.id, 'expired', 1],
        [group.id, 'expired', 2],
      ],
    );
  });

  it('an unclaimed lead goes to the fallback pond: no agent, pond members see it, the lead agent is told', async () => {
    const account = await server.newAccount();
    const [a, member, lead] = [
      await account.addUser('Agent'),
      await account.addUser('Agent'),
      await account.addUser('Agent'),
    ];
    const pond = await server.post(account.owner.key, '/v1/ponds', {
      name: unique('Pool'),
      userId: lead.id,
      userIds: [member.id],
    });
    assert.equal(pond.status, 201, pond.text);
    const { group, source } = await claimGroup(server, account.owner.key, [a], {
      claimWindow: 60,
      defaultPondId: pond.body.id,
    });
    assert.equal(group.defaultPondId, pond.body.id);
    const personId = await sendLead(server, account.owner.key, source);
    assert.equal((await server.get(member.key, `/v1/people/${personId}`)).status, 404);
    const events0 = (await peopleEvents(server, account.accountId, personId)).length;
    clock.advanceSeconds(60);
    assert.equal(await expireDueOffers(server.ctx), 1);
    const person = await server.get(account.owner.key, `/v1/people/${personId}`);
    assert.equal(person.body.assignedPondId, pond.body.id);
    assert.equal(person.body.assignedUserId, null);
    assert.deepEqual((await peopleEvents(server, account.accountId, personId)).slice(events0), [
      'peopleUpdated',
    ]);
    assert.equal((await server.get(member.key, `/v1/people/${personId}`)).status, 200);
    assert.equal((await server.get(a.key, `/v1/people/${personId}`)).status, 404);
    assert.equal((await server.get(a.key, '/v1/people/unclaimed')).body._metadata.total, 0);
    const notes = await server.get(lead.key, '/v1/notifications');
    assert.equal(notes.body.notifications[0].type, 'newLead');
    assert.equal(notes.body.notifications[0].personId, personId);
    assert.equal(await expireDueOffers(server.ctx), 0, 'a pond is where the lead stays');

    // A pond deleted since: the lead goes to the owner instead.
    const gone = await server.post(account.owner.key, '/v1/ponds', { name: unique('Gone') });
    await server.put(account.owner.key, `/v1/groups/${group.id}`, { defaultPondId: gone.body.id });
    const del = await server.del(
      account.owner.key,
      `/v1/ponds/${gone.body.id}?assignTo=${account.owner.id}`,
    );
    assert.equal(del.status, 204, del.text);
    const second = await sendLead(server, account.owner.key, source);
    clock.advanceSeconds(60);
    assert.equal(await expireDueOffers(server.ctx), 1);
    const owned = await server.get(account.owner.key, `/v1/people/${second}`);
    assert.equal(owned.body.assignedUserId, account.owner.id);
    assert.equal(owned.body.assignedPondId, null);
  });

  it('validates first-to-claim settings and shows rotation state at /v1/groups/roundRobin', async () => {
    const account = await server.newAccount();
    const other = await server.newAccount();
    const agent = await account.addUser('Agent');
    const agent2 = await account.addUser('Agent');
    const bad: Record<string, unknown>[] = [
      { claimWindow: 59 },
      { claimWindow: 1801 },
      { distribution: 'lottery' },
      { defaultUserId: other.owner.id },
      { defaultGroupId: 99999999 },
      { defaultPondId: 99999999 },
      { defaultPondId: 'pond' },
      { type: 'Broker' },
    ];
    for (const extra of bad) {
      const res = await server.post(account.owner.key, '/v1/groups', { name: 'X', ...extra });
      assert.equal(res.status, 400, `${JSON.stringify(extra)}: ${res.text}`);
    }
    const created = await server.post(account.owner.key, '/v1/groups', {
      name: 'Claim',
      distribution: 'first-to-claim',
      users: [agent.id],
    });
    assert.equal(created.body.claimWindow, 1800);
    assert.equal(created.body.type, 'Agent');
    assert.equal((await server.post(agent.key, '/v1/groups', { name: 'Nope' })).status, 403);
    const rr = await server.post(account.owner.key, '/v1/groups', {
      name: 'Lenders',
      type: 'Lender',
      users: [agent.id, agent2.id],
    });
    const flowSource = `${unique('rr')}.example`;
    await server.post(account.owner.key, '/v1/leadFlows', {
      source: flowSource,
      groupId: rr.body.id,
    });
    await sendLead(server, account.owner.key, flowSource);
    const all = await server.get(agent.key, '/v1/groups/roundRobin');
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body._metadata.collection, 'groups');
    assert.equal(all.body._metadata.total, 2);
    const lenders = await server.get(agent.key, '/v1/groups/roundRobin?type=Lender');
    assert.equal(lenders.body._metadata.total, 1);
    assert.equal(lenders.body.groups[0].id, rr.body.id);
    assert.equal(lenders.body.groups[0].leadsDistributed, 1);
    assert.equal(lenders.body.groups[0].nextUserId, agent2.id);
    assert.equal((await server.get(agent.key, '/v1/groups/roundRobin?type=Owner')).status, 400);
    const claimRow = all.body.groups.find((g: { id: number }) => g.id === created.body.id);
    assert.equal(claimRow.nextUserId, null);
    assert.equal(
      (await server.get(other.owner.key, '/v1/groups/roundRobin')).body._metadata.total,
      0,
    );
  });

  it('never lets another account see, claim or decline an offer', async () => {
    const account = await server.newAccount();
    const other = await server.newAccount();
    const agent = await account.addUser('Agent');
    const { source } = await claimGroup(server, account.owner.key, [agent]);
    const personId = await sendLead(server, account.owner.key, source);
    for (const key of [other.owner.key, (await other.addUser('Agent')).key]) {
      assert.equal((await server.get(key, '/v1/people/unclaimed')).body._metadata.total, 0);
      const claim = await server.post(key, '/v1/people/claim', { personId });
      assert.equal(claim.status, 404, claim.text);
      assert.ok(!claim.text.includes('Lena'));
      const ignore = await server.post(key, '/v1/people/ignoreUnclaimed', { personId });
      assert.equal(ignore.status, 404, ignore.text);
    }
    assert.equal((await server.get(agent.key, '/v1/people/unclaimed')).body._metadata.total, 1);
    const bad = await server.post(agent.key, '/v1/people/claim', { personId: 'x' });
    assert.equal(bad.status, 400);
  });
});

describe('first-to-claim expiry is durable across restarts', () => {
  it('a worker started later, on the same database, moves the expired offer on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hearth-claims-'));
    const env: Record<string, string> = process.env.TEST_DATABASE_URL
      ? {}
      : { DATABASE_URL: `sqlite:${path.join(dir, 'claims.db')}` };
    const clock = movableClock(Date.now());
    const first = await startServer({ env, clock });
    let second: TestServer | null = null;
    try {
      const account = await first.newAccount();
      const agent = await account.addUser('Agent');
      const fallback = await account.addUser('Agent');
      const { source } = await claimGroup(first, account.owner.key, [agent], {
        claimWindow: 60,
        defaultUserId: fallback.id,
      });
      const personId = await sendLead(first, account.owner.key, source);
      await first.close();
      clock.advanceSeconds(61);
      second = await startServer({ env, clock, worker: true });
      const done = second;
      await eventually('the fallback to get the lead', async () => {
        const person = await done.get(account.owner.key, `/v1/people/${personId}`);
        return person.body.assignedUserId === fallback.id;
      });
    } finally {
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
