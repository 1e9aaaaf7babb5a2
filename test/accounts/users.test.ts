import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';

describe('users, me and identity', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: TestUser;
  let agent: TestUser;
  let lender: TestUser;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    admin = await account.addUser('Admin', 'Ada Admin');
    agent = await account.addUser('Agent', 'Al Agent');
    lender = await account.addUser('Lender', 'Lee Lender');
  });
  after(async () => server.close());

  const ids = (res: { body: { users: { id: number }[] } }) => res.body.users.map((u) => u.id);

  it('lists the users of the account, newest first, in the envelope', async () => {
    const res = await server.get(agent.key, '/v1/users');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body._metadata.collection, 'users');
    assert.equal(res.body._metadata.total, 4);
    assert.deepEqual(ids(res), [lender.id, agent.id, admin.id, account.owner.id]);
    const user = res.body.users.find((u: { id: number }) => u.id === agent.id);
    assert.deepEqual(Object.keys(user).sort(), [
      'created',
      'email',
      'firstName',
      'id',
      'lastName',
      'name',
      'phone',
      'role',
      'status',
      'teamLeaderOf',
      'updated',
    ]);
    assert.equal(user.role, 'Agent');
    assert.equal(user.name, 'Al Agent');
    assert.ok(!('api_key_hash' in user) && !('apiKey' in user));
  });

  it('filters by role (Broker means Admin), name and email', async () => {
    assert.deepEqual(ids(await server.get(agent.key, '/v1/users?role=Lender')), [lender.id]);
    assert.deepEqual(ids(await server.get(agent.key, '/v1/users?role=Admin')), [admin.id]);
    assert.deepEqual(ids(await server.get(agent.key, '/v1/users?role=Broker')), [admin.id]);
    assert.deepEqual(ids(await server.get(agent.key, '/v1/users?role=Owner')), [account.owner.id]);
    assert.deepEqual(
      ids(await server.get(agent.key, `/v1/users?name=${encodeURIComponent('Ada Admin')}`)),
      [admin.id],
    );
    const adminUser = (await server.get(agent.key, `/v1/users/${admin.id}`)).body;
    assert.deepEqual(
      ids(
        await server.get(
          agent.key,
          `/v1/users?email=${encodeURIComponent(adminUser.email.toUpperCase())}`,
        ),
      ),
      [admin.id],
    );
    assert.deepEqual(
      ids(
        await server.get(agent.key, `/v1/users?role=Agent&name=${encodeURIComponent('Ada Admin')}`),
      ),
      [],
    );
    assert.equal((await server.get(agent.key, '/v1/users?role=King')).status, 400);
    assert.deepEqual(ids(await server.get(agent.key, '/v1/users?sort=name')), [
      admin.id,
      agent.id,
      lender.id,
      account.owner.id,
    ]);
  });

  it('paginates with limit and next', async () => {
    const first = await server.get(agent.key, '/v1/users?limit=3');
    assert.equal(first.body.users.length, 3);
    assert.match(first.body._metadata.nextLink, /^https:\/\/hearth\.test\/v1\/users\?/);
    const second = await server.get(
      agent.key,
      `/v1/users?limit=3&next=${first.body._metadata.next}`,
    );
    assert.deepEqual(ids(second), [account.owner.id]);
  });

  it('GET /v1/users/:id; another account’s user is 404', async () => {
    const res = await server.get(lender.key, `/v1/users/${account.owner.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.role, 'Owner');
    const other = await server.newAccount();
    assert.equal((await server.get(other.owner.key, `/v1/users/${agent.id}`)).status, 404);
    assert.ok(!ids(await server.get(other.owner.key, '/v1/users?limit=100')).includes(agent.id));
    assert.equal((await server.get(lender.key, '/v1/users/abc')).status, 400);
  });

  it('GET /v1/me is the caller', async () => {
    for (const user of [account.owner, admin, agent, lender]) {
      const res = await server.get(user.key, '/v1/me');
      assert.equal(res.status, 200);
      assert.equal(res.body.id, user.id);
      assert.equal(res.body.role, user.role);
    }
    assert.equal((await server.call('GET', '/v1/me')).status, 401);
  });

  it('GET /v1/identity names the account, its owner and the caller', async () => {
    const owner = (await server.get(account.owner.key, '/v1/me')).body;
    const me = (await server.get(agent.key, '/v1/me')).body;
    const res = await server.get(agent.key, '/v1/identity');
    assert.equal(res.status, 200);
    assert.equal(res.body.account.id, account.accountId);
    assert.equal(typeof res.body.account.name, 'string');
    assert.deepEqual(res.body.account.owner, {
      id: owner.id,
      name: owner.name,
      email: owner.email,
    });
    assert.equal(res.body.user.id, agent.id);
    assert.equal(res.body.user.name, me.name);
    assert.equal(res.body.user.email, me.email);
  });
});
