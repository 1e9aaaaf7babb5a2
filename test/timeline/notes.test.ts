import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PUBLIC_URL, type TestServer, startServer } from '../support/server.js';
import { outboxEvents } from '../support/outbox.js';
import { buildAgentsWithPerson } from '../support/factories.js';

describe('timeline: notes, reactions, threaded replies', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  const setup = () => buildAgentsWithPerson(server, { firstName: 'Pat' });

  it('creates, reads, lists, updates and deletes a note with its events and lastActivity', async () => {
    const { account, agentA, personId } = await setup();
    const created = await server.post(agentA.key, '/v1/notes', {
      personId,
      subject: 'Call back',
      body: 'Wants a 3 bed',
      isHtml: 0,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.createdBy, agentA.name);
    assert.equal(created.body.createdById, agentA.id);
    assert.equal(created.body.isHtml, false);
    assert.equal(created.body.personId, personId);
    const person = await server.get(account.owner.key, `/v1/people/${personId}`);
    assert.ok(person.body.lastActivity, 'note marks lastActivity');

    const second = await server.post(agentA.key, '/v1/notes', { personId, body: 'second' });
    const list = await server.get(agentA.key, `/v1/notes?personId=${personId}&limit=1`);
    assert.equal(list.status, 200);
    assert.equal(list.body._metadata.collection, 'notes');
    assert.equal(list.body._metadata.total, 2);
    assert.deepEqual(
      list.body.notes.map((n: { id: number }) => n.id),
      [second.body.id],
    );
    assert.ok(list.body._metadata.nextLink.startsWith(`${PUBLIC_URL}/v1/notes?`));

    const updated = await server.put(account.owner.key, `/v1/notes/${created.body.id}`, {
      body: 'Wants a 4 bed',
      isHtml: true,
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.body, 'Wants a 4 bed');
    assert.equal(updated.body.subject, 'Call back');
    assert.equal(updated.body.isHtml, true);
    assert.equal(updated.body.updatedBy, account.owner.name);

    assert.equal((await server.del(agentA.key, `/v1/notes/${created.body.id}`)).status, 204);
    assert.equal((await server.get(agentA.key, `/v1/notes/${created.body.id}`)).status, 404);
    const events = (await outboxEvents(server, account.accountId)).filter((e) =>
      e.event.startsWith('notes'),
    );
    assert.deepEqual(
      events.map((e) => [e.event, e.resourceIds]),
      [
        ['notesCreated', [created.body.id]],
        ['notesCreated', [second.body.id]],
        ['notesUpdated', [created.body.id]],
        ['notesDeleted', [created.body.id]],
      ],
    );
  });

  it("refuses an Agent another agent's notes (404) and hides them from lists", async () => {
    const { account, agentA, agentB, personId } = await setup();
    const note = await server.post(agentA.key, '/v1/notes', { personId, body: 'private' });
    assert.equal((await server.get(agentB.key, `/v1/notes/${note.body.id}`)).status, 404);
    assert.equal(
      (await server.put(agentB.key, `/v1/notes/${note.body.id}`, { body: 'x' })).status,
      404,
    );
    assert.equal((await server.del(agentB.key, `/v1/notes/${note.body.id}`)).status, 404);
    assert.equal((await server.post(agentB.key, '/v1/notes', { personId, body: 'x' })).status, 404);
    const list = await server.get(agentB.key, '/v1/notes');
    assert.equal(list.body._metadata.total, 0);
    assert.equal((await server.get(account.owner.key, `/v1/notes/${note.body.id}`)).status, 200);
    // moving a note to a person the agent cannot see is refused too
    const other = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Other',
      assignedUserId: agentB.id,
    });
    assert.equal(
      (await server.put(agentA.key, `/v1/notes/${note.body.id}`, { personId: other.body.id }))
        .status,
      404,
    );
  });

  it('is isolated between accounts and validates input', async () => {
    const { account, personId } = await setup();
    const note = await server.post(account.owner.key, '/v1/notes', { personId, body: 'mine' });
    const stranger = await server.newAccount();
    assert.equal((await server.get(stranger.owner.key, `/v1/notes/${note.body.id}`)).status, 404);
    assert.equal(
      (await server.post(stranger.owner.key, '/v1/notes', { personId, body: 'x' })).status,
      404,
    );
    assert.equal(
      (await server.post(stranger.owner.key, `/v1/reactions/Note/${note.body.id}`, { body: '👍' }))
        .status,
      404,
    );
    assert.equal(
      (
        await server.post(stranger.owner.key, '/v1/threadedReplies', {
          refType: 'Note',
          refId: note.body.id,
          body: 'hi',
        })
      ).status,
      404,
    );
    const bad = await server.post(account.owner.key, '/v1/notes', {
      personId,
      body: 'x',
      color: 'red',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /color/);
    assert.equal((await server.post(account.owner.key, '/v1/notes', { body: 'x' })).status, 400);
    assert.equal(
      (await server.post(account.owner.key, `/v1/reactions/Deal/${note.body.id}`, { body: '👍' }))
        .status,
      400,
    );
  });

  it('reacts and replies, with ref data on the events, and includes them on the note', async () => {
    const { account, agentA, agentB, personId } = await setup();
    const note = await server.post(agentA.key, '/v1/notes', { personId, body: 'hello' });
    const noteId = note.body.id as number;
    const reaction = await server.post(agentA.key, `/v1/reactions/Note/${noteId}`, { body: '👍' });
    assert.equal(reaction.status, 201, reaction.text);
    assert.equal(reaction.body.body, '👍');
    const again = await server.post(agentA.key, `/v1/reactions/note/${noteId}`, { body: '👍' });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, reaction.body.id);
    const got = await server.get(agentA.key, `/v1/reactions/${reaction.body.id}`);
    assert.equal(got.status, 200);
    assert.equal((await server.get(agentB.key, `/v1/reactions/${reaction.body.id}`)).status, 404);

    const reply = await server.post(agentA.key, '/v1/threadedReplies', {
      refType: 'Note',
      refId: noteId,
      body: 'me too',
    });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(
      (await server.get(agentA.key, `/v1/threadedReplies/${reply.body.id}`)).body.body,
      'me too',
    );
    const edited = await server.put(agentA.key, `/v1/threadedReplies/${reply.body.id}`, {
      body: 'me three',
    });
    assert.equal(edited.body.body, 'me three');
    assert.equal(
      (
        await server.put(account.owner.key, `/v1/threadedReplies/${reply.body.id}`, {
          body: 'owner edit',
        })
      ).status,
      403,
    );
    const replies = await server.get(
      agentA.key,
      `/v1/threadedReplies?refType=Note&refId=${noteId}`,
    );
    assert.equal(replies.body._metadata.total, 1);

    const full = await server.get(
      agentA.key,
      `/v1/notes/${noteId}?includeReactions=true&includeThreadedReplies=true`,
    );
    assert.equal(full.body.reactions.length, 1);
    assert.equal(full.body.reactions[0].body, '👍');
    assert.equal(full.body.threadedReplies[0].body, 'me three');
    const plain = await server.get(agentA.key, `/v1/notes/${noteId}`);
    assert.equal(plain.body.reactions, undefined);

    assert.equal(
      (
        await server.del(
          agentA.key,
          `/v1/reactions/Note/${noteId}?emoji=${encodeURIComponent('🎉')}`,
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await server.call('DELETE', `/v1/reactions/Note/${noteId}`, {
          key: agentA.key,
          body: { emoji: '👍' },
        })
      ).status,
      204,
    );
    assert.equal((await server.get(agentA.key, `/v1/reactions/${reaction.body.id}`)).status, 404);
    await server.post(agentA.key, `/v1/reactions/Note/${noteId}`, { body: '🎉' });
    assert.equal(
      (
        await server.del(
          agentA.key,
          `/v1/reactions/Note/${noteId}?emoji=${encodeURIComponent('🎉')}`,
        )
      ).status,
      204,
    );
    assert.equal(
      (await server.del(account.owner.key, `/v1/threadedReplies/${reply.body.id}`)).status,
      204,
    );

    const refData = { refType: 'Note', refId: noteId, refUri: `${PUBLIC_URL}/v1/notes/${noteId}` };
    const events = (await outboxEvents(server, account.accountId)).filter(
      (e) => e.event.startsWith('reaction') || e.event.startsWith('threaded'),
    );
    assert.deepEqual(
      events.map((e) => e.event),
      [
        'reactionCreated',
        'threadedReplyCreated',
        'threadedReplyUpdated',
        'reactionDeleted',
        'reactionCreated',
        'reactionDeleted',
        'threadedReplyDeleted',
      ],
    );
    for (const e of events) assert.deepEqual(e.data, refData);
  });
});
