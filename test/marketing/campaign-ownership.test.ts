import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';

const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

describe('only its creator, Owners and Admins change, send or cancel a campaign', () => {
  let sink: SmtpSink;
  let server: TestServer;
  let account: TestAccount;
  let personId: number;
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: { HEARTH_SMTP_URL: sink.url, HEARTH_EMAIL_FROM: 'news@hearth.test' },
    });
    account = await server.newAccount();
    personId = (await server.newPerson(account.owner.key)).id;
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  const makeCampaign = async (key: string) => {
    const res = await server.post(key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'News',
      subject: 'Hello',
      bodyHtml: '<p>Hi</p>',
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id as number;
  };
  const change = (key: string, id: number, subject: string) =>
    server.put(key, `/v1/emCampaigns/${id}`, { subject });
  const send = (key: string, id: number, people = [personId]) =>
    server.post(key, `/v1/emCampaigns/${id}/send`, { personIds: people, sendAt: inAMinute() });
  const cancel = (key: string, id: number) => server.post(key, `/v1/emCampaigns/${id}/send/cancel`);

  it("an Agent can neither change, send nor cancel the Owner's campaign", async () => {
    const agent = await account.addUser('Agent');
    const mine = await server.newPerson(agent.key);
    const id = await makeCampaign(account.owner.key);

    const changed = await change(agent.key, id, 'Hijacked');
    assert.equal(changed.status, 403, changed.text);
    assert.match(changed.body.errorMessage, /user who created this campaign, an Owner or an Admin/);
    assert.equal((await send(agent.key, id, [mine.id])).status, 403);
    const scheduled = await send(account.owner.key, id);
    assert.equal(scheduled.status, 202, scheduled.text);
    assert.equal((await cancel(agent.key, id)).status, 403);

    const campaign = await server.get(account.owner.key, `/v1/emCampaigns/${id}`);
    assert.equal(campaign.body.subject, 'Hello');
    assert.equal(campaign.body.lastSend.status, 'scheduled');
    assert.equal(campaign.body.lastSend.cancelled, 0);
  });

  it('an Admin changes and cancels anyone’s campaign', async () => {
    const admin = await account.addUser('Admin');
    const id = await makeCampaign(account.owner.key);
    assert.equal((await change(admin.key, id, 'By the admin')).status, 200);
    assert.equal((await send(account.owner.key, id)).status, 202);
    const cancelled = await cancel(admin.key, id);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
  });

  it('an Agent changes, sends and cancels their own campaign; another Agent may not', async () => {
    const agent = await account.addUser('Agent');
    const colleague = await account.addUser('Agent');
    const mine = await server.newPerson(agent.key);
    const id = await makeCampaign(agent.key);
    assert.equal((await change(colleague.key, id, 'Not yours')).status, 403);
    const changed = await change(agent.key, id, 'Mine');
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.subject, 'Mine');
    assert.equal((await send(agent.key, id, [mine.id])).status, 202);
    assert.equal((await cancel(colleague.key, id)).status, 403);
    assert.equal((await cancel(agent.key, id)).status, 200);
    // The account's Owner keeps every right over it.
    assert.equal((await change(account.owner.key, id, 'Owner edit')).status, 200);
  });

  it("another account's campaign is a 404, not a 403", async () => {
    const id = await makeCampaign(account.owner.key);
    const stranger = (await server.newAccount()).owner.key;
    assert.equal((await change(stranger, id, 'x')).status, 404);
    assert.equal((await cancel(stranger, id)).status, 404);
  });
});
