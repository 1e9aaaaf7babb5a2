import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { type OutboxEvent, outboxEvents, outboxOf } from '../support/outbox.js';
import { buildAgentsWithPerson } from '../support/factories.js';

const pairs = (events: OutboxEvent[]) =>
  events.map((e): [string, number[]] => [e.event, e.resourceIds]);

describe('timeline: appointments, relationships, person deletion', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  const setup = () => buildAgentsWithPerson(server, { firstName: 'Sam', lastName: 'Ray' });

  it('creates appointments with invitees, events only for Hearth-made ones', async () => {
    const { account, agentA, agentB, personId } = await setup();
    const appt = await server.post(agentA.key, '/v1/appointments', {
      title: 'Showing',
      start: '2026-04-01T15:00:00Z',
      end: '2026-04-01T16:00:00Z',
      location: '1 Main St',
      invitees: [
        { userId: agentA.id },
        { personId },
        { email: 'Buyer@Example.com', name: 'Buyer' },
      ],
    });
    assert.equal(appt.status, 201, appt.text);
    assert.equal(appt.body.origin, 'hearth');
    assert.deepEqual(
      appt.body.invitees.map((i: Record<string, unknown>) => i.userId ?? i.personId ?? i.email),
      [agentA.id, personId, 'buyer@example.com'],
    );
    assert.ok((await server.get(account.owner.key, `/v1/people/${personId}`)).body.lastActivity);
    assert.equal(
      (await server.get(agentA.key, `/v1/appointments?personId=${personId}`)).body._metadata.total,
      1,
    );
    assert.equal((await server.get(agentB.key, `/v1/appointments/${appt.body.id}`)).status, 404);
    assert.equal((await server.get(agentB.key, '/v1/appointments')).body._metadata.total, 0);
    assert.equal(
      (
        await server.post(agentB.key, '/v1/appointments', {
          title: 'x',
          start: '2026-04-01T15:00:00Z',
          end: '2026-04-01T16:00:00Z',
          invitees: [{ personId }],
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await server.post(agentA.key, '/v1/appointments', {
          title: 'x',
          start: '2026-04-02T15:00:00Z',
          end: '2026-04-01T16:00:00Z',
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await server.post(agentA.key, '/v1/appointments', {
          title: 'x',
          start: 'soon',
          end: '2026-04-01T16:00:00Z',
        })
      ).status,
      400,
    );
    const moved = await server.put(agentA.key, `/v1/appointments/${appt.body.id}`, {
      location: '2 Main St',
      invitees: [{ personId }],
    });
    assert.equal(moved.body.location, '2 Main St');
    assert.equal(moved.body.invitees.length, 1);

    // An appointment that came from a calendar sync (origin other than hearth) fires no events.
    const now = new Date().toISOString();
    const synced = await server.ctx.db
      .insertInto('appointments')
      .values({
        account_id: account.accountId,
        title: 'Synced',
        start_at: now,
        end_at: now,
        all_day: 0,
        description: '',
        location: '',
        type_id: null,
        origin: 'google',
        created_by_id: agentA.id,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.equal(
      (await server.put(agentA.key, `/v1/appointments/${synced.id}`, { title: 'Synced 2' })).status,
      200,
    );
    assert.equal((await server.del(agentA.key, `/v1/appointments/${synced.id}`)).status, 204);
    assert.equal((await server.del(agentA.key, `/v1/appointments/${appt.body.id}`)).status, 204);
    const got = pairs(await outboxEvents(server, account.accountId)).filter(([e]) =>
      e.startsWith('appointments'),
    );
    assert.deepEqual(got, [
      ['appointmentsCreated', [appt.body.id]],
      ['appointmentsUpdated', [appt.body.id]],
      ['appointmentsDeleted', [appt.body.id]],
    ]);
  });

  it('keeps relationships with their own contacts and fires peopleUpdated on the person', async () => {
    const { account, agentA, agentB, personId } = await setup();
    const outbox = await outboxOf(server, account.accountId);
    const rel = await server.post(agentA.key, '/v1/peopleRelationships', {
      personId,
      name: 'Jo Ray',
      type: 'Spouse',
      emails: ['jo@example.com'],
      phones: [{ value: '(555) 123-4567', type: 'mobile' }],
    });
    assert.equal(rel.status, 201, rel.text);
    assert.equal(rel.body.firstName, 'Jo');
    assert.equal(rel.body.lastName, 'Ray');
    assert.equal(rel.body.phones[0].normalized, '5551234567');
    assert.equal(rel.body.emails[0].isPrimary, true);
    const list = await server.get(agentA.key, `/v1/peopleRelationships?personId=${personId}`);
    assert.equal(list.body._metadata.collection, 'peoplerelationships');
    assert.equal(list.body.peoplerelationships.length, 1);
    assert.equal(
      (await server.get(agentB.key, `/v1/peopleRelationships/${rel.body.id}`)).status,
      404,
    );
    assert.equal(
      (await server.post(agentA.key, '/v1/peopleRelationships', { personId })).status,
      400,
    );
    const put = await server.put(agentA.key, `/v1/peopleRelationships/${rel.body.id}`, {
      type: 'Partner',
    });
    assert.equal(put.body.type, 'Partner');
    assert.equal(put.body.emails[0].value, 'jo@example.com');
    assert.equal(
      (await server.del(agentA.key, `/v1/peopleRelationships/${rel.body.id}`)).status,
      204,
    );
    assert.deepEqual(pairs(await outbox.take()), [
      ['peopleRelationshipCreated', [rel.body.id]],
      ['peopleUpdated', [personId]],
      ['peopleRelationshipUpdated', [rel.body.id]],
      ['peopleUpdated', [personId]],
      ['peopleRelationshipDeleted', [rel.body.id]],
      ['peopleUpdated', [personId]],
    ]);
  });

  it('deleting a person removes their whole timeline and emits only peopleDeleted', async () => {
    const { account, agentA, personId } = await setup();
    const key = agentA.key;
    const note = await server.post(key, '/v1/notes', { personId, body: 'n' });
    await server.post(key, `/v1/reactions/Note/${note.body.id}`, { body: '👍' });
    await server.post(key, '/v1/threadedReplies', {
      refType: 'Note',
      refId: note.body.id,
      body: 'r',
    });
    await server.post(key, '/v1/calls', { personId, phone: '5550001111' });
    await server.post(key, '/v1/textMessages', { personId, message: 't' });
    await server.post(key, '/v1/emails', { personId, subject: 'e' });
    await server.post(key, '/v1/tasks', { personId, name: 'k' });
    await server.post(key, '/v1/peopleRelationships', { personId, name: 'Kim' });
    const appt = await server.post(key, '/v1/appointments', {
      title: 'a',
      start: '2026-04-01T15:00:00Z',
      end: '2026-04-01T16:00:00Z',
      invitees: [{ personId }, { userId: agentA.id }],
    });
    assert.equal(appt.status, 201);
    const outbox = await outboxOf(server, account.accountId);
    assert.equal((await server.del(account.owner.key, `/v1/people/${personId}`)).status, 204);
    const db = server.ctx.db;
    const count = async (
      table: 'notes' | 'calls' | 'text_messages' | 'emails' | 'tasks' | 'people_relationships',
    ) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('person_id', '=', personId)
            .executeTakeFirst()
        )?.n,
      );
    for (const table of [
      'notes',
      'calls',
      'text_messages',
      'emails',
      'tasks',
      'people_relationships',
    ] as const)
      assert.equal(await count(table), 0, table);
    const reactions = await db
      .selectFrom('reactions')
      .select('id')
      .where('ref_id', '=', note.body.id)
      .where('account_id', '=', account.accountId)
      .execute();
    assert.equal(reactions.length, 0);
    const replies = await db
      .selectFrom('threaded_replies')
      .select('id')
      .where('ref_id', '=', note.body.id)
      .where('account_id', '=', account.accountId)
      .execute();
    assert.equal(replies.length, 0);
    const invitees = await db
      .selectFrom('appointment_invitees')
      .select('person_id')
      .where('appointment_id', '=', appt.body.id)
      .execute();
    assert.deepEqual(
      invitees,
      [{ person_id: null }],
      'the appointment stays with its user invitee; the person is gone from it',
    );
    assert.deepEqual(pairs(await outbox.take()), [['peopleDeleted', [personId]]]);
  });
});
