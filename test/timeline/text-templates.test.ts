import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { runDueActionPlanSteps } from '../../src/marketing/actionPlans/actionPlans.engine.js';

describe('text message templates and template merging', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  async function personOf(key: string, extra: Record<string, unknown> = {}) {
    const fields = { firstName: 'Bob', lastName: 'Alvarez', emails: ['bob@example.com'] };
    return (await server.newPerson(key, { ...fields, phones: ['555-010-2030'], ...extra })).id;
  }

  it('creates, reads, lists, updates and deletes under the textmessagetemplates key', async () => {
    const { owner } = await server.newAccount();
    const created = await server.post(owner.key, '/v1/textMessageTemplates', {
      name: 'Hello',
      message: 'Hi %contact_first_name%, %agent_name% here',
      isShared: true,
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), [
      'created',
      'createdById',
      'id',
      'isShared',
      'message',
      'name',
      'updated',
    ]);
    assert.equal(created.body.message, 'Hi %contact_first_name%, %agent_name% here');
    const id = created.body.id;
    assert.deepEqual((await server.get(owner.key, `/v1/textMessageTemplates/${id}`)).body, {
      ...created.body,
    });
    await server.post(owner.key, '/v1/textMessageTemplates', { name: 'Other', message: 'x' });
    const list = await server.get(owner.key, '/v1/textMessageTemplates?limit=1');
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body._metadata.collection, 'textmessagetemplates');
    assert.equal(list.body._metadata.total, 2);
    assert.equal(list.body.textmessagetemplates.length, 1);
    assert.ok(list.body._metadata.nextLink.includes('/v1/textMessageTemplates?'));
    const byName = await server.get(owner.key, '/v1/textMessageTemplates?name=HELL');
    assert.deepEqual(
      byName.body.textmessagetemplates.map((t: { id: number }) => t.id),
      [id],
    );
    // Email templates and text templates never show up in each other's collection.
    assert.equal((await server.get(owner.key, '/v1/templates')).body._metadata.total, 0);
    assert.equal((await server.get(owner.key, `/v1/templates/${id}`)).status, 404);

    const updated = await server.put(owner.key, `/v1/textMessageTemplates/${id}`, {
      message: 'Changed',
      isShared: 'false',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.message, 'Changed');
    assert.equal(updated.body.isShared, false);
    assert.equal(updated.body.name, 'Hello');
    assert.equal((await server.del(owner.key, `/v1/textMessageTemplates/${id}`)).status, 204);
    assert.equal((await server.get(owner.key, `/v1/textMessageTemplates/${id}`)).status, 404);
  });

  it('validates bodies: name and message required, unknown fields named', async () => {
    const { owner } = await server.newAccount();
    const missing = await server.post(owner.key, '/v1/textMessageTemplates', { name: 'x' });
    assert.equal(missing.status, 400);
    assert.match(missing.body.errorMessage, /message/);
    const extra = await server.post(owner.key, '/v1/textMessageTemplates', {
      name: 'x',
      message: 'y',
      subject: 'z',
    });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.errorMessage, 'Invalid fields in the request body: subject.');
  });

  it('agents see their own and shared templates and change only their own', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const other = await account.addUser('Agent');
    const shared = await server.post(account.owner.key, '/v1/textMessageTemplates', {
      name: 'Shared',
      message: 's',
      isShared: true,
    });
    const privateOne = await server.post(account.owner.key, '/v1/textMessageTemplates', {
      name: 'Private',
      message: 'p',
    });
    const own = await server.post(agent.key, '/v1/textMessageTemplates', {
      name: 'Mine',
      message: 'm',
    });
    assert.equal(own.status, 201, own.text);
    const seen = await server.get(agent.key, '/v1/textMessageTemplates');
    assert.deepEqual(
      seen.body.textmessagetemplates.map((t: { id: number }) => t.id).sort(),
      [shared.body.id, own.body.id].sort(),
    );
    assert.equal(
      (await server.get(agent.key, `/v1/textMessageTemplates/${privateOne.body.id}`)).status,
      404,
    );
    const edit = await server.put(agent.key, `/v1/textMessageTemplates/${shared.body.id}`, {
      message: 'mine now',
    });
    assert.equal(edit.status, 403, edit.text);
    assert.equal(
      (await server.del(other.key, `/v1/textMessageTemplates/${own.body.id}`)).status,
      404,
    );
    const ownerSees = await server.get(account.owner.key, '/v1/textMessageTemplates');
    assert.equal(ownerSees.body._metadata.total, 3);
  });

  it('refuses with 403 to delete a text template an action plan uses; a text step makes a Text task', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent', 'Alice Agent');
    const template = await server.post(account.owner.key, '/v1/textMessageTemplates', {
      name: 'Intro',
      message: 'Hi %contact_first_name%, %agent_first_name% here!',
    });
    const emailTemplate = await server.post(account.owner.key, '/v1/templates', { name: 'E' });
    const wrongKind = await server.post(account.owner.key, '/v1/actionPlans', {
      name: 'Wrong',
      steps: [{ delayDays: 0, kind: 'text', templateId: emailTemplate.body.id }],
    });
    assert.equal(wrongKind.status, 400, wrongKind.text);
    assert.match(wrongKind.body.errorMessage, /No text message template/);
    const plan = await server.post(account.owner.key, '/v1/actionPlans', {
      name: 'Texting',
      steps: [{ delayDays: 0, kind: 'text', templateId: template.body.id }],
    });
    assert.equal(plan.status, 201, plan.text);
    assert.equal(plan.body.steps[0].kind, 'text');

    const refused = await server.del(
      account.owner.key,
      `/v1/textMessageTemplates/${template.body.id}`,
    );
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.body.errorMessage, /action plan\(s\) 'Texting'/);

    const personId = await personOf(account.owner.key, { assignedUserId: agent.id });
    const run = await server.post(account.owner.key, '/v1/actionPlansPeople', {
      personId,
      actionPlanId: plan.body.id,
    });
    assert.equal(run.status, 201, run.text);
    await runDueActionPlanSteps(server.ctx);
    const tasks = await server.get(agent.key, `/v1/tasks?personId=${personId}`);
    assert.equal(tasks.body._metadata.total, 1, tasks.text);
    assert.equal(tasks.body.tasks[0].type, 'Text');
    assert.equal(tasks.body.tasks[0].name, 'Text: Hi Bob, Alice here!');
    assert.equal(tasks.body.tasks[0].assignedUserId, agent.id);
  });

  it('merges a text template for a person; recipients fill %contact_rels_first_name%', async () => {
    const { owner } = await server.newAccount();
    const personId = await personOf(owner.key);
    const template = await server.post(owner.key, '/v1/textMessageTemplates', {
      name: 'Group',
      message: 'Hi %contact_rels_first_name%! (%contact_name%, %contact_phone%)',
    });
    const merged = await server.post(owner.key, '/v1/textMessageTemplates/merge', {
      templateId: template.body.id,
      personId,
      recipients: {
        to: [
          { phone: '555-010-2030', name: 'Bob Alvarez' },
          { phone: '555-010-0001', name: 'Alice' },
          { phone: '555-010-0002', name: 'Carol Jones' },
        ],
      },
    });
    assert.equal(merged.status, 200, merged.text);
    assert.deepEqual(merged.body, {
      templateId: template.body.id,
      personId,
      mergedTemplate: 'Hi Bob, Alice and Carol! (Bob Alvarez, 555-010-2030)',
    });
    const alone = await server.post(owner.key, '/v1/textMessageTemplates/merge', {
      templateId: template.body.id,
      personId: String(personId),
    });
    assert.equal(alone.body.mergedTemplate, 'Hi Bob! (Bob Alvarez, 555-010-2030)');
    const noPerson = await server.post(owner.key, '/v1/textMessageTemplates/merge', {
      templateId: template.body.id,
      personId: 999999,
    });
    assert.equal(noPerson.status, 404);
    const noTemplate = await server.post(owner.key, '/v1/textMessageTemplates/merge', {
      templateId: 999999,
      personId,
    });
    assert.equal(noTemplate.status, 404);
    const bad = await server.post(owner.key, '/v1/textMessageTemplates/merge', { personId });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /templateId/);
  });

  it('POST /v1/templates/merge answers the template with subject and body merged', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const personId = await personOf(account.owner.key);
    const template = await server.post(account.owner.key, '/v1/templates', {
      name: 'Welcome',
      subject: 'Hello %contact_first_name%',
      body: '<p>Dear %contact_rels_first_name%, from %agent_name%</p>',
      isShared: true,
    });
    const merged = await server.post(account.owner.key, '/v1/templates/merge', {
      templateId: template.body.id,
      mergePersonId: personId,
      recipients: { to: [{ email: 'bob@example.com', name: 'Bob' }, { email: 'a@x.io' }] },
    });
    assert.equal(merged.status, 200, merged.text);
    const plain = await server.get(account.owner.key, `/v1/templates/${template.body.id}`);
    assert.deepEqual(Object.keys(merged.body).sort(), Object.keys(plain.body).sort());
    assert.equal(merged.body.id, template.body.id);
    assert.equal(merged.body.subject, 'Hello Bob');
    assert.equal(merged.body.body, `<p>Dear Bob, from ${account.owner.name}</p>`);
    // The same merge through GET ?mergePersonId= gives the same text.
    const viaGet = await server.get(
      account.owner.key,
      `/v1/templates/${template.body.id}?mergePersonId=${personId}`,
    );
    assert.equal(viaGet.body.subject, merged.body.subject);
    // An agent who does not see the person gets a 404, not the person's data.
    const hidden = await server.post(agent.key, '/v1/templates/merge', {
      templateId: template.body.id,
      mergePersonId: personId,
    });
    assert.equal(hidden.status, 404, hidden.text);
    const missing = await server.post(account.owner.key, '/v1/templates/merge', {
      templateId: template.body.id,
    });
    assert.equal(missing.status, 400);
    assert.match(missing.body.errorMessage, /mergePersonId/);
  });

  it('never shows or merges another account’s templates or people', async () => {
    const mine = await server.newAccount();
    const theirs = await server.newAccount();
    const theirPerson = await personOf(theirs.owner.key);
    const theirText = await server.post(theirs.owner.key, '/v1/textMessageTemplates', {
      name: 'T',
      message: 'secret %contact_name%',
      isShared: true,
    });
    const theirEmail = await server.post(theirs.owner.key, '/v1/templates', {
      name: 'E',
      body: 'secret',
      isShared: true,
    });
    const myText = await server.post(mine.owner.key, '/v1/textMessageTemplates', {
      name: 'Mine',
      message: '%contact_name%',
    });
    const myPerson = await personOf(mine.owner.key);
    const key = mine.owner.key;
    const t = theirText.body.id;
    const checks: [string, string, unknown, number][] = [
      ['GET', `/v1/textMessageTemplates/${t}`, undefined, 404],
      ['PUT', `/v1/textMessageTemplates/${t}`, { name: 'x' }, 404],
      ['DELETE', `/v1/textMessageTemplates/${t}`, undefined, 404],
      ['POST', '/v1/textMessageTemplates/merge', { templateId: t, personId: myPerson }, 404],
      [
        'POST',
        '/v1/textMessageTemplates/merge',
        { templateId: myText.body.id, personId: theirPerson },
        404,
      ],
      [
        'POST',
        '/v1/templates/merge',
        { templateId: theirEmail.body.id, mergePersonId: myPerson },
        404,
      ],
    ];
    for (const [method, path, body, status] of checks) {
      const res = await server.call(method, path, { key, body });
      assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
      assert.ok(!res.text.includes('secret'), res.text);
    }
    assert.equal((await server.get(key, '/v1/textMessageTemplates')).body._metadata.total, 1);
    assert.equal(
      (await server.get(theirs.owner.key, `/v1/textMessageTemplates/${t}`)).body.name,
      'T',
    );
  });
});
