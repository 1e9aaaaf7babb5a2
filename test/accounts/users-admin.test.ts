import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import { asBrowser, givePassword, login, signIn } from '../support/auth.js';
import { bearer, codeFlow, newClient } from './oauth-helpers.js';
import { outboxEventsNamed } from '../support/outbox.js';

describe('managing users: roles and deactivation', () => {
  let server: TestServer;
  let account: TestAccount;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
  });
  after(async () => server.close());

  it('a role change reaches the user’s signed-in browser on its next request', async () => {
    const admin = await account.addUser('Admin');
    const session = await signIn(server, (await givePassword(server, admin)).email);
    // Read once as Admin, so that the session is one the server has just verified.
    assert.equal((await asBrowser(server, session, 'GET', '/v1/invites')).status, 200);
    const demoted = await server.put(account.owner.key, `/v1/users/${admin.id}`, { role: 'Agent' });
    assert.equal(demoted.status, 200, demoted.text);
    const after = await asBrowser(server, session, 'GET', '/v1/invites');
    assert.equal(after.status, 403, after.text);
  });

  it('PUT /v1/users/:id changes a role at once; only an Owner makes or unmakes Owners', async () => {
    const admin = await account.addUser('Admin');
    const agent = await account.addUser('Agent');
    assert.equal((await server.post(agent.key, '/v1/invites', {})).status, 400);
    const promoted = await server.put(admin.key, `/v1/users/${agent.id}`, { role: 'Admin' });
    assert.equal(promoted.status, 200, promoted.text);
    assert.equal(promoted.body.role, 'Admin');
    // The promoted key works as Admin on the next request (no stale cached role).
    assert.equal((await server.get(agent.key, '/v1/invites')).status, 200);
    assert.equal(
      (await server.put(admin.key, `/v1/users/${agent.id}`, { role: 'Owner' })).status,
      403,
    );
    assert.equal(
      (await server.put(admin.key, `/v1/users/${account.owner.id}`, { role: 'Agent' })).status,
      403,
    );
    const lastOwner = await server.put(account.owner.key, `/v1/users/${account.owner.id}`, {
      role: 'Admin',
    });
    assert.equal(lastOwner.status, 400);
    assert.match(lastOwner.body.errorMessage, /only Owner/);
    const bad = await server.put(admin.key, `/v1/users/${agent.id}`, { role: 'Boss' });
    assert.equal(bad.status, 400);
    const lender = await account.addUser('Lender');
    assert.equal(
      (await server.put(lender.key, `/v1/users/${agent.id}`, { role: 'Agent' })).status,
      403,
    );
    const other = await server.newAccount();
    assert.equal(
      (await server.put(other.owner.key, `/v1/users/${agent.id}`, { role: 'Agent' })).status,
      404,
    );
  });

  it('DELETE /v1/users/:id?assignTo= hands over people and ends sessions, key and tokens', async () => {
    const leaving = await account.addUser('Agent');
    const heir = await account.addUser('Agent');
    const { email } = await givePassword(server, leaving);
    const session = await signIn(server, email);
    const client = await newClient(server, account.accountId);
    const tokens = await codeFlow(server, client, leaving.key);
    const person = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Handed',
      assignedUserId: leaving.id,
    });
    assert.equal(person.status, 201, person.text);

    const missing = await server.del(account.owner.key, `/v1/users/${leaving.id}`);
    assert.equal(missing.status, 400);
    assert.match(missing.body.errorMessage, /assignTo/);
    const self = await server.del(
      account.owner.key,
      `/v1/users/${leaving.id}?assignTo=${leaving.id}`,
    );
    assert.equal(self.status, 400);
    assert.equal(
      (await server.del(heir.key, `/v1/users/${leaving.id}?assignTo=${heir.id}`)).status,
      403,
    );
    const done = await server.del(account.owner.key, `/v1/users/${leaving.id}?assignTo=${heir.id}`);
    assert.equal(done.status, 204, done.text);

    const moved = await server.get(heir.key, `/v1/people/${person.body.id}`);
    assert.equal(moved.status, 200);
    assert.equal(moved.body.assignedUserId, heir.id);
    assert.equal((await server.get(leaving.key, '/v1/me')).status, 401);
    assert.equal((await asBrowser(server, session, 'GET', '/v1/me')).status, 401);
    assert.equal((await login(server, email, 'plum-harbor-lantern-42')).status, 401);
    assert.equal((await bearer(server, tokens.access_token, '/v1/me')).status, 401);

    const listed = await server.get(account.owner.key, '/v1/users');
    assert.ok(!listed.body.users.some((u: { id: number }) => u.id === leaving.id));
    const all = await server.get(account.owner.key, '/v1/users?includeDeleted=true');
    const gone = all.body.users.find((u: { id: number }) => u.id === leaving.id);
    assert.equal(gone.status, 'Deleted');
    assert.equal(
      (await server.del(account.owner.key, `/v1/users/${leaving.id}?assignTo=${heir.id}`)).status,
      404,
    );
    assert.equal(
      (await server.del(account.owner.key, `/v1/users/${heir.id}?assignTo=${leaving.id}`)).status,
      400,
    );
  });

  it('deactivation fires peopleUpdated once for each person handed over, as agent or as lender', async () => {
    const updatedIds = async () =>
      (await outboxEventsNamed(server, account.accountId, 'peopleUpdated')).flatMap(
        (e) => e.resourceIds,
      );
    const agent = await account.addUser('Agent');
    const lender = await account.addUser('Lender');
    const heir = await account.addUser('Agent');
    const heirLender = await account.addUser('Lender');
    const make = async (body: Record<string, unknown>) => {
      const res = await server.post(account.owner.key, '/v1/people', body);
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    const theirs = [
      await make({ firstName: 'Theirs', assignedUserId: agent.id }),
      await make({ firstName: 'Theirs too', assignedUserId: agent.id }),
    ];
    const lent = await make({ firstName: 'Lent', assignedLenderId: lender.id });
    const untouched = await make({ firstName: 'Untouched', assignedUserId: heir.id });
    const before = await updatedIds();

    const gone = await server.del(account.owner.key, `/v1/users/${agent.id}?assignTo=${heir.id}`);
    assert.equal(gone.status, 204, gone.text);
    const afterAgent = (await updatedIds()).slice(before.length);
    assert.deepEqual(afterAgent, theirs, 'one peopleUpdated naming exactly the handed-over people');

    const lenderGone = await server.del(
      account.owner.key,
      `/v1/users/${lender.id}?assignTo=${heirLender.id}`,
    );
    assert.equal(lenderGone.status, 204, lenderGone.text);
    const afterLender = (await updatedIds()).slice(before.length + afterAgent.length);
    assert.deepEqual(afterLender, [lent]);
    assert.equal(
      (await server.get(account.owner.key, `/v1/people/${lent}`)).body.assignedLenderId,
      heirLender.id,
    );
    assert.ok(!(await updatedIds()).includes(untouched));
  });

  it('the last Owner and the caller cannot be deactivated', async () => {
    const admin = await account.addUser('Admin');
    const owner = account.owner;
    const res = await server.del(admin.key, `/v1/users/${owner.id}?assignTo=${admin.id}`);
    assert.equal(res.status, 403);
    const self = await server.del(owner.key, `/v1/users/${owner.id}?assignTo=${admin.id}`);
    assert.equal(self.status, 400);
    assert.match(self.body.errorMessage, /yourself/);
  });
});
