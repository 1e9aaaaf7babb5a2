import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../../support/server.js';

describe('webhooks: registration', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { HEARTH_WEBHOOK_ALLOW_PRIVATE: '1' } });
  });
  after(async () => server.close());

  const sys = (s: { name: string; key: string }) => ({ 'x-system': s.name, 'x-system-key': s.key });
  const URL_A = 'https://127.0.0.1:9/a';

  it('registers, reads, lists, updates and deletes a webhook (Owner with system identification)', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const created = await server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'peopleCreated', url: URL_A },
      sys(system),
    );
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), [
      'created',
      'event',
      'id',
      'status',
      'system',
      'updated',
      'url',
    ]);
    assert.equal(created.body.status, 'Active');
    assert.equal(created.body.system, system.name);
    assert.equal(created.body.url, URL_A);

    const got = await server.get(account.owner.key, `/v1/webhooks/${created.body.id}`, {
      'x-system': system.name,
    });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, created.body);

    const list = await server.get(
      account.owner.key,
      '/v1/webhooks?event=peopleCreated&status=Active',
      { 'x-system': system.name },
    );
    assert.equal(list.status, 200);
    assert.equal(list.body._metadata.collection, 'webhooks');
    assert.deepEqual(
      list.body.webhooks.map((w: { id: number }) => w.id),
      [created.body.id],
    );
    const none = await server.get(account.owner.key, '/v1/webhooks?status=Disabled', {
      'x-system': system.name,
    });
    assert.equal(none.body._metadata.total, 0);

    const updated = await server.put(
      account.owner.key,
      `/v1/webhooks/${created.body.id}`,
      { url: 'https://127.0.0.1:9/b', status: 'Disabled' },
      sys(system),
    );
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.url, 'https://127.0.0.1:9/b');
    assert.equal(updated.body.status, 'Disabled');
    const back = await server.put(
      account.owner.key,
      `/v1/webhooks/${created.body.id}`,
      { status: 'Active' },
      sys(system),
    );
    assert.equal(back.body.status, 'Active');

    const removed = await server.del(account.owner.key, `/v1/webhooks/${created.body.id}`, {
      'x-system': system.name,
    });
    assert.equal(removed.status, 204);
    const gone = await server.get(account.owner.key, `/v1/webhooks/${created.body.id}`, {
      'x-system': system.name,
    });
    assert.equal(gone.status, 404);
  });

  it('accepts the system in the query or body instead of the header', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const created = await server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'notesCreated', url: URL_A, system: system.name },
      { 'x-system-key': system.key },
    );
    assert.equal(created.status, 201, created.text);
    const list = await server.get(
      account.owner.key,
      `/v1/webhooks?system=${encodeURIComponent(system.name)}`,
    );
    assert.equal(list.body._metadata.total, 1);
  });

  it('requires system identification on every webhooks request (400)', async () => {
    const account = await server.newAccount();
    for (const res of [
      await server.get(account.owner.key, '/v1/webhooks'),
      await server.post(account.owner.key, '/v1/webhooks', { event: 'peopleCreated', url: URL_A }),
      await server.get(account.owner.key, '/v1/webhooks/1'),
      await server.del(account.owner.key, '/v1/webhooks/1'),
    ]) {
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.errorMessage, /System identification is required/);
    }
  });

  it('requires the verified system key to register (deliveries are signed with it)', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const missing = await server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'peopleCreated', url: URL_A },
      { 'x-system': system.name },
    );
    assert.equal(missing.status, 403);
    assert.match(missing.body.errorMessage, /X-System-Key/);
    const wrong = await server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'peopleCreated', url: URL_A },
      { 'x-system': system.name, 'x-system-key': 'hsk_wrong' },
    );
    assert.equal(wrong.status, 403);
    assert.match(wrong.body.errorMessage, /does not match/);
  });

  it('is for Owners only: Admin, Agent and Lender get 403', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    for (const role of ['Admin', 'Agent', 'Lender'] as const) {
      const user = await account.addUser(role);
      const list = await server.get(user.key, '/v1/webhooks', sys(system));
      assert.equal(list.status, 403, `${role} list`);
      const create = await server.post(
        user.key,
        '/v1/webhooks',
        { event: 'peopleCreated', url: URL_A },
        sys(system),
      );
      assert.equal(create.status, 403, `${role} create`);
      const event = await server.get(
        user.key,
        '/v1/webhookEvents/00000000-0000-4000-8000-000000000000',
        sys(system),
      );
      assert.equal(event.status, 403, `${role} event`);
    }
  });

  it('refuses unknown events, non-HTTPS URLs, credentials and keys in the URL, and unknown fields (400)', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const post = (body: unknown) =>
      server.post(account.owner.key, '/v1/webhooks', body, sys(system));
    const cases: [unknown, RegExp][] = [
      [{ event: 'peopleExploded', url: URL_A }, /Unknown event 'peopleExploded'/],
      [{ event: 'peopleCreated', url: 'http://example.com/hook' }, /HTTPS/],
      [{ event: 'peopleCreated', url: 'ftp://example.com/hook' }, /HTTPS/],
      [{ event: 'peopleCreated', url: 'not a url' }, /absolute HTTPS URL/],
      [{ event: 'peopleCreated', url: 'https://user:pass@example.com/hook' }, /credentials/],
      [
        { event: 'peopleCreated', url: `https://example.com/hook?key=${account.owner.key}` },
        /API key/,
      ],
      [
        { event: 'peopleCreated', url: `https://example.com/${system.key}/hook` },
        /API key or system key/,
      ],
      [{ event: 'peopleCreated' }, /url/],
      [
        { event: 'peopleCreated', url: URL_A, colour: 'red' },
        /Invalid fields in the request body: colour\./,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
      assert.match(res.body.errorMessage, message);
    }
    const badStatus = await server.get(account.owner.key, '/v1/webhooks?status=Gone', sys(system));
    assert.equal(badStatus.status, 400);
  });

  it('allows at most two webhooks per event per system; other systems and events have their own room', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const other = await server.newSystem();
    const post = (s: typeof system, event: string, n: number) =>
      server.post(
        account.owner.key,
        '/v1/webhooks',
        { event, url: `https://127.0.0.1:9/${n}` },
        sys(s),
      );
    assert.equal((await post(system, 'dealsCreated', 1)).status, 201);
    assert.equal((await post(system, 'dealsCreated', 2)).status, 201);
    const third = await post(system, 'dealsCreated', 3);
    assert.equal(third.status, 400);
    assert.match(third.body.errorMessage, /At most 2 webhooks/);
    assert.equal((await post(system, 'dealsUpdated', 3)).status, 201);
    assert.equal((await post(other, 'dealsCreated', 3)).status, 201);
    const duplicate = await post(system, 'dealsUpdated', 3);
    assert.equal(duplicate.status, 409);
    // Moving a webhook onto a full event is refused the same way.
    const moved = await server.put(
      account.owner.key,
      `/v1/webhooks/${(await post(system, 'tasksCreated', 4)).body.id}`,
      { event: 'dealsCreated' },
      sys(system),
    );
    assert.equal(moved.status, 400);
  });

  it("shows only the calling system's webhooks in the caller's account", async () => {
    const a = await server.newAccount();
    const b = await server.newAccount();
    const system = await server.newSystem();
    const other = await server.newSystem();
    const mine = await server.post(
      a.owner.key,
      '/v1/webhooks',
      { event: 'callsCreated', url: URL_A },
      sys(system),
    );
    await server.post(
      a.owner.key,
      '/v1/webhooks',
      { event: 'callsCreated', url: URL_A },
      sys(other),
    );
    await server.post(
      b.owner.key,
      '/v1/webhooks',
      { event: 'callsCreated', url: URL_A },
      sys(system),
    );
    const list = await server.get(a.owner.key, '/v1/webhooks', { 'x-system': system.name });
    assert.deepEqual(
      list.body.webhooks.map((w: { id: number }) => w.id),
      [mine.body.id],
    );
    assert.equal(
      (await server.get(b.owner.key, `/v1/webhooks/${mine.body.id}`, { 'x-system': system.name }))
        .status,
      404,
    );
    assert.equal(
      (await server.get(a.owner.key, `/v1/webhooks/${mine.body.id}`, { 'x-system': other.name }))
        .status,
      404,
    );
    assert.equal(
      (await server.del(b.owner.key, `/v1/webhooks/${mine.body.id}`, { 'x-system': system.name }))
        .status,
      404,
    );
    assert.equal(
      (await server.get(a.owner.key, `/v1/webhooks/${mine.body.id}`, { 'x-system': system.name }))
        .status,
      200,
    );
  });

  it('paginates the list', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    for (const event of ['tasksCreated', 'tasksUpdated', 'tasksDeleted']) {
      await server.post(account.owner.key, '/v1/webhooks', { event, url: URL_A }, sys(system));
    }
    const first = await server.get(account.owner.key, '/v1/webhooks?limit=2', {
      'x-system': system.name,
    });
    assert.equal(first.body._metadata.total, 3);
    assert.equal(first.body.webhooks.length, 2);
    assert.ok(first.body._metadata.next);
    const second = await server.get(
      account.owner.key,
      `/v1/webhooks?limit=2&next=${first.body._metadata.next}`,
      { 'x-system': system.name },
    );
    assert.equal(second.body.webhooks.length, 1);
    const ids = [...first.body.webhooks, ...second.body.webhooks].map((w: { id: number }) => w.id);
    assert.equal(new Set(ids).size, 3);
  });
});

