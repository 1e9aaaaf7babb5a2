import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';

describe('emCampaigns: create, idempotent retry, update, merge fields, roles, isolation', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('creates, reads, lists by origin/originId and updates a campaign', async () => {
    const { owner } = await server.newAccount();
    const body = {
      origin: 'Mailchimp',
      originId: 'mc-1',
      name: 'Spring',
      subject: 'Hi %contact_first_name%',
      bodyHtml: '<p>Hello</p>',
    };
    const created = await server.post(owner.key, '/v1/emCampaigns', body);
    assert.equal(created.status, 201, created.text);
    assert.ok(Number.isInteger(created.body.id));
    assert.equal(created.body.origin, 'Mailchimp');
    assert.equal(created.body.originId, 'mc-1');
    assert.equal(created.body.subject, 'Hi %contact_first_name%');
    assert.equal(created.body.bodyHtml, '<p>Hello</p>');
    assert.equal(created.body.createdById, owner.id);
    const id = created.body.id;

    assert.deepEqual((await server.get(owner.key, `/v1/emCampaigns/${id}`)).body, created.body);

    const other = await server.post(owner.key, '/v1/emCampaigns', {
      origin: 'Mailchimp',
      originId: 42,
      subject: 's',
    });
    assert.equal(other.status, 201);
    assert.equal(other.body.originId, '42', 'a numeric originId is kept as text');
    await server.post(owner.key, '/v1/emCampaigns', {
      origin: 'Constant Contact',
      originId: 'mc-1',
    });

    const all = await server.get(owner.key, '/v1/emCampaigns?limit=2');
    assert.equal(all.status, 200);
    assert.equal(all.body._metadata.collection, 'emCampaigns');
    assert.equal(all.body._metadata.total, 3);
    assert.equal(all.body.emCampaigns.length, 2);
    assert.ok(all.body._metadata.nextLink.includes('/v1/emCampaigns?'));
    const byPair = await server.get(owner.key, '/v1/emCampaigns?origin=Mailchimp&originId=mc-1');
    assert.deepEqual(
      byPair.body.emCampaigns.map((c: { id: number }) => c.id),
      [id],
    );
    const byOrigin = await server.get(owner.key, '/v1/emCampaigns?origin=Mailchimp');
    assert.equal(byOrigin.body._metadata.total, 2);

    const updated = await server.put(owner.key, `/v1/emCampaigns/${id}`, {
      subject: 'New %agent_name%',
      origin: 'Mailchimp',
      originId: 'mc-1',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.subject, 'New %agent_name%');
    assert.equal(updated.body.bodyHtml, '<p>Hello</p>');
    assert.equal(updated.body.name, 'Spring');
    const moved = await server.put(owner.key, `/v1/emCampaigns/${id}`, { originId: 'mc-2' });
    assert.equal(moved.status, 400);
    assert.match(moved.body.errorMessage, /originId cannot change/);
    assert.equal(
      (await server.get(owner.key, `/v1/emCampaigns/${id}`)).body.subject,
      'New %agent_name%',
    );
  });

  it('answers a repeated POST of the same campaign with 200 and the stored one; different content with 409 naming it', async () => {
    const { owner } = await server.newAccount();
    const body = { origin: 'Sendgrid', originId: 'abc', name: 'N', subject: 'S', bodyHtml: 'B' };
    const first = await server.post(owner.key, '/v1/emCampaigns', body);
    assert.equal(first.status, 201);
    const retry = await server.post(owner.key, '/v1/emCampaigns', body);
    assert.equal(retry.status, 200);
    assert.deepEqual(retry.body, first.body);
    const changed = await server.post(owner.key, '/v1/emCampaigns', { ...body, subject: 'Other' });
    assert.equal(changed.status, 409);
    assert.match(changed.body.errorMessage, new RegExp(`id ${first.body.id}\\b`));
    assert.match(changed.body.errorMessage, new RegExp(`PUT /v1/emCampaigns/${first.body.id}`));

    // Concurrent first POSTs of one pair: one creates it, every other answers 200 with the same id.
    const racing = { origin: 'Sendgrid', originId: unique('race'), subject: 'S' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => server.post(owner.key, '/v1/emCampaigns', racing)),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
  });

  it('rejects bad input with 400 naming the field', async () => {
    const { owner } = await server.newAccount();
    const missing = await server.post(owner.key, '/v1/emCampaigns', { origin: 'X' });
    assert.equal(missing.status, 400);
    assert.match(missing.body.errorMessage, /originId/);
    const unknownField = await server.post(owner.key, '/v1/emCampaigns', {
      origin: 'X',
      originId: '1',
      body: 'x',
    });
    assert.equal(unknownField.status, 400);
    assert.match(unknownField.body.errorMessage, /Invalid fields in the request body: body\./);
    const blank = await server.post(owner.key, '/v1/emCampaigns', { origin: 'X', originId: '   ' });
    assert.equal(blank.status, 400);
    assert.equal(
      (
        await server.post(owner.key, '/v1/emCampaigns', {
          origin: 'X',
          originId: '1',
          system: 'MyTool',
        })
      ).status,
      201,
    );
    assert.equal((await server.get(owner.key, '/v1/emCampaigns/abc')).status, 400);
    assert.equal((await server.get(owner.key, '/v1/emCampaigns?colour=red')).status, 200);
    assert.equal((await server.get(owner.key, '/v1/emCampaigns?limit=many')).status, 400);
    assert.equal((await server.get(owner.key, '/v1/emCampaigns/999999999')).status, 404);
  });

  it('lets every role read; Owner, Admin and Agent write; Lenders not', async () => {
    const account = await server.newAccount();
    const admin = await account.addUser('Admin');
    const agent = await account.addUser('Agent');
    const lender = await account.addUser('Lender');
    const byAgent = await server.post(agent.key, '/v1/emCampaigns', { origin: 'T', originId: 'a' });
    assert.equal(byAgent.status, 201);
    assert.equal(
      (await server.post(admin.key, '/v1/emCampaigns', { origin: 'T', originId: 'b' })).status,
      201,
    );
    const refused = await server.post(lender.key, '/v1/emCampaigns', {
      origin: 'T',
      originId: 'c',
    });
    assert.equal(refused.status, 403);
    assert.match(refused.body.errorMessage, /Owner or Admin or Agent/);
    assert.equal(
      (await server.put(lender.key, `/v1/emCampaigns/${byAgent.body.id}`, { subject: 'x' })).status,
      403,
    );
    assert.equal((await server.get(lender.key, `/v1/emCampaigns/${byAgent.body.id}`)).status, 200);
    assert.equal((await server.get(lender.key, '/v1/emCampaigns')).body._metadata.total, 2);
    assert.equal(
      (await server.put(admin.key, `/v1/emCampaigns/${byAgent.body.id}`, { subject: 'by admin' }))
        .body.subject,
      'by admin',
    );
  });

  it('applies merge fields for a person with mergePersonId, within what the caller may see', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent', 'Jane Agent');
    const otherAgent = await account.addUser('Agent');
    const person = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Ann',
      lastName: 'Lee',
      emails: [{ value: 'ann@example.com' }],
      source: 'example.org',
      addresses: [{ street: '1 Main St', city: 'Springfield', code: '12345' }],
      assignedUserId: agent.id,
    });
    assert.equal(person.status, 201, person.text);
    const campaign = await server.post(account.owner.key, '/v1/emCampaigns', {
      origin: 'Tool',
      originId: 'm1',
      subject: 'Hi %contact_first_name%, about %inquiry_address%',
      bodyHtml:
        '<p>%contact_name% (%contact_email%) at %contact_address% - %agent_name% - 100%</p>',
    });
    const id = campaign.body.id;
    const merged = await server.get(
      agent.key,
      `/v1/emCampaigns/${id}?mergePersonId=${person.body.id}`,
    );
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.subject, 'Hi Ann, about Your property inquiry from example.org');
    assert.equal(
      merged.body.bodyHtml,
      '<p>Ann Lee (ann@example.com) at 1 Main St, Springfield 12345 - Jane Agent - 100%</p>',
    );
    // Stored text is unchanged.
    assert.equal(
      (await server.get(agent.key, `/v1/emCampaigns/${id}`)).body.subject,
      'Hi %contact_first_name%, about %inquiry_address%',
    );
    assert.equal(
      (await server.get(otherAgent.key, `/v1/emCampaigns/${id}?mergePersonId=${person.body.id}`))
        .status,
      404,
    );
    assert.equal(
      (await server.get(account.owner.key, `/v1/emCampaigns/${id}?mergePersonId=999999`)).status,
      404,
    );
  });

  it('keeps campaigns of one account invisible to another', async () => {
    const a = await server.newAccount();
    const b = await server.newAccount();
    const mine = await server.post(a.owner.key, '/v1/emCampaigns', {
      origin: 'Tool',
      originId: 'same',
    });
    assert.equal((await server.get(b.owner.key, `/v1/emCampaigns/${mine.body.id}`)).status, 404);
    assert.equal(
      (await server.put(b.owner.key, `/v1/emCampaigns/${mine.body.id}`, { subject: 'x' })).status,
      404,
    );
    assert.equal(
      (await server.get(b.owner.key, `/v1/emCampaigns/${mine.body.id}/stats`)).status,
      404,
    );
    assert.equal((await server.get(b.owner.key, '/v1/emCampaigns')).body._metadata.total, 0);
    // The origin + originId pair is unique per account, not across accounts.
    const theirs = await server.post(b.owner.key, '/v1/emCampaigns', {
      origin: 'Tool',
      originId: 'same',
      subject: 'different',
    });
    assert.equal(theirs.status, 201);
    assert.notEqual(theirs.body.id, mine.body.id);
  });
});
