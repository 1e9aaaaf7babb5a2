import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { outboxEvents } from '../support/outbox.js';
import { buildAgentsWithPerson } from '../support/factories.js';

async function events(server: TestServer, accountId: number, prefix?: string) {
  return (await outboxEvents(server, accountId))
    .filter((e) => !prefix || e.event.startsWith(prefix))
    .map((e): [string, number[]] => [e.event, e.resourceIds]);
}

describe('timeline: calls, text messages, emails, tasks', () => {
  let server: TestServer;
  // A fixed clock: 2026-03-10T15:00:00Z, so "today" is 2026-03-10.
  const clock = {
    ms: Date.parse('2026-03-10T15:00:00Z'),
    now() {
      return this.ms;
    },
  };
  before(async () => {
    server = await startServer({ clock });
  });
  after(async () => server.close());

  const setup = () => buildAgentsWithPerson(server, { firstName: 'Lee' });

  it('logs calls with outcome, system and lastActivity; filters by phone and system', async () => {
    const { account, agentA, agentB, personId } = await setup();
    clock.ms += 1000;
    const call = await server.post(agentA.key, '/v1/calls', {
      personId,
      phone: '(555) 010-2030',
      isIncoming: true,
      outcome: 'Left Message',
      duration: '65',
      note: 'vm',
      system: 'Dialer',
    });
    assert.equal(call.status, 201, call.text);
    assert.equal(call.body.outcome, 'Left Message');
    assert.equal(call.body.duration, 65);
    assert.equal(call.body.system, 'Dialer');
    assert.equal(call.body.userId, agentA.id);
    assert.equal(
      (await server.get(account.owner.key, `/v1/people/${personId}`)).body.lastActivity,
      new Date(clock.ms).toISOString().replace('.000', ''),
    );
    assert.equal(
      (await server.post(agentA.key, '/v1/calls', { personId, outcome: 'Maybe' })).status,
      400,
    );
    assert.equal((await server.get(agentA.key, '/v1/calls?system=Dialer')).body._metadata.total, 1);
    assert.equal((await server.get(agentA.key, '/v1/calls?system=Other')).body._metadata.total, 0);
    assert.equal(
      (await server.get(agentA.key, '/v1/calls?phone=5550102030')).body.calls[0].id,
      call.body.id,
    );
    // another agent: refused everything about it
    assert.equal((await server.get(agentB.key, `/v1/calls/${call.body.id}`)).status, 404);
    assert.equal(
      (await server.put(agentB.key, `/v1/calls/${call.body.id}`, { outcome: 'Busy' })).status,
      404,
    );
    assert.equal((await server.del(agentB.key, `/v1/calls/${call.body.id}`)).status, 404);
    assert.equal((await server.get(agentB.key, '/v1/calls')).body._metadata.total, 0);
    const put = await server.put(agentA.key, `/v1/calls/${call.body.id}`, {
      outcome: 'Interested',
    });
    assert.equal(put.body.outcome, 'Interested');
    assert.equal(put.body.note, 'vm');
    assert.equal((await server.del(agentA.key, `/v1/calls/${call.body.id}`)).status, 204);
    assert.deepEqual(await events(server, account.accountId, 'calls'), [
      ['callsCreated', [call.body.id]],
      ['callsUpdated', [call.body.id]],
      ['callsDeleted', [call.body.id]],
    ]);
  });

  it('keeps calls from unknown callers (personId 0) to Owners and Admins', async () => {
    const { account, agentA } = await setup();
    const unknown = await server.post(account.owner.key, '/v1/calls', {
      personId: 0,
      fromNumber: '555-999-0000',
      isIncoming: 1,
    });
    assert.equal(unknown.status, 201, unknown.text);
    assert.equal(unknown.body.personId, 0);
    assert.equal(unknown.body.phone, '555-999-0000');
    assert.equal(
      (await server.get(account.owner.key, '/v1/calls?personId=0')).body._metadata.total,
      1,
    );
    assert.equal((await server.get(agentA.key, `/v1/calls/${unknown.body.id}`)).status, 404);
    assert.equal((await server.get(agentA.key, '/v1/calls?personId=0')).body._metadata.total, 0);
    assert.equal((await server.post(agentA.key, '/v1/calls', { personId: 0 })).status, 400);
    const stranger = await server.newAccount();
    assert.equal(
      (await server.get(stranger.owner.key, `/v1/calls/${unknown.body.id}`)).status,
      404,
    );
  });

  it('logs text messages and emails with events and lastActivity', async () => {
    const { account, agentA, agentB, personId } = await setup();
    clock.ms += 60_000;
    const text = await server.post(agentA.key, '/v1/textMessages', {
      personId,
      message: 'On my way',
      toNumber: '5551112222',
      isIncoming: false,
    });
    assert.equal(text.status, 201, text.text);
    const texts = await server.get(agentA.key, `/v1/textMessages?personId=${personId}`);
    assert.equal(texts.body._metadata.collection, 'textmessages');
    assert.equal(texts.body.textmessages[0].message, 'On my way');
    assert.equal((await server.get(agentB.key, `/v1/textMessages/${text.body.id}`)).status, 404);
    assert.equal(
      (await server.put(agentA.key, `/v1/textMessages/${text.body.id}`, { message: 'Here' })).body
        .message,
      'Here',
    );
    clock.ms += 60_000;
    const email = await server.post(agentA.key, '/v1/emails', {
      personId,
      subject: 'Listing',
      body: '<p>hi</p>',
      isHtml: true,
      from: 'a@x.test',
      to: 'lee@x.test',
      cc: ['b@x.test'],
    });
    assert.equal(email.status, 201, email.text);
    assert.deepEqual(email.body.to, ['lee@x.test']);
    assert.deepEqual(email.body.cc, ['b@x.test']);
    assert.equal(email.body.sentAt, new Date(clock.ms).toISOString().replace('.000', ''));
    assert.equal(
      (await server.get(account.owner.key, `/v1/people/${personId}`)).body.lastActivity,
      email.body.sentAt,
    );
    assert.equal(
      (await server.post(agentA.key, '/v1/emails', { personId, sentAt: 'yesterday-ish' })).status,
      400,
    );
    assert.equal((await server.get(agentB.key, `/v1/emails/${email.body.id}`)).status, 404);
    assert.equal(
      (await server.put(agentA.key, `/v1/emails/${email.body.id}`, { subject: 'Listing 2' })).body
        .subject,
      'Listing 2',
    );
    assert.equal((await server.del(agentA.key, `/v1/emails/${email.body.id}`)).status, 204);
    assert.equal((await server.del(agentA.key, `/v1/textMessages/${text.body.id}`)).status, 204);
    const got = await events(server, account.accountId);
    const mine = got.filter(([e]) => e.startsWith('textMessages') || e.startsWith('emails'));
    assert.deepEqual(mine, [
      ['textMessagesCreated', [text.body.id]],
      ['textMessagesUpdated', [text.body.id]],
      ['emailsCreated', [email.body.id]],
      ['emailsUpdated', [email.body.id]],
      ['emailsDeleted', [email.body.id]],
      ['textMessagesDeleted', [text.body.id]],
    ]);
  });

  it('creates tasks, refuses other agents, and filters by due date against the clock', async () => {
    const { account, agentA, agentB, personId } = await setup();
    const mk = (body: object) => server.post(agentA.key, '/v1/tasks', { personId, ...body });
    const today = await mk({ name: 'Call today', type: 'Call', dueDate: '2026-03-10' });
    assert.equal(today.status, 201, today.text);
    assert.equal(today.body.assignedUserId, agentA.id);
    assert.equal(today.body.isCompleted, false);
    const overdue = await mk({ name: 'Late', dueDate: '2026-03-09' });
    const overdoneDone = await mk({
      name: 'Late but done',
      dueDate: '2026-03-01',
      isCompleted: true,
    });
    const upcoming = await mk({
      name: 'Later',
      type: 'Showing',
      dueDateTime: '2026-03-12T10:00:00Z',
    });
    assert.equal(upcoming.body.dueDate, '2026-03-12');
    assert.equal(overdue.body.type, 'Follow Up');
    const ids = async (query: string) =>
      (await server.get(agentA.key, `/v1/tasks?personId=${personId}&${query}`)).body.tasks.map(
        (t: { id: number }) => t.id,
      );
    assert.deepEqual(await ids('due=today'), [today.body.id]);
    assert.deepEqual(await ids('due=overdue'), [overdue.body.id]);
    assert.deepEqual(await ids('due=upcoming'), [upcoming.body.id]);
    assert.deepEqual(await ids('isCompleted=true'), [overdoneDone.body.id]);
    assert.deepEqual(await ids('type=Showing'), [upcoming.body.id]);
    clock.ms += 2 * 86_400_000; // two days later the "today" task is overdue and "upcoming" is today
    assert.deepEqual(await ids('due=today'), [upcoming.body.id]);
    assert.deepEqual(await ids('due=overdue'), [overdue.body.id, today.body.id]);
    clock.ms -= 2 * 86_400_000;
    assert.equal((await server.get(agentA.key, '/v1/tasks?due=someday')).status, 400);
    assert.equal((await mk({ name: 'x', type: 'Party' })).status, 400);
    assert.equal((await mk({ name: 'x', dueDate: '2026-02-30' })).status, 400);
    const stranger = await server.newAccount();
    assert.equal((await mk({ name: 'x', assignedUserId: stranger.owner.id })).status, 400);

    assert.equal((await server.get(agentB.key, `/v1/tasks/${today.body.id}`)).status, 404);
    assert.equal(
      (await server.put(agentB.key, `/v1/tasks/${today.body.id}`, { isCompleted: true })).status,
      404,
    );
    assert.equal((await server.del(agentB.key, `/v1/tasks/${today.body.id}`)).status, 404);
    assert.equal((await server.get(stranger.owner.key, `/v1/tasks/${today.body.id}`)).status, 404);
    const done = await server.put(agentA.key, `/v1/tasks/${today.body.id}`, { isCompleted: 1 });
    assert.equal(done.body.isCompleted, true);
    assert.ok(done.body.completed);
    assert.equal((await server.del(agentA.key, `/v1/tasks/${today.body.id}`)).status, 204);
    const taskEvents = await events(server, account.accountId, 'tasks');
    assert.deepEqual(
      taskEvents.map(([e]) => e),
      [
        'tasksCreated',
        'tasksCreated',
        'tasksCreated',
        'tasksCreated',
        'tasksUpdated',
        'tasksDeleted',
      ],
    );
    // tasks are not interactions: lastActivity is untouched
    assert.equal(
      (await server.get(account.owner.key, `/v1/people/${personId}`)).body.lastActivity,
      null,
    );
  });
});