describe('webhooks: SSRF protection at registration', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  const refused = [
    'https://127.0.0.1/hook',
    'https://127.1/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://0x7f.0.0.1/hook',
    'https://0177.0.0.1/hook',
    'https://017700000001/hook',
    'https://localhost/hook',
    'https://LOCALHOST./hook',
    'https://0.0.0.0/hook',
    'https://0/hook',
    'https://10.0.0.1/hook',
    'https://172.16.5.4/hook',
    'https://172.31.255.255/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://224.0.0.1/hook',
    'https://255.255.255.255/hook',
    'https://[::1]/hook',
    'https://[::]/hook',
    'https://[0:0:0:0:0:0:0:1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://[::ffff:10.0.0.1]/hook',
    'https://[::ffff:169.254.169.254]/hook',
    'https://[64:ff9b::7f00:1]/hook',
    'https://[2002:7f00:1::]/hook',
    'https://[fe80::1]/hook',
    'https://[fd12:3456::1]/hook',
    'https://[fc00::1]/hook',
    'https://[ff02::1]/hook',
  ];

  it(`refuses ${refused.length} spellings of loopback, private, link-local, unique-local, multicast and unspecified addresses`, async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    assert.ok(refused.length >= 20);
    for (const url of refused) {
      const res = await server.post(
        account.owner.key,
        '/v1/webhooks',
        { event: 'peopleCreated', url },
        { 'x-system': system.name, 'x-system-key': system.key },
      );
      assert.equal(res.status, 400, `${url} → ${res.status} ${res.text}`);
      assert.match(res.body.errorMessage, /not allowed/, url);
    }
    const list = await server.get(account.owner.key, '/v1/webhooks', { 'x-system': system.name });
    assert.equal(list.body._metadata.total, 0);
  });

  it('accepts a public address', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const res = await server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'peopleCreated', url: 'https://93.184.215.14/hook' },
      { 'x-system': system.name, 'x-system-key': system.key },
    );
    assert.equal(res.status, 201, res.text);
  });
});
