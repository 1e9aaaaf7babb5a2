import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';

describe('templates: CRUD, visibility and merge fields', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('creates, reads, lists, updates and deletes a template', async () => {
    const { owner } = await server.newAccount();
    const created = await server.post(owner.key, '/v1/templates', {
      name: 'Welcome',
      subject: 'Hi %contact_first_name%',
      body: '<p>Hello</p>',
      isShared: true,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.name, 'Welcome');
    assert.equal(created.body.subject, 'Hi %contact_first_name%');
    assert.equal(created.body.isShared, true);
    assert.equal(created.body.createdById, owner.id);
    const id = created.body.id;

    const got = await server.get(owner.key, `/v1/templates/${id}`);
    assert.deepEqual(got.body, created.body);

    await server.post(owner.key, '/v1/templates', { name: 'Second', isShared: '0' });
    const list = await server.get(owner.key, '/v1/templates?limit=1');
    assert.equal(list.status, 200);
    assert.equal(list.body._metadata.collection, 'templates');
    assert.equal(list.body._metadata.total, 2);
    assert.equal(list.body.templates.length, 1);
    assert.equal(list.body.templates[0].name, 'Second');
    assert.ok(list.body._metadata.next);
    const byName = await server.get(owner.key, '/v1/templates?name=welc');
    assert.deepEqual(
      byName.body.templates.map((t: { id: number }) => t.id),
      [id],
    );
    const shared = await server.get(owner.key, '/v1/templates?isShared=true');
    assert.deepEqual(
      shared.body.templates.map((t: { id: number }) => t.id),
      [id],
    );

    const updated = await server.put(owner.key, `/v1/templates/${id}`, {
      subject: 'New subject',
      isShared: false,
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.subject, 'New subject');
    assert.equal(updated.body.body, '<p>Hello</p>');
    assert.equal(updated.body.isShared, false);

    assert.equal((await server.del(owner.key, `/v1/templates/${id}`)).status, 204);
    assert.equal((await server.get(owner.key, `/v1/templates/${id}`)).status, 404);
  });

  it('rejects bad input with 400 naming the field', async () => {
    const { owner } = await server.newAccount();
    const missing = await server.post(owner.key, '/v1/templates', { subject: 'x' });
    assert.equal(missing.status, 400);
    assert.match(missing.body.errorMessage, /name/);
    const unknown = await server.post(owner.key, '/v1/templates', { name: 'x', colour: 'red' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errorMessage, /colour/);
    assert.equal(
      (await server.post(owner.key, '/v1/templates', { name: 'x', system: 'MyCRM' })).status,
      201,
    );
    assert.equal((await server.get(owner.key, '/v1/templates/abc')).status, 400);
    assert.equal((await server.get(owner.key, '/v1/templates/1?mergePersonId=x')).status, 400);
  });

  it('shows private templates only to their creator (and Owner/Admin); only they may change them', async () => {
    const account = await server.newAccount();
    const agentA = await account.addUser('Agent');
    const agentB = await account.addUser('Agent');
    const admin = await account.addUser('Admin');
    const mine = await server.post(agentA.key, '/v1/templates', { name: 'A private', body: 'x' });
    const sharedByA = await server.post(agentA.key, '/v1/templates', {
      name: 'A shared',
      isShared: true,
    });
    const ownerShared = await server.post(account.owner.key, '/v1/templates', {
      name: 'Team',
      isShared: true,
    });

    assert.equal((await server.get(agentB.key, `/v1/templates/${mine.body.id}`)).status, 404);
    const listB = await server.get(agentB.key, '/v1/templates');
    assert.deepEqual(
      listB.body.templates.map((t: { id: number }) => t.id).sort(),
      [sharedByA.body.id, ownerShared.body.id].sort(),
    );
    assert.equal((await server.get(admin.key, `/v1/templates/${mine.body.id}`)).status, 200);
    assert.equal((await server.get(account.owner.key, '/v1/templates')).body._metadata.total, 3);

    const refused = await server.put(agentB.key, `/v1/templates/${ownerShared.body.id}`, {
      name: 'Hijack',
    });
    assert.equal(refused.status, 403);
    assert.equal((await server.del(agentB.key, `/v1/templates/${sharedByA.body.id}`)).status, 403);
    assert.equal(
      (await server.put(agentB.key, `/v1/templates/${mine.body.id}`, { name: 'x' })).status,
      404,
    );
    assert.equal(
      (await server.put(agentA.key, `/v1/templates/${mine.body.id}`, { name: 'Renamed' })).body
        .name,
      'Renamed',
    );
    assert.equal(
      (await server.put(admin.key, `/v1/templates/${mine.body.id}`, { name: 'By admin' })).body
        .name,
      'By admin',
    );
  });

  it('keeps accounts apart', async () => {
    const a = await server.newAccount();
    const b = await server.newAccount();
    const t = await server.post(a.owner.key, '/v1/templates', { name: 'Mine', isShared: true });
    assert.equal((await server.get(b.owner.key, `/v1/templates/${t.body.id}`)).status, 404);
    assert.equal(
      (await server.put(b.owner.key, `/v1/templates/${t.body.id}`, { name: 'x' })).status,
      404,
    );
    assert.equal((await server.del(b.owner.key, `/v1/templates/${t.body.id}`)).status, 404);
    assert.equal((await server.get(b.owner.key, '/v1/templates')).body._metadata.total, 0);
  });

  it('applies every merge field for mergePersonId, with the assigned agent', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent', 'Alice Agent');
    const template = await server.post(account.owner.key, '/v1/templates', {
      name: 'All fields',
      subject: '%inquiry_address%',
      body: [
        '%agent_name%|%agent_first_name%|%agent_last_name%|%agent_email%|%agent_phone%',
        '%contact_name%|%contact_first_name%|%contact_last_name%|%contact_email%|%contact_phone%',
        '%contact_address%|%contact_street%|%contact_city%|%contact_state%|%contact_zipcode%|%contact_country%',
        '%source_name%|%unknown_token%',
      ].join('\n'),
      isShared: true,
    });
    const email = `${unique('carl')}@example.com`;
    const person = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Carl',
      lastName: 'Contact',
      emails: [{ value: email }, { value: 'second@example.com' }],
      phones: [{ value: '555-0199' }],
      addresses: [
        { street: '1 Main St', city: 'Springfield', state: 'IL', code: '62701', country: 'US' },
      ],
      source: 'www.homes.example',
      assignedUserId: agent.id,
    });
    assert.equal(person.status, 201, person.text);
    const agentRow = await server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', agent.id)
      .executeTakeFirstOrThrow();

    const merged = await server.get(
      account.owner.key,
      `/v1/templates/${template.body.id}?mergePersonId=${person.body.id}`,
    );
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.subject, 'Your property inquiry from homes.example');
    assert.deepEqual(merged.body.body.split('\n'), [
      `Alice Agent|${agentRow.first_name}|${agentRow.last_name}|${agentRow.email}|${agentRow.phone}`,
      `Carl Contact|Carl|Contact|${email}|555-0199`,
      '1 Main St, Springfield 62701|1 Main St|Springfield|IL|62701|US',
      'homes.example|%unknown_token%',
    ]);
    const plain = await server.get(account.owner.key, `/v1/templates/${template.body.id}`);
    assert.equal(plain.body.subject, '%inquiry_address%');
  });

  it('%inquiry_address% follows the last inquiry event, then the source, then the default', async () => {
    const { owner } = await server.newAccount();
    const t = await server.post(owner.key, '/v1/templates', {
      name: 'Inquiry',
      subject: '%inquiry_address%',
    });
    const merged = async (personId: number) =>
      (await server.get(owner.key, `/v1/templates/${t.body.id}?mergePersonId=${personId}`)).body
        .subject;

    const email = `${unique('lead')}@example.com`;
    const lead = await server.post(owner.key, '/v1/events', {
      source: 'site.example',
      system: 'Tests',
      type: 'Property Inquiry',
      person: { firstName: 'Lee', lastName: 'Lead', emails: [{ value: email }] },
      property: { street: '9 Elm St', city: 'Springfield' },
    });
    assert.equal(lead.status, 201, lead.text);
    assert.equal(await merged(lead.body.id), '9 Elm St');
    // A later viewing is not an inquiry: the street stays the one of the last inquiry.
    await server.post(owner.key, '/v1/events', {
      source: 'site.example',
      system: 'Tests',
      type: 'Viewed Property',
      person: { emails: [{ value: email }] },
      property: { street: '77 Other Rd' },
    });
    assert.equal(await merged(lead.body.id), '9 Elm St');
    // A later inquiry without a street: rule 2 with the person's source.
    await server.post(owner.key, '/v1/events', {
      source: 'site.example',
      system: 'Tests',
      type: 'General Inquiry',
      person: { emails: [{ value: email }] },
      message: 'Call me',
    });
    assert.equal(await merged(lead.body.id), 'Your property inquiry from site.example');

    const noSource = await server.post(owner.key, '/v1/people', { firstName: 'Nora' });
    assert.equal(await merged(noSource.body.id), 'Your property inquiry');
  });

  it('merges only for people the caller may see, and uses the caller when nobody is assigned', async () => {
    const account = await server.newAccount();
    const agentA = await account.addUser('Agent', 'Agent A');
    const agentB = await account.addUser('Agent', 'Agent B');
    const t = await server.post(account.owner.key, '/v1/templates', {
      name: 'Sig',
      body: '%agent_name%',
      isShared: true,
    });
    const ofB = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Bea',
      assignedUserId: agentB.id,
    });
    assert.equal(
      (await server.get(agentA.key, `/v1/templates/${t.body.id}?mergePersonId=${ofB.body.id}`))
        .status,
      404,
    );
    assert.equal(
      (await server.get(agentB.key, `/v1/templates/${t.body.id}?mergePersonId=${ofB.body.id}`)).body
        .body,
      'Agent B',
    );
    const unassigned = await server.post(account.owner.key, '/v1/people', { firstName: 'Una' });
    assert.equal(
      (
        await server.get(
          account.owner.key,
          `/v1/templates/${t.body.id}?mergePersonId=${unassigned.body.id}`,
        )
      ).body.body,
      account.owner.name,
    );
    const other = await server.newAccount();
    const stranger = await server.post(other.owner.key, '/v1/people', { firstName: 'Stranger' });
    assert.equal(
      (
        await server.get(
          account.owner.key,
          `/v1/templates/${t.body.id}?mergePersonId=${stranger.body.id}`,
        )
      ).status,
      404,
    );
  });

  it('refuses to delete a template an action plan sends from', async () => {
    const { owner } = await server.newAccount();
    const t = await server.post(owner.key, '/v1/templates', { name: 'Used' });
    const plan = await server.post(owner.key, '/v1/actionPlans', {
      name: 'Nurture',
      steps: [{ delayDays: 1, kind: 'email', templateId: t.body.id }],
    });
    assert.equal(plan.status, 201, plan.text);
    const refused = await server.del(owner.key, `/v1/templates/${t.body.id}`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.errorMessage, /Nurture/);
    await server.put(owner.key, `/v1/actionPlans/${plan.body.id}`, { steps: [] });
    assert.equal((await server.del(owner.key, `/v1/templates/${t.body.id}`)).status, 204);
  });
});
