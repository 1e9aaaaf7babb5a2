import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';
import { outboxEventsNamed } from '../support/outbox.js';

const ids = (res: { body: { people: { id: number }[] } }) =>
  res.body.people.map((p) => p.id).sort((a, b) => a - b);

describe('people: role visibility and account isolation', () => {
  let server: TestServer;
  let account: TestAccount;
  let admin: TestUser;
  let agent: TestUser;
  let otherAgent: TestUser;
  let lender: TestUser;
  /** people of the account: assigned to agent, agent collaborates, lender's, unrelated */
  const p: Record<'agentOwn' | 'agentCollab' | 'lenderOwn' | 'lenderCollab' | 'nobody', number> = {
    agentOwn: 0,
    agentCollab: 0,
    lenderOwn: 0,
    lenderCollab: 0,
    nobody: 0,
  };
  let all: number[];

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    admin = await account.addUser('Admin');
    agent = await account.addUser('Agent');
    otherAgent = await account.addUser('Agent');
    lender = await account.addUser('Lender');
    const make = async (body: Record<string, unknown>) => {
      const res = await server.post(account.owner.key, '/v1/people', body);
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    p.agentOwn = await make({
      firstName: 'AgentOwn',
      assignedUserId: agent.id,
      emails: ['agentown@example.com'],
    });
    p.agentCollab = await make({
      firstName: 'AgentCollab',
      assignedUserId: otherAgent.id,
      collaborators: [agent.id],
    });
    p.lenderOwn = await make({
      firstName: 'LenderOwn',
      assignedLenderId: lender.id,
      assignedUserId: otherAgent.id,
    });
    p.lenderCollab = await make({ firstName: 'LenderCollab', collaborators: [{ id: lender.id }] });
    p.nobody = await make({
      firstName: 'Nobody',
      emails: ['nobody@example.com'],
      phones: ['555 010 9999'],
    });
    all = Object.values(p).sort((a, b) => a - b);
  });
  after(async () => server.close());

  describe('Owner and Admin see and change everyone', () => {
    for (const who of ['owner', 'admin'] as const) {
      it(`${who}: list, get, put`, async () => {
        const key = who === 'owner' ? account.owner.key : admin.key;
        assert.deepEqual(ids(await server.get(key, '/v1/people?limit=100')), all);
        for (const id of all) {
          assert.equal((await server.get(key, `/v1/people/${id}`)).status, 200);
          const put = await server.put(key, `/v1/people/${id}`, { background: `seen by ${who}` });
          assert.equal(put.status, 200, put.text);
          assert.equal(put.body.background, `seen by ${who}`);
        }
      });
    }

    it('admin can delete anyone', async () => {
      const res = await server.post(account.owner.key, '/v1/people', { firstName: 'Temp' });
      assert.equal((await server.del(admin.key, `/v1/people/${res.body.id}`)).status, 204);
      assert.equal((await server.get(account.owner.key, `/v1/people/${res.body.id}`)).status, 404);
    });
  });

  describe('Agent: assigned or collaborator only', () => {
    it('lists only their people', async () => {
      const res = await server.get(agent.key, '/v1/people?limit=100');
      assert.deepEqual(
        ids(res),
        [p.agentOwn, p.agentCollab].sort((a, b) => a - b),
      );
      assert.equal(res.body._metadata.total, 2);
      // filters cannot widen what they see
      assert.deepEqual(
        ids(await server.get(agent.key, `/v1/people?id=${all.join(',')}`)),
        [p.agentOwn, p.agentCollab].sort((a, b) => a - b),
      );
      assert.deepEqual(ids(await server.get(agent.key, '/v1/people?email=nobody@example.com')), []);
    });

    it('GET, PUT and DELETE of anyone else are 404', async () => {
      for (const id of [p.lenderOwn, p.lenderCollab, p.nobody]) {
        assert.equal((await server.get(agent.key, `/v1/people/${id}`)).status, 404);
        assert.equal(
          (await server.put(agent.key, `/v1/people/${id}`, { background: 'x' })).status,
          404,
        );
        assert.equal((await server.del(agent.key, `/v1/people/${id}`)).status, 404);
      }
      const nobody = await server.get(account.owner.key, `/v1/people/${p.nobody}`);
      assert.notEqual(nobody.body.background, 'x');
    });

    it('GET and PUT of their own people work', async () => {
      for (const id of [p.agentOwn, p.agentCollab]) {
        assert.equal((await server.get(agent.key, `/v1/people/${id}`)).status, 200);
        const put = await server.put(agent.key, `/v1/people/${id}`, { source: 'agent.example' });
        assert.equal(put.status, 200, put.text);
      }
    });

    it('a person the agent creates is assigned to them and visible', async () => {
      const res = await server.post(agent.key, '/v1/people', { firstName: 'ByAgent' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.assignedUserId, agent.id);
      assert.equal(res.body.assignedTo, agent.name);
      assert.equal((await server.get(agent.key, `/v1/people/${res.body.id}`)).status, 200);
      assert.equal((await server.get(otherAgent.key, `/v1/people/${res.body.id}`)).status, 404);
      assert.equal((await server.del(agent.key, `/v1/people/${res.body.id}`)).status, 204);
    });

    it('checkDuplicate tells the agent a contact exists but not the id of someone they cannot open', async () => {
      const hidden = await server.get(
        agent.key,
        '/v1/people/checkDuplicate?email=nobody@example.com',
      );
      assert.equal(hidden.status, 200);
      assert.equal(hidden.body.found, true);
      assert.equal(hidden.body.personId, null);
      const own = await server.get(
        agent.key,
        '/v1/people/checkDuplicate?email=agentown@example.com',
      );
      assert.equal(own.body.personId, p.agentOwn);
      assert.equal(own.body.assignedTo, agent.name);
    });

    it('deduplicate=true never merges into a person the agent cannot see', async () => {
      const res = await server.post(agent.key, '/v1/people?deduplicate=true', {
        firstName: 'Dup',
        emails: ['nobody@example.com'],
      });
      assert.equal(res.status, 201, res.text);
      assert.notEqual(res.body.id, p.nobody);
      const nobody = await server.get(account.owner.key, `/v1/people/${p.nobody}`);
      assert.equal(nobody.body.firstName, 'Nobody');
      await server.del(account.owner.key, `/v1/people/${res.body.id}`);
    });
  });

  describe('Lender: assigned lender or collaborator; cannot delete', () => {
    it('lists only their people', async () => {
      const res = await server.get(lender.key, '/v1/people?limit=100');
      assert.deepEqual(
        ids(res),
        [p.lenderOwn, p.lenderCollab].sort((a, b) => a - b),
      );
    });

    it('GET and PUT their people; others are 404', async () => {
      for (const id of [p.lenderOwn, p.lenderCollab]) {
        assert.equal((await server.get(lender.key, `/v1/people/${id}`)).status, 200);
        assert.equal(
          (await server.put(lender.key, `/v1/people/${id}`, { background: 'lender note' })).status,
          200,
        );
      }
      for (const id of [p.agentOwn, p.agentCollab, p.nobody]) {
        assert.equal((await server.get(lender.key, `/v1/people/${id}`)).status, 404);
        assert.equal(
          (await server.put(lender.key, `/v1/people/${id}`, { background: 'x' })).status,
          404,
        );
      }
    });

    it('DELETE of a visible person is 403 and leaves the person; of an invisible one 404', async () => {
      const deletions = () => outboxEventsNamed(server, account.accountId, 'peopleDeleted');
      const before = (await deletions()).length;
      const res = await server.del(lender.key, `/v1/people/${p.lenderOwn}`);
      assert.equal(res.status, 403, res.text);
      assert.match(res.body.errorMessage, /Lenders cannot delete/);
      assert.equal((await server.get(account.owner.key, `/v1/people/${p.lenderOwn}`)).status, 200);
      assert.equal((await server.del(lender.key, `/v1/people/${p.nobody}`)).status, 404);
      assert.equal((await deletions()).length, before);
    });

    it('a person the lender creates has them as assigned lender', async () => {
      const res = await server.post(lender.key, '/v1/people', { firstName: 'ByLender' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.assignedLenderId, lender.id);
      assert.equal(res.body.assignedLenderName, lender.name);
      assert.equal((await server.get(lender.key, `/v1/people/${res.body.id}`)).status, 200);
    });
  });

  describe('another account', () => {
    let stranger: TestAccount;
    before(async () => {
      stranger = await server.newAccount();
    });

    it('sees none of these people on any route', async () => {
      const key = stranger.owner.key;
      assert.deepEqual(ids(await server.get(key, '/v1/people?limit=100')), []);
      assert.deepEqual(ids(await server.get(key, `/v1/people?id=${all.join(',')}`)), []);
      for (const id of all) {
        const got = await server.get(key, `/v1/people/${id}`);
        assert.equal(got.status, 404);
        assert.equal(got.body.errorMessage, `Person ${id} not found`);
        assert.equal(
          (await server.put(key, `/v1/people/${id}`, { firstName: 'Hijack' })).status,
          404,
        );
        assert.equal((await server.del(key, `/v1/people/${id}`)).status, 404);
      }
      const dup = await server.get(key, '/v1/people/checkDuplicate?email=nobody@example.com');
      assert.deepEqual(dup.body, {
        found: false,
        matchedBy: null,
        assignedTo: null,
        personId: null,
      });
      const phone = await server.get(key, '/v1/people/checkDuplicate?phone=5550109999');
      assert.equal(phone.body.found, false);
      const owner = await server.get(account.owner.key, `/v1/people/${p.nobody}`);
      assert.equal(owner.body.firstName, 'Nobody');
    });

    it('POST with deduplicate creates its own person instead of touching ours', async () => {
      const res = await server.post(stranger.owner.key, '/v1/people?deduplicate=true', {
        firstName: 'Theirs',
        emails: ['nobody@example.com'],
      });
      assert.equal(res.status, 201);
      assert.notEqual(res.body.id, p.nobody);
    });

    it('cannot reference our users or stages', async () => {
      const key = stranger.owner.key;
      const stage = await server.get(account.owner.key, `/v1/people/${p.nobody}`);
      const cases = [
        [{ assignedUserId: agent.id }, 'assignedUserId'],
        [{ assignedTo: agent.name }, 'assignedTo'],
        [{ assignedLenderId: lender.id }, 'assignedLenderId'],
        [{ collaborators: [agent.id] }, 'collaborators'],
        [{ stageId: stage.body.stageId }, 'stageId'],
      ] as const;
      for (const [body, field] of cases) {
        const res = await server.post(key, '/v1/people', body);
        assert.equal(res.status, 400, `${field}: ${res.text}`);
        assert.equal(res.body.errors[0].field, field);
      }
    });
  });
});
