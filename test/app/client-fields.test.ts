import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';

/** Issue 33 point 4: documented fields of the real API, in the bodies its clients send. */
describe('fields real clients send', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let stageId: number;
  let systemHeaders: Record<string, string>;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
    const system = await server.newSystem();
    systemHeaders = { 'X-System': system.name, 'X-System-Key': system.key };
    const pipeline = await server.post(key, '/v1/pipelines', {
      name: 'Buyers',
      stages: [{ name: 'Offer' }],
    });
    stageId = pipeline.body.stages[0].id;
  });
  after(async () => {
    await server?.close();
  });

  it('PUT person and deal attachments with personId / dealId (documented as required)', async () => {
    const person = await server.newPerson(key);
    const other = await server.newPerson(key);
    const made = await server.post(
      key,
      '/v1/personAttachments',
      { personId: person.id, uri: 'https://files.example.com/a.pdf', fileName: 'a.pdf' },
      systemHeaders,
    );
    assert.equal(made.status, 201, made.text);
    const put = await server.put(
      key,
      `/v1/personAttachments/${made.body.id}`,
      { personId: person.id, fileName: 'renamed.pdf' },
      systemHeaders,
    );
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.fileName, 'renamed.pdf');
    const moved = await server.put(
      key,
      `/v1/personAttachments/${made.body.id}`,
      { personId: other.id, fileName: 'x.pdf' },
      systemHeaders,
    );
    assert.equal(moved.status, 400);
    assert.match(moved.body.errorMessage, /personId/);

    const deal = await server.post(key, '/v1/deals', {
      name: unique('Deal'),
      stageId,
      peopleIds: [person.id],
    });
    assert.equal(deal.status, 201, deal.text);
    const file = await server.post(key, '/v1/dealAttachments', {
      dealId: deal.body.id,
      uri: 'https://files.example.com/b.pdf',
      fileName: 'b.pdf',
    });
    assert.equal(file.status, 201, file.text);
    const dealPut = await server.put(key, `/v1/dealAttachments/${file.body.id}`, {
      dealId: deal.body.id,
      fileName: 'contract.pdf',
    });
    assert.equal(dealPut.status, 200, dealPut.text);
    assert.equal(dealPut.body.fileName, 'contract.pdf');
  });

  it("DELETE /v1/reactions/:refType/:refId without emoji removes the caller's reactions only", async () => {
    const person = await server.newPerson(key);
    const note = await server.post(key, '/v1/notes', { personId: person.id, body: 'Called' });
    assert.equal(note.status, 201, note.text);
    const agent = await account.addUser('Agent');
    for (const emoji of ['👍', '🎉'])
      assert.equal(
        (await server.post(key, `/v1/reactions/Note/${note.body.id}`, { body: emoji })).status,
        201,
      );
    const theirs = await server.post(agent.key, `/v1/reactions/Note/${note.body.id}`, {
      body: '👍',
    });
    // The agent does not see the owner's person: their reaction is refused or stays apart.
    const removed = await server.del(key, `/v1/reactions/Note/${note.body.id}`);
    assert.equal(removed.status, 204, removed.text);
    const left = await server.get(key, `/v1/reactions?refType=Note&refId=${note.body.id}`);
    assert.deepEqual(
      left.body.reactions.map((r: { userId: number }) => r.userId),
      theirs.status === 201 ? [agent.id] : [],
    );
    assert.equal((await server.del(key, `/v1/reactions/Note/${note.body.id}`)).status, 404);
  });

  it('POST /v1/people with createdAt keeps when a historical lead came in', async () => {
    const res = await server.post(key, '/v1/people', {
      firstName: 'Old',
      createdAt: '2019-03-04T05:06:07Z',
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.created, '2019-03-04T05:06:07Z');
    const future = await server.post(key, '/v1/people', {
      firstName: 'Later',
      createdAt: '2999-01-01',
    });
    assert.equal(future.status, 400);
    assert.match(future.body.errorMessage, /createdAt/);
  });

  it('deals take earnestMoneyDueDate and possessionDate; tasks assignedTo and remindSecondsBefore', async () => {
    const deal = await server.post(key, '/v1/deals', {
      name: unique('Deal'),
      stageId,
      earnestMoneyDueDate: '2026-12-01',
      possessionDate: '2027-01-15T10:00:00Z',
    });
    assert.equal(deal.status, 201, deal.text);
    assert.equal(deal.body.earnestMoneyDueDate, '2026-12-01');
    assert.equal(deal.body.possessionDate, '2027-01-15');
    const changed = await server.put(key, `/v1/deals/${deal.body.id}`, { possessionDate: null });
    assert.equal(changed.body.possessionDate, null);
    const bad = await server.put(key, `/v1/deals/${deal.body.id}`, { earnestMoneyDueDate: 'soon' });
    assert.equal(bad.status, 400);

    const agent = await account.addUser('Agent', unique('Agent Name'));
    const person = await server.newPerson(key);
    const task = await server.post(key, '/v1/tasks', {
      personId: person.id,
      name: 'Call back',
      assignedTo: agent.name,
      remindSecondsBefore: 3600,
    });
    assert.equal(task.status, 201, task.text);
    assert.equal(task.body.assignedUserId, agent.id);
    assert.equal(task.body.remindSecondsBefore, 3600);
    const back = await server.put(key, `/v1/tasks/${task.body.id}`, {
      assignedTo: account.owner.name,
      remindSecondsBefore: null,
    });
    assert.equal(back.body.assignedUserId, account.owner.id);
    assert.equal(back.body.remindSecondsBefore, null);
    const unknown = await server.post(key, '/v1/tasks', {
      personId: person.id,
      name: 'x',
      assignedTo: 'Nobody Here',
    });
    assert.equal(unknown.status, 400);
  });
});
