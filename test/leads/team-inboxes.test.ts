import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';

describe('GET /v1/teamInboxes', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('lists each team as an inbox of its members and leaders; non-admins see only their own', async () => {
    const account = await server.newAccount();
    const other = await server.newAccount();
    const [member, leader, outsider] = [
      await account.addUser('Agent', 'Mia Member'),
      await account.addUser('Agent'),
      await account.addUser('Agent'),
    ];
    const admin = await account.addUser('Admin');
    const sales = await server.post(account.owner.key, '/v1/teams', {
      name: 'Sales',
      userIds: [member.id],
      leaderIds: [leader.id],
    });
    assert.equal(sales.status, 201, sales.text);
    const rentals = await server.post(account.owner.key, '/v1/teams', {
      name: 'Rentals',
      userIds: [outsider.id],
    });
    await server.post(other.owner.key, '/v1/teams', {
      name: unique('Elsewhere'),
      userIds: [other.owner.id],
    });

    for (const key of [account.owner.key, admin.key]) {
      const all = await server.get(key, '/v1/teamInboxes');
      assert.equal(all.status, 200, all.text);
      assert.equal(all.body._metadata.collection, 'teamInboxes');
      assert.deepEqual(
        all.body.teamInboxes.map((i: { id: number }) => i.id),
        [rentals.body.id, sales.body.id],
      );
    }
    const mine = await server.get(member.key, '/v1/teamInboxes');
    assert.equal(mine.body._metadata.total, 1);
    const inbox = mine.body.teamInboxes[0];
    assert.equal(inbox.id, sales.body.id);
    assert.equal(inbox.name, 'Sales');
    assert.deepEqual(
      inbox.users.map((u: { id: number }) => u.id),
      [member.id, leader.id].sort((a, b) => a - b),
    );
    const mia = inbox.users.find((u: { id: number }) => u.id === member.id);
    assert.deepEqual(Object.keys(mia).sort(), ['firstName', 'id', 'lastName', 'name']);
    assert.equal(mia.name, 'Mia Member');
    assert.equal((await server.get(leader.key, '/v1/teamInboxes')).body._metadata.total, 1);
    const others = await server.get(outsider.key, '/v1/teamInboxes');
    assert.deepEqual(
      others.body.teamInboxes.map((i: { id: number }) => i.id),
      [rentals.body.id],
    );
    const lone = await account.addUser('Lender');
    assert.equal((await server.get(lone.key, '/v1/teamInboxes')).body._metadata.total, 0);

    const paged = await server.get(account.owner.key, '/v1/teamInboxes?limit=1&pond=3');
    assert.equal(paged.status, 200, paged.text);
    assert.equal(paged.body.teamInboxes.length, 1);
    assert.ok(paged.body._metadata.nextLink, paged.text);
    assert.equal((await server.get(account.owner.key, '/v1/teamInboxes?limit=x')).status, 400);

    const theirs = await server.get(other.owner.key, '/v1/teamInboxes');
    assert.equal(theirs.body._metadata.total, 1);
    assert.ok(!theirs.text.includes('Sales') && !theirs.text.includes('Mia'));
  });
});
