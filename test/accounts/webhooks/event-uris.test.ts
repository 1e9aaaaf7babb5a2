import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_RESOURCES } from '../../../src/accounts/webhooks/event-names.js';
import { eventUri } from '../../../src/accounts/webhooks/payload.js';
import { PUBLIC_URL, startServer, type TestServer } from '../../support/server.js';

// Every webhook `uri` must be an address a receiver can GET with its API key.
describe('webhook uri addresses resolve to API routes', () => {
  let server: TestServer;
  let ownerKey: string;
  before(async () => {
    server = await startServer();
    ownerKey = (await server.newAccount()).owner.key;
  });
  after(async () => server.close());

  const paths = [...new Set(Object.values(EVENT_RESOURCES) as (string | null)[])].filter(
    (p): p is string => p !== null,
  );
  for (const path of paths) {
    it(`${path}: the list answers an id filter`, async () => {
      const event = (Object.keys(EVENT_RESOURCES) as (keyof typeof EVENT_RESOURCES)[]).find(
        (e) => EVENT_RESOURCES[e] === path,
      )!;
      const uri = eventUri(PUBLIC_URL, event, [999999998, 999999999])!;
      const res = await server.get(ownerKey, uri.slice(PUBLIC_URL.length));
      assert.equal(res.status, 200, `${uri}: ${res.text}`);
      const collection = res.body._metadata.collection;
      assert.deepEqual(res.body[collection], []);
    });
  }

  it('an id filter returns exactly the named records (notes and reactions)', async () => {
    const person = await server.post(ownerKey, '/v1/people', { firstName: 'Uri' });
    const notes = [];
    for (const subject of ['one', 'two', 'three'])
      notes.push(
        (
          await server.post(ownerKey, '/v1/notes', {
            personId: person.body.id,
            subject,
            body: subject,
          })
        ).body.id,
      );
    const listed = await server.get(ownerKey, `/v1/notes?id=${notes[0]},${notes[2]}`);
    assert.deepEqual(
      listed.body.notes.map((n: { id: number }) => n.id).sort(),
      [notes[0], notes[2]].sort(),
    );
    const reaction = await server.post(ownerKey, `/v1/reactions/Note/${notes[1]}`, { body: '👍' });
    assert.equal(reaction.status, 201, reaction.text);
    const reactions = await server.get(ownerKey, `/v1/reactions?id=${reaction.body.id}`);
    assert.deepEqual(
      reactions.body.reactions.map((r: { id: number }) => r.id),
      [reaction.body.id],
    );
    const byRef = await server.get(ownerKey, `/v1/reactions?refType=Note&refId=${notes[1]}`);
    assert.equal(byRef.body._metadata.total, 1);
    const bad = await server.get(ownerKey, '/v1/notes?id=1,x');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /'id' must be a comma-separated list/);
  });
});
