import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';

/** Issue 33 point 4, continued: custom fields' isRecurring and appointments' createdById. */
describe('more fields real clients send', () => {
  let server: TestServer;
  let account: TestAccount;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
  });
  after(async () => {
    await server?.close();
  });

  it('a date custom field takes isRecurring on POST and PUT; other types never answer it', async () => {
    const key = account.owner.key;
    const birthday = await server.post(key, '/v1/customFields', {
      label: unique('Birthday'),
      type: 'date',
      isRecurring: true,
    });
    assert.equal(birthday.status, 201, birthday.text);
    assert.equal(birthday.body.isRecurring, true);
    const plain = await server.post(key, '/v1/customFields', {
      label: unique('Move'),
      type: 'date',
    });
    assert.equal(plain.body.isRecurring, false);

    const off = await server.put(key, `/v1/customFields/${birthday.body.id}`, { isRecurring: '0' });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.isRecurring, false);
    const read = await server.get(key, `/v1/customFields/${birthday.body.id}`);
    assert.equal(read.body.isRecurring, false);

    // Clients send isRecurring: false on any field; true on a text field is a mistake to name.
    const text = await server.post(key, '/v1/customFields', {
      label: unique('Nickname'),
      type: 'text',
      isRecurring: false,
    });
    assert.equal(text.status, 201, text.text);
    assert.equal('isRecurring' in text.body, false);
    const wrong = await server.put(key, `/v1/customFields/${text.body.id}`, { isRecurring: true });
    assert.equal(wrong.status, 400, wrong.text);
    assert.match(wrong.body.errorMessage, /isRecurring is for date fields only/);

    const deals = await server.post(key, '/v1/dealCustomFields', {
      label: unique('Anniversary'),
      type: 'date',
      isRecurring: 1,
    });
    assert.equal(deals.status, 201, deals.text);
    assert.equal(deals.body.isRecurring, true);
  });

  it('POST /v1/appointments with createdById: an Admin names the maker, an Agent is the maker', async () => {
    const admin = await account.addUser('Admin');
    const agent = await account.addUser('Agent');
    const lastName = unique('Buyer');
    const person = await server.newPerson(agent.key, { firstName: 'Jo', lastName });
    // Invitees as the real API's reference shows them: a name (and a person's email) beside the id.
    const body = {
      title: 'Showing',
      start: '2026-12-01T15:00:00Z',
      end: '2026-12-01T16:00:00Z',
      invitees: [
        { userId: agent.id, name: 'Tom Minch' },
        { personId: String(person.id), name: 'John Q Customer', email: 'johnq@example.com' },
      ],
    };
    const byAdmin = await server.post(admin.key, '/v1/appointments', {
      ...body,
      createdById: agent.id,
    });
    assert.equal(byAdmin.status, 201, byAdmin.text);
    assert.equal(byAdmin.body.createdById, agent.id);
    assert.deepEqual(
      byAdmin.body.invitees.map((i: { name: string }) => i.name),
      [agent.name, `Jo ${lastName}`],
    );
    const read = await server.get(admin.key, `/v1/appointments/${byAdmin.body.id}`);
    assert.equal(read.body.createdById, agent.id);

    const byAgent = await server.post(agent.key, '/v1/appointments', {
      ...body,
      createdById: admin.id,
    });
    assert.equal(byAgent.status, 201, byAgent.text);
    assert.equal(byAgent.body.createdById, agent.id);

    const stranger = await server.newAccount();
    const foreign = await server.post(admin.key, '/v1/appointments', {
      ...body,
      createdById: stranger.owner.id,
    });
    assert.equal(foreign.status, 400, foreign.text);
    assert.match(foreign.body.errorMessage, /createdById/);
  });
});
