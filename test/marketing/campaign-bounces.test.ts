import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type TestServer, startServer, unique } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { waitFor } from '../support/process.js';

const SECRET = 'bounce-secret-0123456789abcdef';

/** An RFC 3464 report as Postfix writes it; `headers` are the returned message's headers. */
function dsn(recipient: string, status: string, action: string, headers: string | null) {
  const boundary = 'B0UND.ary/1';
  const parts = [
    `From: MAILER-DAEMON@mx.example.net\r\nTo: news@hearth.test\r\nSubject: Undelivered Mail Returned to Sender\r\n` +
      `Message-ID: <20250101.report@mx.example.net>\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary="${boundary}"\r\n\r\n`,
    `This is a MIME-encapsulated message.\r\n\r\n--${boundary}\r\nContent-Type: text/plain\r\n\r\n` +
      `I'm sorry to have to inform you that your message could not be delivered.\r\n\r\n`,
    `--${boundary}\r\nContent-Type: message/delivery-status\r\n\r\n` +
      `Reporting-MTA: dns; mx.example.net\r\nArrival-Date: Wed,  1 Jan 2025 10:00:00 +0000\r\n\r\n` +
      `Final-Recipient: rfc822; ${recipient}\r\nOriginal-Recipient: rfc822;${recipient}\r\n` +
      `Action: ${action}\r\nStatus: ${status}\r\nRemote-MTA: dns; mail.example.com\r\n` +
      `Diagnostic-Code: smtp; ${status.startsWith('5') ? '550' : '452'} ${status} mailbox says no\r\n\r\n`,
    headers === null
      ? ''
      : `--${boundary}\r\nContent-Type: text/rfc822-headers\r\n\r\n${headers}\r\n`,
    `--${boundary}--\r\n`,
  ];
  return parts.join('');
}

const headersOf = (message: string) => message.slice(0, message.indexOf('\r\n\r\n'));

describe('bounce reports (DSNs) piped in by the operator', () => {
  let sink: SmtpSink;
  let server: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: {
        HEARTH_SMTP_URL: sink.url,
        HEARTH_EMAIL_FROM: 'news@hearth.test',
        HEARTH_BOUNCE_SECRET: SECRET,
      },
      worker: true,
    });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  const report = (body: string | Buffer, secret: string | null = SECRET, type = 'message/rfc822') =>
    server.call('POST', '/e/bounces', {
      key: null,
      raw: body,
      contentType: type,
      headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
    });

  it('records 5.x.x as hard bounces and 4.x.x as soft ones, on the campaign and person that sent', async () => {
    const { owner } = await server.newAccount();
    const people = [];
    for (const name of ['Hard', 'Soft', 'Plain', 'Fine']) {
      const email = `${unique(name)}@example.com`.toLowerCase();
      const res = await server.post(owner.key, '/v1/people', {
        firstName: name,
        emails: [{ value: email }],
      });
      people.push({ id: res.body.id as number, email });
    }
    const [hard, soft, plain, fine] = people;
    const campaign = await server.post(owner.key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'Bounces',
      subject: 'Hi',
      bodyHtml: '<p>Hi %contact_first_name%</p>',
    });
    const id = campaign.body.id as number;
    const send = await server.post(owner.key, `/v1/emCampaigns/${id}/send`, {
      personIds: people.map((p) => p.id),
    });
    assert.equal(send.status, 202, send.text);
    await waitFor(
      async () =>
        (await server.get(owner.key, `/v1/emCampaigns/${id}`)).body.lastSend.status === 'done',
      30_000,
    );
    const sent = (email: string) => sink.messages.find((m) => m.to === email)!.data;
    assert.match(
      headersOf(sent(hard.email)),
      /^Message-ID: <[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{16}@hearth\.test>$/m,
    );

    const first = await report(dsn(hard.email, '5.1.1', 'failed', headersOf(sent(hard.email))));
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.recorded, [
      { email: hard.email, type: 'hard-bounce', campaignId: id, personId: hard.id },
    ]);
    const delayed = await report(
      dsn(soft.email.toUpperCase(), '4.2.2', 'delayed', headersOf(sent(soft.email))),
    );
    assert.equal(delayed.body.recorded[0]?.type, 'soft-bounce', delayed.text);
    // No returned headers: the latest message Hearth sent to that address.
    const bare = await report(dsn(plain.email, '5.2.1', 'failed', null));
    assert.equal(bare.body.recorded[0]?.personId, plain.id, bare.text);

    const again = await report(dsn(hard.email, '5.1.1', 'failed', headersOf(sent(hard.email))));
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.recorded, []);
    assert.match(again.body.ignored[0].reason, /already recorded/);
    const delivered = await report(
      dsn(fine.email, '2.0.0', 'delivered', headersOf(sent(fine.email))),
    );
    assert.deepEqual(delivered.body.recorded, []);
    const stranger = await report(dsn('nobody@example.org', '5.1.1', 'failed', null));
    assert.match(stranger.body.ignored[0].reason, /no campaign email/);

    const progress = (await server.get(owner.key, `/v1/emCampaigns/${id}`)).body.lastSend;
    assert.deepEqual([progress.sent, progress.hardBounced, progress.softBounced], [1, 2, 1]);
    const stats = (await server.get(owner.key, `/v1/emCampaigns/${id}/stats`)).body.stats;
    assert.equal(stats.hardBounces, 2);
    assert.equal(stats.softBounces, 1);
    const person = await server.get(owner.key, `/v1/people/${hard.id}`);
    assert.equal(person.body.emails[0].status, 'Bad');
    const events = await server.get(owner.key, `/v1/emEvents?campaignId=${id}&type=hard-bounce`);
    assert.ok(events.body.emEvents.some((e: { personId: number }) => e.personId === hard.id));
  });

  it('wants the secret, and answers garbage with a 4xx, never a 500', async () => {
    const valid = dsn('x@example.com', '5.1.1', 'failed', null);
    assert.equal((await report(valid, null)).status, 401);
    assert.equal((await report(valid, 'wrong')).status, 401);
    assert.equal((await report(valid, `${SECRET}x`)).status, 401);
    const garbage = [
      randomBytes(4096),
      'hello',
      '',
      'Content-Type: message/delivery-status\r\n',
      'Content-Type: message/delivery-status\n\nFinal-Recipient: ;\nStatus: x\n\n',
      `${'--x\r\n'.repeat(20000)}`,
    ];
    for (const body of garbage) {
      const res = await report(body);
      assert.ok(
        res.status >= 200 && res.status < 500,
        `${res.status} for ${String(body).slice(0, 40)}`,
      );
    }
    assert.equal((await report('hello')).status, 422);
    const json = await report('{"not":"a report"', SECRET, 'application/json');
    assert.ok(json.status >= 400 && json.status < 500, `${json.status}`);

    const off = await startServer();
    try {
      const res = await off.call('POST', '/e/bounces', {
        key: null,
        raw: valid,
        contentType: 'message/rfc822',
        headers: { authorization: `Bearer ${SECRET}` },
      });
      assert.equal(res.status, 409);
      assert.match(res.body.errorMessage, /HEARTH_BOUNCE_SECRET/);
    } finally {
      await off.close();
    }
  });
});
