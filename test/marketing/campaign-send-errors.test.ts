import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';

async function campaign(server: TestServer, key: string) {
  const res = await server.post(key, '/v1/emCampaigns', {
    origin: 'Hearth',
    originId: unique('c'),
    name: 'C',
    subject: 'S',
    bodyHtml: '<p>B</p>',
  });
  return res.body.id as number;
}

async function person(server: TestServer, key: string) {
  return (await server.newPerson(key, { firstName: 'P' })).id;
}

describe('campaign send: bad input gets a clear 4xx', () => {
  let sink: SmtpSink;
  let server: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    // No worker: sends stay unfinished, so a second send of the same campaign conflicts.
    server = await startServer({
      env: { HEARTH_SMTP_URL: sink.url, HEARTH_EMAIL_FROM: 'news@hearth.test' },
    });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  it('answers 404, 409 and 422 with messages that say what to fix, and stores nothing', async () => {
    const { owner, addUser } = await server.newAccount();
    const other = await server.newAccount();
    const id = await campaign(server, owner.key);
    const p = await person(server, owner.key);
    const send = (campaignId: number, body: unknown, key = owner.key) =>
      server.post(key, `/v1/emCampaigns/${campaignId}/send`, body);

    const unknown = await send(999_999_999, { personIds: [p] });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.errorMessage, /Campaign 999999999 not found/);

    const neither = await send(id, {});
    assert.equal(neither.status, 422);
    assert.match(neither.body.errorMessage, /personIds .* or smartListId/);
    assert.equal((await send(id, { personIds: [p], smartListId: 1 })).status, 422);

    const empty = await send(id, { personIds: [] });
    assert.equal(empty.status, 422);
    const stranger = await person(server, other.owner.key);
    const notMine = await send(id, { personIds: [p, stranger] });
    assert.equal(notMine.status, 422);
    assert.match(notMine.body.errorMessage, new RegExp(`no person ${stranger}`));

    const theirList = await server.post(other.owner.key, '/v1/smartLists', {
      name: 'Theirs',
      filters: {},
      isShared: true,
    });
    assert.equal(theirList.status, 201, theirList.text);
    const foreignList = await send(id, { smartListId: theirList.body.id });
    assert.equal(foreignList.status, 422);
    assert.match(foreignList.body.errorMessage, /no smart list \d+ in this account/);

    const nobody = await server.post(owner.key, '/v1/smartLists', {
      name: 'Nobody',
      filters: { tags: unique('none') },
    });
    const none = await send(id, { smartListId: nobody.body.id });
    assert.equal(none.status, 422);
    assert.match(none.body.errorMessage, /No recipients/);

    assert.equal((await send(id, { personIds: [p], sendAt: 'tomorrow' })).status, 422);
    const lender = await addUser('Lender');
    assert.equal((await send(id, { personIds: [p] }, lender.key)).status, 403);
    assert.equal((await server.get(owner.key, `/v1/emCampaigns/${id}`)).body.lastSend, undefined);

    const first = await send(id, { personIds: [p] });
    assert.equal(first.status, 202, first.text);
    const second = await send(id, { personIds: [p] });
    assert.equal(second.status, 409);
    assert.match(second.body.errorMessage, /already being sent/);
    const fresh = await campaign(server, owner.key);
    const racing = await Promise.all([
      send(fresh, { personIds: [p] }),
      send(fresh, { personIds: [p] }),
    ]);
    assert.deepEqual(racing.map((r) => r.status).sort(), [202, 409]);
  });

  it('refuses with 409 naming the setting when SMTP is not configured', async () => {
    const bare = await startServer();
    try {
      const { owner } = await bare.newAccount();
      const id = await campaign(bare, owner.key);
      const p = await person(bare, owner.key);
      const res = await bare.post(owner.key, `/v1/emCampaigns/${id}/send`, { personIds: [p] });
      assert.equal(res.status, 409);
      assert.match(res.body.errorMessage, /HEARTH_SMTP_URL/);
    } finally {
      await bare.close();
    }
  });
});
