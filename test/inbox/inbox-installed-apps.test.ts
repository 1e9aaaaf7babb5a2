import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';

const SUBSCRIPTION = 'https://93.184.216.34/inbox-hook';

describe('GET /v1/inboxApps/installedApps/:publishedInboxAppId', () => {
  let server: TestServer;
  let account: TestAccount;
  let sys: Record<string, string>;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    const system = await server.newSystem();
    sys = { 'x-system': system.name, 'x-system-key': system.key };
  });
  after(async () => server.close());

  const install = async (key: string, publishedInboxAppId: number, userId: number) => {
    const res = await server.post(
      key,
      '/v1/inboxApps/install',
      { publishedInboxAppId, userId, subscriptionUrl: SUBSCRIPTION },
      sys,
    );
    assert.equal(res.status, 201, res.text);
    return res.body as { id: number; status: string };
  };
  const ids = (body: { inboxApps: { id: number }[] }) =>
    body.inboxApps.map((a) => a.id).sort((a, b) => a - b);

  it("lists that published app's installations the caller may use, deactivated ones with their status", async () => {
    const agent = await account.addUser('Agent');
    const whole = await install(account.owner.key, 41, 0);
    const agentOwn = await install(agent.key, 41, agent.id);
    const otherApp = await install(account.owner.key, 42, 0);

    const owners = await server.get(account.owner.key, '/v1/inboxApps/installedApps/41');
    assert.equal(owners.status, 200, owners.text);
    assert.equal(owners.body._metadata.collection, 'inboxApps');
    assert.deepEqual(ids(owners.body), [whole.id, agentOwn.id]);
    assert.ok(!ids(owners.body).includes(otherApp.id));
    const listed = owners.body.inboxApps.find((a: { id: number }) => a.id === agentOwn.id);
    assert.equal(listed.publishedInboxAppId, 41);
    assert.equal(listed.userId, agent.id);

    const agents = await server.get(agent.key, '/v1/inboxApps/installedApps/41');
    assert.deepEqual(ids(agents.body), [agentOwn.id]);

    const gone = await server.del(agent.key, `/v1/inboxApps/${agentOwn.id}`);
    assert.equal(gone.status, 204, gone.text);
    const after = await server.get(agent.key, '/v1/inboxApps/installedApps/41');
    assert.deepEqual(
      after.body.inboxApps.map((a: { status: string }) => a.status),
      ['Deactivated'],
    );
  });

  it('another account sees none of them; a malformed id is a 400 that says so', async () => {
    await install(account.owner.key, 43, 0);
    const stranger = await server.newAccount();
    const none = await server.get(stranger.owner.key, '/v1/inboxApps/installedApps/43');
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body.inboxApps, []);
    const bad = await server.get(account.owner.key, '/v1/inboxApps/installedApps/abc');
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.errorMessage, /publishedInboxAppId/);
  });
});
