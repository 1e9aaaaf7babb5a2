import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';

/**
 * Issue 33 point 4: where the real API is stricter than Hearth, Hearth stays lenient on purpose
 * (docs/api.md, "Where Hearth accepts more than the real API"). These pin each choice.
 */
describe('requests the real API refuses and Hearth accepts', () => {
  let server: TestServer;
  let account: TestAccount;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
  });
  after(async () => {
    await server?.close();
  });

  it('text messages and deal attachments without X-System are accepted', async () => {
    const key = account.owner.key;
    const person = await server.newPerson(key);
    const text = await server.post(key, '/v1/textMessages', {
      personId: person.id,
      message: 'On my way',
      toNumber: '5550101234',
      isIncoming: false,
    });
    assert.equal(text.status, 201, text.text);
    const pipeline = await server.post(key, '/v1/pipelines', {
      name: unique('Sellers'),
      stages: [{ name: 'Listed' }],
    });
    const deal = await server.post(key, '/v1/deals', {
      name: unique('Deal'),
      stageId: pipeline.body.stages[0].id,
      peopleIds: [person.id],
    });
    const file = await server.post(key, '/v1/dealAttachments', {
      dealId: deal.body.id,
      uri: 'https://files.example.com/offer.pdf',
      fileName: 'offer.pdf',
    });
    assert.equal(file.status, 201, file.text);
    assert.equal(file.body.dealId, deal.body.id);
    // Person attachments keep the contract's rule: a registered system.
    const personFile = await server.post(key, '/v1/personAttachments', {
      personId: person.id,
      uri: 'https://files.example.com/id.pdf',
      fileName: 'id.pdf',
    });
    assert.equal(personFile.status, 403, personFile.text);
  });

  it('a stage nobody is in is deleted without assignStageId; one with people still needs it', async () => {
    const key = account.owner.key;
    const empty = await server.post(key, '/v1/stages', { name: unique('Empty') });
    assert.equal(empty.status, 201, empty.text);
    const gone = await server.del(key, `/v1/stages/${empty.body.id}`);
    assert.equal(gone.status, 204, gone.text);
    const busy = await server.post(key, '/v1/stages', { name: unique('Busy') });
    await server.newPerson(key, { stage: busy.body.name });
    const refused = await server.del(key, `/v1/stages/${busy.body.id}`);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.errorMessage, /assignStageId/);
  });

  it('a pond without users is made empty, and members can be added later', async () => {
    const key = account.owner.key;
    const pond = await server.post(key, '/v1/ponds', { name: unique('Pond') });
    assert.equal(pond.status, 201, pond.text);
    assert.deepEqual(pond.body.userIds, []);
    const agent = await account.addUser('Agent');
    const filled = await server.put(key, `/v1/ponds/${pond.body.id}`, { userIds: [agent.id] });
    assert.equal(filled.status, 200, filled.text);
    assert.deepEqual(filled.body.userIds, [agent.id]);
  });
});
