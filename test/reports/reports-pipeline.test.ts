import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer, type TestUser } from '../support/server.js';

type Totals = { deals: number; value: number };
type Stage = Totals & { pipelineName: string; stageName: string };

/**
 * GET /v1/reports/pipeline: every figure (by stage now, closed and expected by month) from deals
 * made at known times, as the Owner and as an Agent who sees only the deals of their people or
 * those they are on, without Deleted deals, and for one pipeline.
 */
describe('reports: the pipeline', () => {
  let server: TestServer;
  let clock = Date.parse('2026-05-10T09:00:00Z');
  let owner: TestUser;
  let ann: TestUser;
  let buyers: number;
  before(async () => {
    server = await startServer({ clock: { now: () => clock } });
    const account = await server.newAccount();
    owner = account.owner;
    ann = await account.addUser('Agent', 'Ann Agent');
    const bob = await account.addUser('Agent', 'Bob Agent');
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await server.post(owner.key, path, body);
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const stages = [{ name: 'Offer' }, { name: 'Closed', closedStage: true }];
    const pipeline = await post('/v1/pipelines', { name: 'Buyers', stages });
    const sellers = await post('/v1/pipelines', { name: 'Sellers', stages: [{ name: 'Listed' }] });
    buyers = pipeline.id;
    const [offer, closed] = pipeline.stages.map((s: { id: number }) => s.id);
    const annsLead = (await post('/v1/people', { name: 'A1', assignedUserId: ann.id })).id;
    const bobsLead = (await post('/v1/people', { name: 'B1', assignedUserId: bob.id })).id;
    const deal = (name: string, stageId: number, price: number, more = {}) =>
      post('/v1/deals', { name, stageId, price, ...more });
    await deal('Open June', offer, 100, {
      peopleIds: [annsLead],
      projectedCloseDate: '2026-06-15',
    });
    await deal('Open July', offer, 200, {
      peopleIds: [bobsLead],
      projectedCloseDate: '2026-07-01',
    });
    await deal('Open later', offer, 400, {
      peopleIds: [bobsLead],
      projectedCloseDate: '2026-09-01',
    });
    await deal('On it', offer, 800, { userIds: [ann.id] });
    await deal('Listing', sellers.stages[0].id, 1600, { peopleIds: [annsLead] });
    clock = Date.parse('2026-06-02T12:00:00Z');
    await deal('Closed June', closed, 3200, { peopleIds: [bobsLead] });
    clock = Date.parse('2026-07-20T12:00:00Z');
    await deal('Closed July', closed, 6400, { peopleIds: [annsLead] });
    const gone = await deal('Gone', closed, 12800, { peopleIds: [annsLead] });
    const res = await server.del(owner.key, `/v1/deals/${gone.id}`);
    assert.equal(res.status, 204, res.text);
  });
  after(async () => server?.close());

  const period = 'since=2026-06-01&until=2026-08-01';
  async function report(user: TestUser, query = '') {
    const res = await server.get(user.key, `/v1/reports/pipeline?${period}${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body as {
      stages: Stage[];
      closedByMonth: (Totals & { month: string })[];
      expectedByMonth: (Totals & { month: string })[];
    };
  }
  const stagesOf = (r: { stages: Stage[] }) =>
    r.stages.map((s) => [s.pipelineName, s.stageName, s.deals, s.value]);

  it('sums every visible deal by stage, closed by month and expected by month', async () => {
    const r = await report(owner);
    assert.deepEqual(stagesOf(r), [
      ['Buyers', 'Offer', 4, 1500],
      ['Buyers', 'Closed', 2, 9600],
      ['Sellers', 'Listed', 1, 1600],
    ]);
    assert.deepEqual(r.closedByMonth, [
      { month: '2026-06', deals: 1, value: 3200 },
      { month: '2026-07', deals: 1, value: 6400 },
    ]);
    assert.deepEqual(r.expectedByMonth, [
      { month: '2026-06', deals: 1, value: 100 },
      { month: '2026-07', deals: 1, value: 200 },
    ]);
  });

  it('gives an Agent only the deals of their people and those they are on', async () => {
    const r = await report(ann);
    assert.deepEqual(stagesOf(r), [
      ['Buyers', 'Offer', 2, 900],
      ['Buyers', 'Closed', 1, 6400],
      ['Sellers', 'Listed', 1, 1600],
    ]);
    assert.deepEqual(r.closedByMonth, [{ month: '2026-07', deals: 1, value: 6400 }]);
    assert.deepEqual(r.expectedByMonth, [{ month: '2026-06', deals: 1, value: 100 }]);
  });

  it('narrows to one pipeline', async () => {
    const r = await report(owner, `&pipelineId=${buyers}`);
    assert.deepEqual(
      r.stages.map((s) => s.pipelineName),
      ['Buyers', 'Buyers'],
    );
    assert.equal(r.closedByMonth.length, 2);
  });
});
