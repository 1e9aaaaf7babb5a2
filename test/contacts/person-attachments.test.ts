import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';

describe('person attachments: files hosted elsewhere, written by a registered system', () => {
  let server: TestServer;
  let system: { name: string; key: string };
  before(async () => {
    server = await startServer();
    system = await server.newSystem('Files');
  });
  after(async () => server.close());
  const sys = () => ({ 'X-System': system.name, 'X-System-Key': system.key });

  it('creates, reads, lists, updates and deletes with the deal attachments shape', async () => {
    const account = await server.newAccount();
    const { owner } = account;
    const person = await server.post(owner.key, '/v1/people', { firstName: 'Ada' });
    const personId = person.body.id;
    const created = await server.post(
      owner.key,
      '/v1/personAttachments',
      { personId, uri: 'https://files.example.com/id.PDF', fileName: 'id.PDF', fileSize: '2048' },
      sys(),
    );
    assert.equal(created.status, 201, created.text);
    const { id, createdAt, created: made, updated, ...rest } = created.body;
    assert.ok(id > 0 && createdAt === made && updated === made);
    assert.deepEqual(rest, {
      personId,
      fileName: 'id.PDF',
      fileSize: 2048,
      mimeType: 'application/pdf',
      uri: 'https://files.example.com/id.PDF',
      status: 'Active',
      createdById: owner.id,
      createdByName: owner.name,
    });
    const got = await server.get(owner.key, `/v1/personAttachments/${id}`);
    assert.deepEqual(got.body, created.body);
    const list = await server.get(owner.key, `/v1/personAttachments?personId=${personId}`);
    assert.equal(list.body._metadata.collection, 'personAttachments');
    assert.deepEqual(
      list.body.personAttachments.map((a: { id: number }) => a.id),
      [id],
    );
    const put = await server.put(
      owner.key,
      `/v1/personAttachments/${id}`,
      { fileName: 'photo.jpg', fileSize: null },
      sys(),
    );
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.mimeType, 'image/jpeg');
    assert.equal(put.body.fileSize, null);
    assert.equal(put.body.uri, 'https://files.example.com/id.PDF');
    // Deal attachments answer in the same shape, with dealId.
    const deal = await server.get(owner.key, '/v1/dealAttachments');
    assert.equal(deal.status, 200);
    assert.equal((await server.del(owner.key, `/v1/personAttachments/${id}`, sys())).status, 204);
    assert.equal((await server.get(owner.key, `/v1/personAttachments/${id}`)).status, 404);
  });

  it('refuses writes without a registered system, without uri (403) and non-https uris (400)', async () => {
    const { owner } = await server.newAccount();
    const person = await server.post(owner.key, '/v1/people', { firstName: 'Bo' });
    const body = { personId: person.body.id, uri: 'https://x.example/a.txt', fileName: 'a.txt' };
    const anonymous = await server.post(owner.key, '/v1/personAttachments', body);
    assert.equal(anonymous.status, 403, anonymous.text);
    assert.match(anonymous.body.errorMessage, /registered system/);
    const wrongKey = await server.post(owner.key, '/v1/personAttachments', body, {
      'X-System': system.name,
      'X-System-Key': 'nope',
    });
    assert.equal(wrongKey.status, 403);
    const upload = await server.post(
      owner.key,
      '/v1/personAttachments',
      { personId: person.body.id, fileName: 'a.txt' },
      sys(),
    );
    assert.equal(upload.status, 403, upload.text);
    assert.match(upload.body.errorMessage, /uri/);
    for (const uri of ['http://x.example/a', 'ftp://x.example/a', 'file:///etc/passwd', 'nope']) {
      const res = await server.post(owner.key, '/v1/personAttachments', { ...body, uri }, sys());
      assert.equal(res.status, 400, `${uri}: ${res.text}`);
      assert.match(res.body.errorMessage, /https/);
    }
    const missing = await server.post(
      owner.key,
      '/v1/personAttachments',
      { ...body, personId: 99999999 },
      sys(),
    );
    assert.equal(missing.status, 400);
    assert.match(missing.body.errorMessage, /personId/);
    const extra = await server.post(owner.key, '/v1/personAttachments', { ...body, x: 1 }, sys());
    assert.equal(extra.body.errorMessage, 'Invalid fields in the request body: x.');
  });

  it('is visible like its person: an agent sees only their people’s files; other accounts nothing', async () => {
    const account = await server.newAccount();
    const other = await server.newAccount();
    const agent = await account.addUser('Agent');
    const mine = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Mine',
      assignedUserId: agent.id,
    });
    const theirs = await server.post(account.owner.key, '/v1/people', { firstName: 'Not' });
    const attach = (key: string, personId: number) =>
      server.post(
        key,
        '/v1/personAttachments',
        { personId, uri: 'https://x.example/f.png', fileName: 'f.png' },
        sys(),
      );
    const a = await attach(agent.key, mine.body.id);
    assert.equal(a.status, 201, a.text);
    const b = await attach(account.owner.key, theirs.body.id);
    assert.equal((await attach(agent.key, theirs.body.id)).status, 400);
    const list = await server.get(agent.key, '/v1/personAttachments');
    assert.deepEqual(
      list.body.personAttachments.map((x: { id: number }) => x.id),
      [a.body.id],
    );
    assert.equal((await server.get(agent.key, `/v1/personAttachments/${b.body.id}`)).status, 404);
    for (const [method, path] of [
      ['GET', `/v1/personAttachments/${a.body.id}`],
      ['PUT', `/v1/personAttachments/${a.body.id}`],
      ['DELETE', `/v1/personAttachments/${a.body.id}`],
    ]) {
      const res = await server.call(method, path, {
        key: other.owner.key,
        headers: sys(),
        body: method === 'PUT' ? { fileName: 'x' } : undefined,
      });
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
    }
    assert.equal(
      (await server.get(other.owner.key, '/v1/personAttachments')).body._metadata.total,
      0,
    );
    assert.equal((await attach(other.owner.key, mine.body.id)).status, 400);
    // Deleting the person removes their attachments.
    assert.equal((await server.del(account.owner.key, `/v1/people/${mine.body.id}`)).status, 204);
    assert.equal(
      (await server.get(account.owner.key, `/v1/personAttachments/${a.body.id}`)).status,
      404,
    );
  });
});
