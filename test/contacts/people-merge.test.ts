import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import { outboxOf } from '../support/outbox.js';

const values = (list: { value: string }[]) => list.map((x) => x.value).sort();

describe('POST /v1/people/:id/merge', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
  });
  after(async () => server.close());

  it('moves contacts, tags, timeline and deals to the kept person and deletes the others', async () => {
    const keep = await server.newPerson(key, {
      firstName: 'Jacob',
      lastName: 'Nguyen',
      emails: ['jacob.nguyen@example.com'],
      tags: ['buyer'],
    });
    const dup = await server.newPerson(key, {
      firstName: 'Jake',
      lastName: 'Nguyen',
      emails: ['jake@example.com'],
      phones: ['555 010 4411'],
      addresses: [{ street: '1 Elm St', city: 'Springfield' }],
      tags: ['Vip', 'buyer'],
      background: 'Met at the open house',
    });
    const note = await server.post(key, '/v1/notes', { personId: dup.id, body: 'Wants 3 beds' });
    assert.equal(note.status, 201, note.text);
    const task = await server.post(key, '/v1/tasks', { personId: dup.id, name: 'Call back' });
    assert.equal(task.status, 201, task.text);
    const pipeline = await server.post(key, '/v1/pipelines', {
      name: 'Buyers',
      stages: [{ name: 'Touring' }],
    });
    assert.equal(pipeline.status, 201, pipeline.text);
    const stageId = pipeline.body.stages[0].id;
    const both = await server.post(key, '/v1/deals', {
      name: 'Both on it',
      stageId,
      peopleIds: [keep.id, dup.id],
    });
    const dupOnly = await server.post(key, '/v1/deals', {
      name: 'Jake only',
      stageId,
      peopleIds: [dup.id],
    });
    assert.equal(dupOnly.status, 201, dupOnly.text);
    const outbox = await outboxOf(server, account.accountId);

    const res = await server.post(key, `/v1/people/${keep.id}/merge`, { personIds: [dup.id] });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, keep.id);
    assert.equal(res.body.name, 'Jacob Nguyen');
    assert.deepEqual(values(res.body.emails), ['jacob.nguyen@example.com', 'jake@example.com']);
    assert.equal(res.body.phones.length, 1);
    assert.equal(res.body.addresses[0].street, '1 Elm St');
    assert.deepEqual(res.body.tags, ['buyer', 'Vip']);
    assert.equal(res.body.background, 'Met at the open house');

    assert.equal((await server.get(key, `/v1/people/${dup.id}`)).status, 404);
    const notes = await server.get(key, `/v1/notes?personId=${keep.id}`);
    assert.deepEqual(
      notes.body.notes.map((n: { id: number }) => n.id),
      [note.body.id],
    );
    const tasks = await server.get(key, `/v1/tasks?personId=${keep.id}`);
    assert.deepEqual(
      tasks.body.tasks.map((t: { id: number }) => t.id),
      [task.body.id],
    );
    for (const deal of [both, dupOnly]) {
      const got = await server.get(key, `/v1/deals/${deal.body.id}`);
      assert.deepEqual(
        got.body.people.map((p: { id: number }) => p.id),
        [keep.id],
      );
    }
    // The merged person's email now finds the kept one.
    const found = await server.get(key, '/v1/people?email=jake@example.com');
    assert.deepEqual(
      found.body.people.map((p: { id: number }) => p.id),
      [keep.id],
    );
    const events = await outbox.take();
    assert.deepEqual(
      events.map((e) => [e.event, e.resourceIds, e.data]),
      [
        ['peopleDeleted', [dup.id], null],
        ['peopleUpdated', [keep.id], null],
        ['peopleTagsCreated', [keep.id], { tags: ['Vip'] }],
      ],
    );
  });

  it('merges several at once, and says what to fix in a bad request', async () => {
    const keep = await server.newPerson(key, { firstName: 'Emily' });
    const a = await server.newPerson(key, { firstName: 'Em' });
    const b = await server.newPerson(key, { firstName: 'Emmy' });
    const bad = [
      [{}, 400],
      [{ personIds: [] }, 400],
      [{ personIds: [keep.id] }, 400],
      [{ personIds: ['x'] }, 400],
      [{ personIds: [a.id, 999_999_999] }, 404],
    ] as const;
    for (const [body, status] of bad) {
      const res = await server.post(key, `/v1/people/${keep.id}/merge`, body);
      assert.equal(res.status, status, res.text);
      assert.ok(res.body.errorMessage, res.text);
    }
    // Nothing half-done: the failed merge left a in place.
    assert.equal((await server.get(key, `/v1/people/${a.id}`)).status, 200);
    const res = await server.post(key, `/v1/people/${keep.id}/merge`, { personIds: [a.id, b.id] });
    assert.equal(res.status, 200, res.text);
    for (const id of [a.id, b.id])
      assert.equal((await server.get(key, `/v1/people/${id}`)).status, 404);
  });

  it('follows visibility and roles: unseen people are a 404, Lenders may not merge', async () => {
    const agent = await account.addUser('Agent');
    const lender = await account.addUser('Lender');
    const mine = await server.newPerson(key, { firstName: 'Mine', assignedUserId: agent.id });
    const mine2 = await server.newPerson(key, { firstName: 'Mine2', assignedUserId: agent.id });
    const other = await server.newPerson(key, { firstName: 'NotMine' });
    const unseen = await server.post(agent.key, `/v1/people/${mine.id}/merge`, {
      personIds: [other.id],
    });
    assert.equal(unseen.status, 404, unseen.text);
    assert.equal((await server.get(key, `/v1/people/${other.id}`)).status, 200);
    const lent = await server.newPerson(key, { firstName: 'Lent', assignedLenderId: lender.id });
    const lent2 = await server.newPerson(key, { firstName: 'Lent2', assignedLenderId: lender.id });
    const refused = await server.post(lender.key, `/v1/people/${lent.id}/merge`, {
      personIds: [lent2.id],
    });
    assert.equal(refused.status, 403, refused.text);
    const ok = await server.post(agent.key, `/v1/people/${mine.id}/merge`, {
      personIds: [mine2.id],
    });
    assert.equal(ok.status, 200, ok.text);
    const otherAccount = await server.newAccount();
    const foreign = await server.newPerson(otherAccount.owner.key, { firstName: 'Foreign' });
    const cross = await server.post(key, `/v1/people/${mine.id}/merge`, {
      personIds: [foreign.id],
    });
    assert.equal(cross.status, 404, cross.text);
  });
});
