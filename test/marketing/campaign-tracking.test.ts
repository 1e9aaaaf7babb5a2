import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, PUBLIC_URL, startServer, unique } from '../support/server.js';
import { decodedMessage, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { waitFor } from '../support/process.js';
import { outboxEvents } from '../support/outbox.js';

const unescapeHtml = (s: string) => s.replace(/&amp;/g, '&');

describe('tracking built-in campaign email', () => {
  let sink: SmtpSink;
  let server: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: { HEARTH_SMTP_URL: sink.url, HEARTH_EMAIL_FROM: 'news@hearth.test' },
      worker: true,
    });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  /** Sends a new campaign to a new person and answers the message the SMTP server got. */
  async function sentMessage(
    bodyHtml = '<p>Dear %contact_first_name%</p><a href="https://example.com/house?id=7&amp;x=1">House</a>',
  ) {
    const { owner, accountId } = await server.newAccount();
    const email = `${unique('t')}@example.com`.toLowerCase();
    const person = await server.post(owner.key, '/v1/people', {
      firstName: 'Tess',
      emails: [{ value: email }],
    });
    const campaign = await server.post(owner.key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'Open house',
      subject: 'Open house, %contact_first_name%',
      bodyHtml,
    });
    const send = await server.post(owner.key, `/v1/emCampaigns/${campaign.body.id}/send`, {
      personIds: [person.body.id],
    });
    assert.equal(send.status, 202, send.text);
    await waitFor(() => sink.countFor(email) === 1, 20_000);
    const raw = sink.messages.find((m) => m.to === email)!.data;
    const body = decodedMessage(raw);
    const local = (url: string) => url.replace(PUBLIC_URL, '');
    const link = (kind: string) => {
      const match = new RegExp(`${PUBLIC_URL}/e/${kind}/[^"\\s<>)]+`).exec(body);
      assert.ok(match, `the message has a /e/${kind}/ link`);
      return local(unescapeHtml(match[0]));
    };
    const header = /^List-Unsubscribe: <([^>]+)>$/m.exec(raw)![1];
    return {
      owner,
      accountId,
      personId: person.body.id as number,
      campaignId: campaign.body.id as number,
      open: link('o'),
      click: link('c'),
      view: link('v'),
      unsubscribe: local(header),
    };
  }

  const types = async (key: string, campaignId: number) =>
    (await server.get(key, `/v1/emEvents?campaignId=${campaignId}`)).body.emEvents
      .map((e: { type: string }) => e.type)
      .sort();

  /** The email-marketing webhook events queued for an account, as third-party events queue them. */
  const webhookEvents = async (accountId: number) =>
    (await outboxEvents(server, accountId))
      .map((e) => e.event)
      .filter((event) => event.startsWith('emEvents'))
      .sort();

  it('records opens and clicks, redirecting only to links that were in the message', async () => {
    const m = await sentMessage();
    const pixel = await server.call('GET', m.open);
    assert.equal(pixel.status, 200);
    assert.equal(pixel.headers['content-type'], 'image/gif');

    const click = await server.call('GET', m.click);
    assert.equal(click.status, 302);
    assert.equal(click.headers.location, 'https://example.com/house?id=7&x=1');
    const forged = m.click.replace(/u=[^&]+/, `u=${encodeURIComponent('https://evil.example/')}`);
    assert.equal((await server.call('GET', forged)).status, 404);
    const guessed = m.click.replace(/\/e\/c\/[^?]+/, '/e/c/AAAAAAAAAAAAAAAAAAAAAAAA');
    assert.equal((await server.call('GET', guessed)).status, 404);
    assert.equal((await server.call('GET', '/e/o/AAAAAAAAAAAAAAAAAAAAAAAA.gif')).status, 200);

    assert.deepEqual(await types(m.owner.key, m.campaignId), ['click', 'delivered', 'open']);
    const events = (await server.get(m.owner.key, `/v1/emEvents?campaignId=${m.campaignId}`)).body;
    const clickEvent = events.emEvents.find((e: { type: string }) => e.type === 'click');
    assert.equal(clickEvent.url, 'https://example.com/house?id=7&x=1');
    assert.equal(clickEvent.personId, m.personId);
    assert.deepEqual(await webhookEvents(m.accountId), ['emEventsClicked', 'emEventsOpened']);
    const timeline = await server.get(m.owner.key, `/v1/people/${m.personId}/campaignEmails`);
    assert.equal(timeline.status, 200, timeline.text);
    const [received] = timeline.body.campaignEmails;
    assert.equal(received.campaignId, m.campaignId);
    assert.equal(received.status, 'sent');
    assert.deepEqual(
      received.events.map((e: { type: string }) => e.type),
      ['delivered', 'open', 'click'],
    );
    const stats = await server.get(m.owner.key, `/v1/emCampaigns/${m.campaignId}/stats`);
    assert.equal(stats.body.stats.sends, 1);
    assert.equal(stats.body.stats.uniqueOpens, 1);
    assert.equal(stats.body.stats.clicks, 1);
  });

  it('shows the merged message in the browser without scripts', async () => {
    const m = await sentMessage();
    const view = await server.call('GET', m.view);
    assert.equal(view.status, 200);
    assert.match(view.text, /Dear Tess/);
    assert.match(String(view.headers['content-security-policy']), /default-src 'none'/);
    assert.doesNotMatch(view.text, /<script/i);
  });

  it('unsubscribes with the page form and RFC 8058 one-click, and drops later sends', async () => {
    const m = await sentMessage();
    const page = await server.call('GET', m.unsubscribe);
    assert.equal(page.status, 200);
    assert.match(page.text, /<form method="post"/);
    assert.doesNotMatch(page.text, /<script/i);
    assert.deepEqual(await types(m.owner.key, m.campaignId), ['delivered'], 'GET changes nothing');

    const oneClick = await server.call('POST', m.unsubscribe, {
      raw: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(oneClick.status, 200, oneClick.text);
    const again = await server.call('POST', m.unsubscribe, {
      raw: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(again.status, 200);
    assert.deepEqual(await types(m.owner.key, m.campaignId), ['delivered', 'unsubscribe']);
    assert.deepEqual(await webhookEvents(m.accountId), ['emEventsUnsubscribed']);
    const person = await server.get(m.owner.key, `/v1/people/${m.personId}`);
    assert.equal(person.body.emails[0].status, 'Unsubscribed');

    const next = await server.post(m.owner.key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'Next',
      subject: 'Next',
      bodyHtml: '<p>Next</p>',
    });
    await server.post(m.owner.key, `/v1/emCampaigns/${next.body.id}/send`, {
      personIds: [m.personId],
    });
    await waitFor(
      async () =>
        (await server.get(m.owner.key, `/v1/emCampaigns/${next.body.id}`)).body.lastSend?.status ===
        'done',
      20_000,
    );
    const progress = (await server.get(m.owner.key, `/v1/emCampaigns/${next.body.id}`)).body;
    assert.equal(progress.lastSend.dropped, 1);
  });

  it('RFC 8058 one-click as multipart/form-data unsubscribes; oversized or file parts are refused', async () => {
    const m = await sentMessage();
    const multipart = (part: string) => ({
      raw: `--b0undary\r\n${part}\r\n--b0undary--\r\n`,
      contentType: 'multipart/form-data; boundary=b0undary',
    });
    const oversized = await server.call(
      'POST',
      m.unsubscribe,
      multipart(
        `Content-Disposition: form-data; name="List-Unsubscribe"\r\n\r\n${'x'.repeat(5000)}`,
      ),
    );
    const file = await server.call(
      'POST',
      m.unsubscribe,
      multipart(
        'Content-Disposition: form-data; name="f"; filename="a.txt"\r\n' +
          'Content-Type: text/plain\r\n\r\nhello',
      ),
    );
    const huge = await server.call(
      'POST',
      m.unsubscribe,
      multipart(`Content-Disposition: form-data; name="a"\r\n\r\n${'x'.repeat(20_000)}`),
    );
    assert.equal(huge.status, 413);
    assert.match(huge.body.errorMessage, /over 16 KiB/);
    for (const refused of [oversized, file]) {
      assert.ok(refused.status >= 400 && refused.status < 500, `${refused.status} ${refused.text}`);
      assert.equal(typeof refused.body.errorMessage, 'string');
    }
    assert.deepEqual(await types(m.owner.key, m.campaignId), ['delivered']);

    const oneClick = await server.call(
      'POST',
      m.unsubscribe,
      multipart('Content-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click'),
    );
    assert.equal(oneClick.status, 200, oneClick.text);
    assert.match(oneClick.text, /You are unsubscribed/);
    assert.deepEqual(await types(m.owner.key, m.campaignId), ['delivered', 'unsubscribe']);
  });

  it('the browser view drops <meta> tags and is sandboxed: no refresh away from Hearth', async () => {
    const m = await sentMessage(
      '<html><head><meta http-equiv="refresh" content="0;url=https://evil.example/"></head><body>' +
        '<p>Dear %contact_first_name%</p><a href="https://example.com/">House</a>' +
        '<META HTTP-EQUIV=Refresh CONTENT="0; URL=https://evil.example/a">' +
        '<<meta>meta http-equiv="refresh" content="0;url=https://evil.example/b"></body></html>',
    );
    const view = await server.call('GET', m.view);
    assert.equal(view.status, 200, view.text);
    assert.match(view.text, /Dear Tess/);
    assert.doesNotMatch(view.text, /http-equiv|evil\.example/i);
    const csp = String(view.headers['content-security-policy']).split(/;\s*/);
    const sandbox = csp.find((d) => d.startsWith('sandbox'))?.split(' ');
    assert.ok(sandbox, `CSP ${csp.join('; ')}`);
    for (const allowed of ['allow-scripts', 'allow-top-navigation', 'allow-same-origin'])
      assert.ok(!sandbox.includes(allowed), `sandbox allows ${allowed}`);
  });
});
