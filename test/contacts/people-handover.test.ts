import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';

describe('hand-overs, the timeline of stage and agent changes, contacted', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
  });
  after(async () => server.close());

  it('moves the previous agent’s open tasks, notifies the new agent and records who changed what', async () => {
    const samantha = await account.addUser('Agent', 'Samantha Reed');
    const ava = await account.addUser('Agent', 'Ava Brooks');
    const person = await server.newPerson(key, {
      firstName: 'Phoebe',
      lastName: 'Buffay',
      assignedUserId: samantha.id,
    });
    const task = async (name: string, assignedUserId: number, isCompleted = false) => {
      const res = await server.post(key, '/v1/tasks', {
        personId: person.id,
        name,
        assignedUserId,
        isCompleted,
      });
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    const open = await task('Send listings', samantha.id);
    const done = await task('Intro call', samantha.id, true);
    const owners = await task('Check contract', account.owner.id);

    const put = await server.put(key, `/v1/people/${person.id}`, {
      assignedUserId: ava.id,
      stage: 'Prospect',
    });
    assert.equal(put.status, 200, put.text);
    const assignee = async (id: number) =>
      (await server.get(key, `/v1/tasks/${id}`)).body.assignedUserId;
    assert.equal(await assignee(open), ava.id);
    assert.equal(await assignee(done), samantha.id);
    assert.equal(await assignee(owners), account.owner.id);
    // Ava now sees the person and the moved task; Samantha no longer does.
    assert.equal((await server.get(ava.key, `/v1/tasks/${open}`)).status, 200);
    assert.equal((await server.get(samantha.key, `/v1/people/${person.id}`)).status, 404);

    const notes = await server.get(ava.key, '/v1/notifications');
    assert.equal(notes.status, 200, notes.text);
    const [notice] = notes.body.notifications;
    assert.equal(notice.type, 'handOver');
    assert.equal(notice.personId, person.id);
    assert.equal(notice.title, 'Phoebe Buffay is now yours');
    assert.match(notice.message, /from Samantha Reed by /);
    assert.equal(
      (await server.get(samantha.key, '/v1/notifications')).body.notifications.length,
      0,
    );

    const changes = await server.get(ava.key, `/v1/personChanges?personId=${person.id}`);
    assert.equal(changes.status, 200, changes.text);
    const shown = changes.body.personChanges.map(
      (c: { field: string; from: string; to: string; userId: number }) => [
        c.field,
        c.from,
        c.to,
        c.userId,
      ],
    );
    assert.deepEqual(shown.sort(), [
      ['assignedUser', 'Samantha Reed', 'Ava Brooks', account.owner.id],
      ['stage', 'Lead', 'Prospect', account.owner.id],
    ]);
    assert.ok(changes.body.personChanges.every((c: { created: string }) => c.created));
    // Only those who see the person see its changes.
    const hidden = await server.get(samantha.key, `/v1/personChanges?personId=${person.id}`);
    assert.equal(hidden.body.personChanges.length, 0);
  });

  it('assigning someone to yourself notifies nobody', async () => {
    const agent = await account.addUser('Agent', 'Self Assigner');
    const person = await server.newPerson(key, { firstName: 'Unassigned' });
    // An Agent cannot see an unassigned person; the Owner hands it to the agent, who hands it on.
    const other = await account.addUser('Agent', 'Next Agent');
    await server.put(key, `/v1/people/${person.id}`, { assignedUserId: agent.id });
    const before = (await server.get(agent.key, '/v1/notifications')).body.notifications.length;
    assert.equal(before, 1);
    const res = await server.put(agent.key, `/v1/people/${person.id}`, {
      assignedUserId: agent.id,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal((await server.get(agent.key, '/v1/notifications')).body.notifications.length, 1);
    const handed = await server.put(agent.key, `/v1/people/${person.id}`, {
      assignedUserId: other.id,
    });
    assert.equal(handed.status, 200, handed.text);
    const [notice] = (await server.get(other.key, '/v1/notifications')).body.notifications;
    assert.match(notice.message, /from Self Assigner by Self Assigner/);
  });

  it('an outgoing call, text or email sets contacted; an incoming one does not', async () => {
    const logs: [string, Record<string, unknown>][] = [
      ['/v1/calls', { phone: '555 010 1234', outcome: 'Interested' }],
      ['/v1/textMessages', { message: 'Hi!', toNumber: '5550101234' }],
      ['/v1/emails', { subject: 'Listings', body: 'Here they are', to: 'x@example.com' }],
    ];
    for (const [path, body] of logs) {
      const person = await server.newPerson(key, { firstName: `Contact ${path}` });
      const incoming = await server.post(key, path, {
        ...body,
        personId: person.id,
        isIncoming: true,
      });
      assert.equal(incoming.status, 201, incoming.text);
      assert.equal((await server.get(key, `/v1/people/${person.id}`)).body.contacted, 0, path);
      const outgoing = await server.post(key, path, {
        ...body,
        personId: person.id,
        isIncoming: false,
      });
      assert.equal(outgoing.status, 201, outgoing.text);
      assert.equal((await server.get(key, `/v1/people/${person.id}`)).body.contacted, 1, path);
    }
  });
});
