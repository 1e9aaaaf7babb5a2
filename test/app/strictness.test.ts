import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';

describe('strictness: query parameters and body fields as the real API reads them', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('ignores unknown query parameters on lists, reads and writes alike', async () => {
    const { owner } = await server.newAccount();
    const person = await server.post(owner.key, '/v1/people?guess=1', { firstName: 'Quinn' });
    assert.equal(person.status, 201, person.text);
    const list = await server.get(owner.key, `/v1/people?pond=134&id=${person.body.id}`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body._metadata.total, 1);
    const one = await server.get(owner.key, `/v1/people/${person.body.id}?team=4`);
    assert.equal(one.status, 200, one.text);
    const notes = await server.get(owner.key, `/v1/notes?personId=${person.body.id}&x=y`);
    assert.equal(notes.status, 200, notes.text);
    const put = await server.put(owner.key, `/v1/people/${person.body.id}?zzz=1`, {
      lastName: 'Q',
    });
    assert.equal(put.status, 200, put.text);
  });

  it('still refuses a known query parameter with a bad value', async () => {
    const { owner } = await server.newAccount();
    const res = await server.get(owner.key, '/v1/people?pond=1&assignedUserId=abc');
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.errorMessage, /assignedUserId/);
    const bool = await server.get(owner.key, '/v1/people?includeTrash=maybe');
    assert.equal(bool.status, 400, bool.text);
    assert.match(bool.body.errorMessage, /includeTrash/);
  });

  it('reads query booleans case-insensitively', async () => {
    const { owner } = await server.newAccount();
    const person = await server.post(owner.key, '/v1/people', { firstName: 'Bo' });
    const note = await server.post(owner.key, '/v1/notes', {
      personId: person.body.id,
      body: 'hello',
    });
    assert.equal(note.status, 201, note.text);
    const upper = await server.get(owner.key, `/v1/notes/${note.body.id}?includeReactions=True`);
    assert.equal(upper.status, 200, upper.text);
    assert.deepEqual(upper.body.reactions, []);
    const shouting = await server.get(
      owner.key,
      `/v1/notes/${note.body.id}?includeReactions=FALSE&includeThreadedReplies=TRUE`,
    );
    assert.equal(shouting.status, 200, shouting.text);
    assert.equal(shouting.body.reactions, undefined);
    assert.deepEqual(shouting.body.threadedReplies, []);
    const dedup = await server.post(owner.key, '/v1/people?deduplicate=True', {
      firstName: 'Bo',
      emails: ['bo@example.com'],
    });
    assert.equal(dedup.status, 201, dedup.text);
    const again = await server.post(owner.key, '/v1/people?deduplicate=True', {
      firstName: 'Bo',
      emails: ['bo@example.com'],
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.id, dedup.body.id);
  });

  it('refuses unknown body fields naming all of them, but accepts system and custom keys', async () => {
    const { owner } = await server.newAccount();
    const res = await server.post(owner.key, '/v1/notes', { body: 'x', mood: 1, colour: 'red' });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.errorMessage, 'Invalid fields in the request body: mood, colour.');
    const withSystem = await server.post(owner.key, '/v1/people', {
      firstName: 'S',
      system: 'Crm',
    });
    assert.equal(withSystem.status, 201, withSystem.text);
  });
});
