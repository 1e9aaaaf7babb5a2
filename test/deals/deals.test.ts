import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestAccount, type TestServer } from '../support/server.js';
import { outboxOf } from '../support/outbox.js';
import { buildPipeline } from '../support/factories.js';

describe('deals API', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  /** An account with one pipeline of three stages. */
  async function setup() {
    const account = await server.newAccount();
    const pipeline = await buildPipeline(
      server,
      account.owner.key,
      ['Offer', 'Contract', { name: 'Closed', closedStage: true }],
      { name: 'Buyers' },
    );
    const [offer, contract, closed] = pipeline.stages as { id: number }[];
    return {
      account,
      pipelineId: pipeline.id,
      offer: offer.id,
      contract: contract.id,
      closed: closed.id,
    };
  }

  async function person(account: TestAccount, body: Record<string, unknown>) {
    const res = await server.post(account.owner.key, '/v1/people', body);
    assert.equal(res.status, 201, res.text);
    return res.body.id as number;
  }

  it('creates a deal with derived pipeline, people, users and both commission spellings', async () => {
    const { account, pipelineId, offer } = await setup();
    const agent = await account.addUser('Agent');
    const buyer = await person(account, { name: 'Bea Buyer' });
    const outbox = await outboxOf(server, account.accountId);
    const res = await server.post(account.owner.key, '/v1/deals', {
      name: '12 Oak St',
      stageId: String(offer),
      price: '450000',
      projectedCloseDate: '2026-07-01T00:00:00Z',
      peopleIds: [buyer],
      userIds: [agent.id],
      commissionValue: 13500,
      agentCommision: 9000,
      teamComission: 4500,
      system: 'Tester',
    });
    assert.equal(res.status, 201, res.text);
    const deal = res.body;
    assert.equal(deal.name, '12 Oak St');
    assert.equal(deal.stageId, offer);
    assert.equal(deal.stageName, 'Offer');
    assert.equal(deal.pipelineId, pipelineId);
    assert.equal(deal.pipelineName, 'Buyers');
    assert.equal(deal.status, 'Active');
    assert.equal(deal.price, 450000);
    assert.equal(deal.projectedCloseDate, '2026-07-01');
    assert.equal(deal.agentCommission, 9000);
    assert.equal(deal.teamCommission, 4500);
    assert.equal(deal.commissionValue, 13500);
    assert.deepEqual(deal.people, [{ id: buyer, name: 'Bea Buyer' }]);
    assert.deepEqual(deal.users, [{ id: agent.id, name: agent.name }]);
    assert.match(deal.enteredStageAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(deal.createdById, account.owner.id);
    assert.deepEqual(await outbox.take(), [
      { event: 'dealsCreated', resourceIds: [deal.id], data: null },
    ]);
    const put = await server.put(account.owner.key, `/v1/deals/${deal.id}`, {
      agentCommission: 8000,
      teamComission: 5500,
    });
    assert.equal(put.body.agentCommission, 8000);
    assert.equal(put.body.teamCommission, 5500);
    const clash = await server.put(account.owner.key, `/v1/deals/${deal.id}`, {
      agentCommission: 1,
      agentCommision: 2,
    });
    assert.equal(clash.status, 400);
    assert.deepEqual(await outbox.take(), [
      { event: 'dealsUpdated', resourceIds: [deal.id], data: null },
    ]);
  });

  it('validates stage, pipeline, people, users and unknown fields', async () => {
    const { account, pipelineId, offer } = await setup();
    const other = await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Sellers',
      stages: [{ name: 'Listing' }],
    });
    const outbox = await outboxOf(server, account.accountId);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'X' }, /stageId/],
      [{ name: 'X', stageId: 999999 }, /no pipeline stage 999999/],
      [{ name: 'X', stageId: offer, pipelineId: other.body.id }, /does not match/],
      [{ name: 'X', stageId: offer, peopleIds: [999999] }, /peopleIds/],
      [{ name: 'X', stageId: offer, userIds: [999999] }, /userIds/],
      [{ name: 'X', stageId: offer, status: 'Deleted' }, /status/],
      [{ name: 'X', stageId: offer, projectedCloseDate: 'soon' }, /projectedCloseDate/],
      [{ name: 'X', stageId: offer, colour: 'red' }, /colour/],
      [{ name: 'X', stageId: offer, customNope: 1 }, /customNope.*dealCustomFields/],
    ];
    for (const [body, message] of cases) {
      const res = await server.post(account.owner.key, '/v1/deals', body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
      assert.match(res.body.errorMessage, message);
    }
    const ok = await server.post(account.owner.key, '/v1/deals', {
      name: 'X',
      stageId: offer,
      pipelineId,
    });
    assert.equal(ok.status, 201);
    const events = await outbox.take();
    assert.deepEqual(events, [{ event: 'dealsCreated', resourceIds: [ok.body.id], data: null }]);
  });

  it('moves a deal between stages: pipelineId follows, enteredStageAt resets; no-op PUT fires nothing', async () => {
    const { account, offer, contract } = await setup();
    const other = await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Sellers',
      stages: [{ name: 'Listing' }],
    });
    const deal = await server.post(account.owner.key, '/v1/deals', {
      name: 'Move me',
      stageId: offer,
    });
    const outbox = await outboxOf(server, account.accountId);
    const same = await server.put(account.owner.key, `/v1/deals/${deal.body.id}`, {
      name: 'Move me',
      stageId: offer,
    });
    assert.equal(same.status, 200);
    assert.deepEqual(await outbox.take(), []);
    const moved = await server.put(account.owner.key, `/v1/deals/${deal.body.id}`, {
      stageId: contract,
    });
    assert.equal(moved.body.stageName, 'Contract');
    const across = await server.put(account.owner.key, `/v1/deals/${deal.body.id}`, {
      stageId: other.body.stages[0].id,
    });
    assert.equal(across.body.pipelineId, other.body.id);
    assert.equal(across.body.pipelineName, 'Sellers');
    const onlyPipeline = await server.put(account.owner.key, `/v1/deals/${deal.body.id}`, {
      pipelineId: deal.body.pipelineId,
    });
    assert.equal(onlyPipeline.status, 400);
    assert.deepEqual(await outbox.take(), [
      { event: 'dealsUpdated', resourceIds: [deal.body.id], data: null },
      { event: 'dealsUpdated', resourceIds: [deal.body.id], data: null },
    ]);
  });

  it('soft-deletes: status Deleted, out of lists unless includeDeleted=1, dealsDeleted once', async () => {
    const { account, offer } = await setup();
    const keep = await server.post(account.owner.key, '/v1/deals', {
      name: 'Keep',
      stageId: offer,
    });
    const gone = await server.post(account.owner.key, '/v1/deals', {
      name: 'Gone',
      stageId: offer,
    });
    const outbox = await outboxOf(server, account.accountId);
    const res = await server.del(account.owner.key, `/v1/deals/${gone.body.id}`);
    assert.equal(res.status, 204, res.text);
    assert.equal((await server.del(account.owner.key, `/v1/deals/${gone.body.id}`)).status, 204);
    assert.deepEqual(await outbox.take(), [
      { event: 'dealsDeleted', resourceIds: [gone.body.id], data: null },
    ]);
    const got = await server.get(account.owner.key, `/v1/deals/${gone.body.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.status, 'Deleted');
    assert.ok(got.body.deletedAt);
    const list = await server.get(account.owner.key, '/v1/deals');
    assert.equal(list.body._metadata.collection, 'deals');
    assert.deepEqual(
      list.body.deals.map((d: { id: number }) => d.id),
      [keep.body.id],
    );
    const all = await server.get(account.owner.key, '/v1/deals?includeDeleted=1');
    assert.deepEqual(
      all.body.deals.map((d: { id: number }) => d.id),
      [gone.body.id, keep.body.id],
    );
    const onlyDeleted = await server.get(account.owner.key, '/v1/deals?status=Deleted');
    assert.deepEqual(
      onlyDeleted.body.deals.map((d: { id: number }) => d.id),
      [gone.body.id],
    );
    // Restoring through PUT clears the deletion.
    const restored = await server.put(account.owner.key, `/v1/deals/${gone.body.id}`, {
      status: 'Active',
    });
    assert.equal(restored.body.status, 'Active');
    assert.equal(restored.body.deletedAt, null);
  });

  it('filters by pipeline, stage, person, user and status', async () => {
    const { account, pipelineId, offer, contract } = await setup();
    const other = await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Sellers',
      stages: [{ name: 'Listing' }],
    });
    const agent = await account.addUser('Agent');
    const p = await person(account, { name: 'Filter Person' });
    const a = await server.post(account.owner.key, '/v1/deals', {
      name: 'A',
      stageId: offer,
      peopleIds: [p],
    });
    const b = await server.post(account.owner.key, '/v1/deals', {
      name: 'B',
      stageId: contract,
      userIds: [agent.id],
      status: 'Archived',
    });
    const c = await server.post(account.owner.key, '/v1/deals', {
      name: 'C',
      stageId: other.body.stages[0].id,
    });
    const ids = async (query: string) =>
      (await server.get(account.owner.key, `/v1/deals?${query}`)).body.deals.map(
        (d: { id: number }) => d.id,
      );
    assert.deepEqual(await ids(`pipelineId=${pipelineId}`), [b.body.id, a.body.id]);
    assert.deepEqual(await ids(`stageId=${contract}`), [b.body.id]);
    assert.deepEqual(await ids(`personId=${p}`), [a.body.id]);
    assert.deepEqual(await ids(`userId=${agent.id}`), [b.body.id]);
    assert.deepEqual(await ids('status=Archived'), [b.body.id]);
    assert.deepEqual(await ids('sort=name'), [a.body.id, b.body.id, c.body.id]);
    assert.deepEqual(await ids(`id=${c.body.id},${a.body.id}`), [c.body.id, a.body.id]);
    assert.equal((await server.get(account.owner.key, '/v1/deals?status=Gone')).status, 400);
  });

  it('shows an Agent only the deals they are on or whose people they can see', async () => {
    const { account, offer } = await setup();
    const agent = await account.addUser('Agent');
    const lender = await account.addUser('Lender');
    const mine = await person(account, { name: 'Agent Person', assignedUserId: agent.id });
    const notMine = await person(account, { name: 'Someone Else' });
    const viaUser = await server.post(account.owner.key, '/v1/deals', {
      name: 'Via user',
      stageId: offer,
      userIds: [agent.id],
      peopleIds: [notMine],
    });
    const viaPerson = await server.post(account.owner.key, '/v1/deals', {
      name: 'Via person',
      stageId: offer,
      peopleIds: [notMine, mine],
    });
    const hidden = await server.post(account.owner.key, '/v1/deals', {
      name: 'Hidden',
      stageId: offer,
      peopleIds: [notMine],
    });
    const list = await server.get(agent.key, '/v1/deals');
    assert.deepEqual(
      list.body.deals.map((d: { id: number }) => d.id),
      [viaPerson.body.id, viaUser.body.id],
    );
    assert.equal(list.body._metadata.total, 2);
    assert.equal((await server.get(agent.key, `/v1/deals/${hidden.body.id}`)).status, 404);
    assert.equal(
      (await server.put(agent.key, `/v1/deals/${hidden.body.id}`, { name: 'Mine now' })).status,
      404,
    );
    assert.equal((await server.del(agent.key, `/v1/deals/${hidden.body.id}`)).status, 404);
    // An Agent cannot attach people they cannot see, and owns the deals they create.
    const sneaky = await server.post(agent.key, '/v1/deals', {
      name: 'Sneaky',
      stageId: offer,
      peopleIds: [notMine],
    });
    assert.equal(sneaky.status, 400);
    const own = await server.post(agent.key, '/v1/deals', { name: 'Own', stageId: offer });
    assert.equal(own.status, 201, own.text);
    assert.deepEqual(
      own.body.users.map((u: { id: number }) => u.id),
      [agent.id],
    );
    // Lenders read (none of these deals are theirs) and cannot write.
    assert.equal((await server.get(lender.key, '/v1/deals')).body._metadata.total, 0);
    assert.equal(
      (await server.post(lender.key, '/v1/deals', { name: 'L', stageId: offer })).status,
      403,
    );
    // Deleting a person drops them from their deals (people links cascade).
    await server.del(account.owner.key, `/v1/people/${mine}`);
    assert.equal((await server.get(agent.key, `/v1/deals/${viaPerson.body.id}`)).status, 404);
    assert.deepEqual(
      (await server.get(account.owner.key, `/v1/deals/${viaPerson.body.id}`)).body.people.map(
        (p: { id: number }) => p.id,
      ),
      [notMine],
    );
  });

  it('keeps accounts apart', async () => {
    const a = await setup();
    const b = await setup();
    const deal = await server.post(a.account.owner.key, '/v1/deals', {
      name: 'A deal',
      stageId: a.offer,
    });
    assert.equal((await server.get(b.account.owner.key, `/v1/deals/${deal.body.id}`)).status, 404);
    assert.equal(
      (await server.put(b.account.owner.key, `/v1/deals/${deal.body.id}`, { name: 'B' })).status,
      404,
    );
    assert.equal(
      (await server.post(b.account.owner.key, '/v1/deals', { name: 'X', stageId: a.offer })).status,
      400,
    );
    const personOfA = await person(a.account, { name: 'A person' });
    assert.equal(
      (
        await server.post(b.account.owner.key, '/v1/deals', {
          name: 'X',
          stageId: b.offer,
          peopleIds: [personOfA],
        })
      ).status,
      400,
    );
    assert.equal((await server.get(b.account.owner.key, '/v1/deals')).body._metadata.total, 0);
  });

  it('refuses to delete a pipeline or stage with live deals; soft-deleted deals do not block', async () => {
    const { account, pipelineId, offer, contract } = await setup();
    const deal = await server.post(account.owner.key, '/v1/deals', {
      name: 'Blocker',
      stageId: offer,
    });
    const stage = await server.del(
      account.owner.key,
      `/v1/pipelines/${pipelineId}/stages/${offer}`,
    );
    assert.equal(stage.status, 409);
    assert.match(stage.body.errorMessage, /1 deal/);
    assert.equal(
      (await server.del(account.owner.key, `/v1/pipelines/${pipelineId}/stages/${contract}`))
        .status,
      204,
    );
    assert.equal((await server.del(account.owner.key, `/v1/pipelines/${pipelineId}`)).status, 409);
    await server.del(account.owner.key, `/v1/deals/${deal.body.id}`);
    assert.equal((await server.del(account.owner.key, `/v1/pipelines/${pipelineId}`)).status, 204);
    const after = await server.get(account.owner.key, `/v1/deals/${deal.body.id}`);
    assert.equal(after.body.status, 'Deleted');
    assert.equal(after.body.pipelineId, null);
    assert.equal(after.body.stageId, null);
  });

  describe('deal custom fields', () => {
    it('defines fields with dealCustomFields events, validates and stores values, cleans them on delete', async () => {
      const { account, offer } = await setup();
      const outbox = await outboxOf(server, account.accountId);
      const field = await server.post(account.owner.key, '/v1/dealCustomFields', {
        label: 'Closing Date',
        type: 'date',
      });
      assert.equal(field.status, 201, field.text);
      assert.equal(field.body.name, 'customClosingDate');
      const lender = await server.post(account.owner.key, '/v1/dealCustomFields', {
        label: 'Lender',
        type: 'dropdown',
        choices: ['Bank A', 'Bank B'],
      });
      const updated = await server.put(
        account.owner.key,
        `/v1/dealCustomFields/${lender.body.id}`,
        { label: 'Lender Bank' },
      );
      assert.equal(updated.status, 200);
      assert.equal(
        (
          await server.put(account.owner.key, `/v1/dealCustomFields/${lender.body.id}`, {
            type: 'text',
          })
        ).status,
        400,
      );
      const list = await server.get(account.owner.key, '/v1/dealCustomFields');
      assert.equal(list.body._metadata.collection, 'dealCustomfields');
      assert.equal(list.body.dealCustomfields.length, 2);
      // People custom fields are separate definitions with their own events.
      const personField = await server.post(account.owner.key, '/v1/customFields', {
        label: 'Closing Date',
        type: 'text',
      });
      assert.deepEqual(
        (await server.get(account.owner.key, '/v1/customFields')).body.customfields.map(
          (f: { id: number }) => f.id,
        ),
        [personField.body.id],
      );
      assert.deepEqual(await outbox.take(), [
        { event: 'dealCustomFieldsCreated', resourceIds: [field.body.id], data: null },
        { event: 'dealCustomFieldsCreated', resourceIds: [lender.body.id], data: null },
        { event: 'dealCustomFieldsUpdated', resourceIds: [lender.body.id], data: null },
        { event: 'customFieldsCreated', resourceIds: [personField.body.id], data: null },
      ]);

      const bad = await server.post(account.owner.key, '/v1/deals', {
        name: 'D',
        stageId: offer,
        customLender: 'Bank Z',
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.errorMessage, /Bank A, Bank B/);
      const deal = await server.post(account.owner.key, '/v1/deals', {
        name: 'D',
        stageId: offer,
        customClosingDate: '2026-09-30',
        customLender: 'Bank B',
      });
      assert.equal(deal.status, 201, deal.text);
      assert.equal(deal.body.customClosingDate, '2026-09-30');
      assert.equal(deal.body.customLender, 'Bank B');
      // Values are not configuration: only dealsCreated/Updated fire for them (rule 7).
      const cleared = await server.put(account.owner.key, `/v1/deals/${deal.body.id}`, {
        customLender: null,
      });
      assert.equal(cleared.body.customLender, undefined);
      assert.deepEqual(await outbox.take(), [
        { event: 'dealsCreated', resourceIds: [deal.body.id], data: null },
        { event: 'dealsUpdated', resourceIds: [deal.body.id], data: null },
      ]);
      assert.equal(
        (await server.del(account.owner.key, `/v1/dealCustomFields/${field.body.id}`)).status,
        204,
      );
      assert.equal(
        (await server.get(account.owner.key, `/v1/deals/${deal.body.id}`)).body.customClosingDate,
        undefined,
      );
      assert.deepEqual(await outbox.take(), [
        { event: 'dealCustomFieldsDeleted', resourceIds: [field.body.id], data: null },
      ]);
      const agent = await account.addUser('Agent');
      assert.equal(
        (await server.post(agent.key, '/v1/dealCustomFields', { label: 'Nope', type: 'text' }))
          .status,
        403,
      );
    });
  });

  describe('deal attachments', () => {
    it('stores attachment metadata without firing dealsUpdated, visible like their deal', async () => {
      const { account, offer } = await setup();
      const agent = await account.addUser('Agent');
      const deal = await server.post(account.owner.key, '/v1/deals', {
        name: 'With files',
        stageId: offer,
      });
      const outbox = await outboxOf(server, account.accountId);
      const res = await server.post(account.owner.key, '/v1/dealAttachments', {
        dealId: deal.body.id,
        uri: 'https://files.example.com/contract.pdf',
        fileName: 'contract.pdf',
        fileSize: '2048',
      });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(
        {
          dealId: res.body.dealId,
          uri: res.body.uri,
          fileName: res.body.fileName,
          fileSize: res.body.fileSize,
        },
        {
          dealId: deal.body.id,
          uri: 'https://files.example.com/contract.pdf',
          fileName: 'contract.pdf',
          fileSize: 2048,
        },
      );
      const put = await server.put(account.owner.key, `/v1/dealAttachments/${res.body.id}`, {
        fileName: 'signed.pdf',
      });
      assert.equal(put.body.fileName, 'signed.pdf');
      assert.equal(put.body.uri, 'https://files.example.com/contract.pdf');
      const list = await server.get(
        account.owner.key,
        `/v1/dealAttachments?dealId=${deal.body.id}`,
      );
      assert.equal(list.body._metadata.collection, 'dealAttachments');
      assert.deepEqual(
        list.body.dealAttachments.map((a: { id: number }) => a.id),
        [res.body.id],
      );
      assert.equal(
        (
          await server.post(account.owner.key, '/v1/dealAttachments', {
            dealId: deal.body.id,
            uri: 'ftp://x/y',
            fileName: 'y',
          })
        ).status,
        400,
      );
      assert.equal(
        (
          await server.post(account.owner.key, '/v1/dealAttachments', {
            dealId: 999999,
            uri: 'https://x.example/y',
            fileName: 'y',
          })
        ).status,
        400,
      );
      assert.equal((await server.get(agent.key, `/v1/dealAttachments/${res.body.id}`)).status, 404);
      assert.equal((await server.get(agent.key, '/v1/dealAttachments')).body._metadata.total, 0);
      assert.equal((await server.del(agent.key, `/v1/dealAttachments/${res.body.id}`)).status, 404);
      assert.equal(
        (await server.del(account.owner.key, `/v1/dealAttachments/${res.body.id}`)).status,
        204,
      );
      assert.equal(
        (await server.get(account.owner.key, `/v1/dealAttachments/${res.body.id}`)).status,
        404,
      );
      assert.deepEqual(await outbox.take(), []);
    });
  });
});
