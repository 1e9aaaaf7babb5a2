import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { waitFor } from '../support/process.js';

async function makeCampaign(server: TestServer, key: string, body = 'Hello %contact_first_name%') {
  const res = await server.post(key, '/v1/emCampaigns', {
    origin: 'Hearth',
    originId: unique('c'),
    name: 'Spring news',
    subject: 'News for %contact_first_name%',
    bodyHtml: `<html><body><p>${body}</p><p><a href="https://example.com/listing?a=1&amp;b=2">See the listing</a></p></body></html>`,
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as number;
}

async function makePerson(server: TestServer, key: string, extra: Record<string, unknown> = {}) {
  return server.newPerson(key, { firstName: 'Ann', ...extra });
}

async function sendDone(server: TestServer, key: string, campaignId: number) {
  let last: Record<string, unknown> | null = null;
  await waitFor(async () => {
    last = (await server.get(key, `/v1/emCampaigns/${campaignId}`)).body.lastSend;
    return last?.status === 'done';
  }, 30_000);
  return last!;
}

describe('sending a campaign through SMTP', () => {
  let sink: SmtpSink;
  let server: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: {
        HEARTH_SMTP_URL: sink.url,
        HEARTH_EMAIL_FROM: 'news@hearth.test',
        HEARTH_EMAIL_RETRY_SCHEDULE: '0.2,0.2',
      },
      worker: true,
    });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  it('sends each chosen person one merged message with a text part and one-click unsubscribe', async () => {
    const { owner } = await server.newAccount();
    const campaignId = await makeCampaign(server, owner.key);
    const ann = await makePerson(server, owner.key);
    const bob = await makePerson(server, owner.key, { firstName: 'Bob<b>' });
    const res = await server.post(owner.key, `/v1/emCampaigns/${campaignId}/send`, {
      personIds: [ann.id, bob.id],
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.total, 2);
    const progress = await sendDone(server, owner.key, campaignId);
    assert.equal(progress.sent, 2);
    assert.equal(sink.countFor(ann.email), 1);
    assert.equal(sink.countFor(bob.email), 1);
    const message = sink.messages.find((m) => m.to === ann.email)!.data;
    assert.match(message, /^Subject: News for Ann$/m);
    assert.match(message, /^List-Unsubscribe: <https:\/\/hearth\.test\/e\/u\/[A-Za-z0-9_-]{24}>$/m);
    assert.match(message, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    assert.match(message, /Content-Type: text\/plain/);
    assert.match(message, /Content-Type: text\/html/);
    assert.match(message, /^From: .*<owner-.*@example\.com>$/im);
    // Every link the message carries back to Hearth (open, click, unsubscribe) names a random
    // token, never the person's id (on a fresh database that id is a digit a token can start with).
    const unfolded = message.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const trackingUrls = unfolded.match(/https:\/\/hearth\.test\/e\/[^\s"'<>]+/g) ?? [];
    assert.ok(trackingUrls.length >= 2, `tracking links in the message: ${trackingUrls.join(' ')}`);
    for (const link of trackingUrls) {
      const url = new URL(link);
      const parts = [...url.pathname.split('/'), ...url.searchParams.values()];
      assert.ok(!parts.includes(String(ann.id)), `no ids in the tracking URLs: ${link}`);
    }
    const bobs = sink.messages.find((m) => m.to === bob.email)!.data;
    assert.ok(bobs.includes('Bob&lt;b&gt;'), 'merged values are escaped in HTML');
    const events = await server.get(owner.key, `/v1/emEvents?campaignId=${campaignId}`);
    const types = events.body.emEvents.map((e: { type: string }) => e.type).sort();
    assert.deepEqual(types, ['delivered', 'delivered']);
  });

  it('skips people without email or in Trash, drops unsubscribed ones, bounces on 5xx and 4xx', async () => {
    const { owner } = await server.newAccount();
    const campaignId = await makeCampaign(server, owner.key);
    const ok = await makePerson(server, owner.key);
    const noEmail = (
      await server.post(owner.key, '/v1/people', { firstName: 'No', lastName: unique('Mail') })
    ).body.id;
    const trash = await makePerson(server, owner.key, { stage: 'Trash' });
    const unsub = await makePerson(server, owner.key);
    const hard = await makePerson(server, owner.key);
    const soft = await makePerson(server, owner.key);
    sink.reject(hard.email, 550);
    sink.reject(soft.email, 451);
    const other = await makeCampaign(server, owner.key);
    const posted = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [{ campaignId: other, type: 'unsubscribe', recipient: unsub.email }],
    });
    assert.equal(posted.status, 201, posted.text);
    const res = await server.post(owner.key, `/v1/emCampaigns/${campaignId}/send`, {
      personIds: [ok.id, noEmail, trash.id, unsub.id, hard.id, soft.id],
    });
    assert.equal(res.status, 202, res.text);
    const progress = await sendDone(server, owner.key, campaignId);
    assert.deepEqual(
      [
        progress.sent,
        progress.skipped,
        progress.dropped,
        progress.hardBounced,
        progress.softBounced,
      ],
      [1, 2, 1, 1, 1],
    );
    assert.equal(sink.countFor(unsub.email), 0);
    const stats = await server.get(owner.key, `/v1/emCampaigns/${campaignId}/stats`);
    assert.equal(stats.body.stats.sends, 1);
    assert.equal(stats.body.stats.dropped, 1);
    assert.equal(stats.body.stats.hardBounces, 1);
    assert.equal(stats.body.stats.softBounces, 1);
    const person = await server.get(owner.key, `/v1/people/${hard.id}`);
    assert.equal(person.body.emails[0].status, 'Bad');
  });

  it('sends to a smart list, later when sendAt is given', async () => {
    const { owner } = await server.newAccount();
    const campaignId = await makeCampaign(server, owner.key);
    const tag = unique('tag');
    const a = await makePerson(server, owner.key, { tags: [tag] });
    const b = await makePerson(server, owner.key, { tags: [tag] });
    await makePerson(server, owner.key);
    const list = await server.post(owner.key, '/v1/smartLists', {
      name: 'Tagged',
      filters: { tags: tag },
    });
    assert.equal(list.status, 201, list.text);
    // Far enough ahead that a loaded machine still answers the POST before it is due.
    const sendAt = new Date(Date.now() + 5000).toISOString();
    const res = await server.post(owner.key, `/v1/emCampaigns/${campaignId}/send`, {
      smartListId: list.body.id,
      sendAt,
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, 'scheduled');
    assert.equal(res.body.total, 2);
    assert.equal(sink.countFor(a.email), 0);
    await sendDone(server, owner.key, campaignId);
    assert.equal(sink.countFor(a.email), 1);
    assert.equal(sink.countFor(b.email), 1);
  });
});
