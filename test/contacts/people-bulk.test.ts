import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';
import { importCsv } from './imports-helpers.js';
import { eventually } from '../support/eventually.js';

describe('bulk actions on people: one job for many', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  before(async () => {
    server = await startServer({ worker: true });
    account = await server.newAccount();
    key = account.owner.key;
  });
  after(async () => server.close());

  const finished = (userKey: string, id: number) =>
    eventually(
      `bulk action ${id}`,
      async () => {
        const res = await server.get(userKey, `/v1/peopleBulkActions/${id}`);
        assert.equal(res.status, 200, res.text);
        return res.body.status === 'done' || res.body.status === 'failed' ? res.body : null;
      },
      // On a PostgreSQL shared with other suites' workers, 450 people can take a while.
      60_000,
    );

  const stageId = async (name: string) =>
    (await server.get(key, '/v1/stages?limit=100')).body.stages.find(
      (s: { name: string }) => s.name === name,
    ).id as number;

  it('tags every person a filter matches, fixed when asked, in few webhook events', async () => {
    const tag = unique('batch').toLowerCase();
    const rows = ['First Name,Last Name,Email,Tags'];
    for (let i = 0; i < 450; i++) rows.push(`P${i},Bulk,${tag}-${i}@example.com,${tag}`);
    const imported = await importCsv(server, key, rows.join('\n'));
    assert.equal(imported.created, 450);
    const outboxBefore = await server.ctx.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', account.accountId)
      .where('event', '=', 'peopleTagsCreated')
      .executeTakeFirstOrThrow();

    const res = await server.post(key, '/v1/peopleBulkActions', {
      action: 'addTag',
      value: 'Spring mailer',
      filter: { tags: tag },
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.total, 450);
    assert.equal(res.body.action, 'addTag');
    const done = await finished(key, res.body.id);
    assert.deepEqual(
      [done.status, done.processed, done.changed, done.skipped, done.errors],
      ['done', 450, 450, 0, []],
    );
    const listed = await server.get(
      key,
      `/v1/people?tags=${encodeURIComponent('Spring mailer')}&limit=1`,
    );
    assert.equal(listed.body._metadata.total, 450);
    // Interface rule 9: the notification is split into groups of ids, not one per person.
    const outboxAfter = await server.ctx.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', account.accountId)
      .where('event', '=', 'peopleTagsCreated')
      .executeTakeFirstOrThrow();
    const events = Number(outboxAfter.n) - Number(outboxBefore.n);
    assert.ok(events >= 5 && events <= 10, `${events} peopleTagsCreated events for 450 people`);

    // Removing the tag again, by the same filter.
    const untag = await server.post(key, '/v1/peopleBulkActions', {
      action: 'removeTag',
      value: 'spring mailer',
      filter: { tags: 'Spring mailer' },
    });
    assert.equal((await finished(key, untag.body.id)).changed, 450);
    const left = await server.get(
      key,
      `/v1/people?tags=${encodeURIComponent('Spring mailer')}&limit=1`,
    );
    assert.equal(left.body._metadata.total, 0);
  });

  it('applies visibility and roles person by person', async () => {
    const ava = await account.addUser('Agent', unique('Ava'));
    const liam = await account.addUser('Agent', unique('Liam'));
    const lender = await account.addUser('Lender', unique('Lena'));
    const avas = [
      await server.newPerson(key, { assignedUserId: ava.id }),
      await server.newPerson(key, { assignedUserId: ava.id }),
    ];
    const liams = await server.newPerson(key, { assignedUserId: liam.id });
    const prospect = await stageId('Prospect');

    const res = await server.post(ava.key, '/v1/peopleBulkActions', {
      action: 'stage',
      value: prospect,
      personIds: [...avas.map((p) => p.id), liams.id],
    });
    assert.equal(res.status, 202, res.text);
    // Liam's person is not Ava's to see: not counted, not changed.
    assert.equal(res.body.total, 2);
    assert.equal((await finished(ava.key, res.body.id)).changed, 2);
    assert.equal((await server.get(key, `/v1/people/${avas[0].id}`)).body.stageId, prospect);
    assert.notEqual((await server.get(key, `/v1/people/${liams.id}`)).body.stageId, prospect);
    // Only Ava (and the account's Owner or Admin) follows her action.
    assert.equal((await server.get(liam.key, `/v1/peopleBulkActions/${res.body.id}`)).status, 404);
    assert.equal((await server.get(key, `/v1/peopleBulkActions/${res.body.id}`)).status, 200);

    const refused = await server.post(lender.key, '/v1/peopleBulkActions', {
      action: 'delete',
      filter: {},
    });
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.body.errorMessage, /Lenders cannot delete people/);

    const deleted = await server.post(ava.key, '/v1/peopleBulkActions', {
      action: 'delete',
      filter: { assignedUserId: ava.id },
    });
    assert.equal(deleted.body.total, 2);
    assert.equal((await finished(ava.key, deleted.body.id)).changed, 2);
    assert.equal((await server.get(key, `/v1/people/${avas[1].id}`)).status, 404);
    assert.equal((await server.get(key, `/v1/people/${liams.id}`)).status, 200);
  });

  it('hands people over with their open tasks and one notification for the new agent', async () => {
    const from = await account.addUser('Agent', unique('Sam'));
    const to = await account.addUser('Agent', unique('Ava'));
    const people = [];
    for (let i = 0; i < 3; i++)
      people.push(await server.newPerson(key, { assignedUserId: from.id }));
    const task = await server.post(key, '/v1/tasks', {
      personId: people[0].id,
      name: 'Send listings',
      assignedUserId: from.id,
    });
    assert.equal(task.status, 201, task.text);

    const res = await server.post(key, '/v1/peopleBulkActions', {
      action: 'assign',
      value: to.id,
      filter: { assignedUserId: from.id },
    });
    const done = await finished(key, res.body.id);
    assert.equal(done.changed, 3);
    assert.equal(
      (await server.get(to.key, `/v1/tasks/${task.body.id}`)).body.assignedUserId,
      to.id,
    );
    const notes = (await server.get(to.key, '/v1/notifications')).body.notifications;
    assert.equal(notes.length, 1);
    assert.match(notes[0].message, /and 2 others assigned to you by Owner/);
    const changes = await server.get(to.key, `/v1/personChanges?personId=${people[2].id}`);
    assert.equal(changes.body.personChanges[0].to, to.name);
  });

  it('answers a repeated request with the same action (Idempotency-Key)', async () => {
    const person = await server.newPerson(key);
    const headers = { 'idempotency-key': unique('bulk') };
    const body = { action: 'addTag', value: 'twice', personIds: [person.id] };
    const first = await server.post(key, '/v1/peopleBulkActions', body, headers);
    const again = await server.post(key, '/v1/peopleBulkActions', body, headers);
    assert.equal(first.status, 202, first.text);
    assert.equal(again.body.id, first.body.id);
  });

  it('refuses what it cannot do with a 400 that says what to fix', async () => {
    const person = await server.newPerson(key);
    const cases: [unknown, RegExp][] = [
      [{ action: 'stage', personIds: [person.id] }, /'value' is required for stage/],
      [{ action: 'stage', value: 999999, personIds: [person.id] }, /no stage 999999/],
      [{ action: 'assign', value: 'Bob', personIds: [person.id] }, /must be a user id/],
      [{ action: 'assign', value: 999999, personIds: [person.id] }, /no user 999999/],
      [
        { action: 'addTag', value: 'x', personIds: [person.id], filter: {} },
        /either 'personIds' or 'filter'/,
      ],
      [{ action: 'addTag', value: 'x' }, /either 'personIds' or 'filter'/],
      [{ action: 'explode', personIds: [person.id] }, /action/],
    ];
    for (const [body, message] of cases) {
      const res = await server.post(key, '/v1/peopleBulkActions', body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.match(res.body.errorMessage, message);
    }
    assert.equal((await server.get(key, '/v1/peopleBulkActions/999999')).status, 404);
  });
});
