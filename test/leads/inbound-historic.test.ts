import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { eventually } from '../support/eventually.js';
import { fixture } from './inbound-helpers.js';

const OLD_LEAD = [
  'From: Website Contact Form <forms@old-site.example>',
  'To: agent@agent.example',
  'Subject: Contact form submission',
  'Date: Mon, 04 Mar 2019 10:30:00 +0000',
  'Message-ID: <old-form-1@old-site.example>',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Name: Wendy Archer',
  'Email: wendy.archer@example.com',
  'Phone: 555-0177-100',
  'Message: Looking to buy in the spring.',
  '>From the bottom of my heart, thanks.',
  '',
].join('\r\n');

/** An mbox file (mboxrd: a body line starting "From " is written ">From "). */
function mbox(messages: string[]): string {
  return messages
    .map(
      (m) => `From MAILER-DAEMON Thu Jan  1 00:00:00 2025\n${m.replace(/^(>*From )/gm, '>$1')}\n`,
    )
    .join('');
}

describe('historic email parsing (mbox)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ worker: true });
  });
  after(() => server.close());

  const upload = (key: string, body: string) =>
    server.call('POST', '/v1/inboundEmails/historic', {
      key,
      raw: body,
      contentType: 'application/mbox',
    });

  it('makes people as they were then, with no notification, and reports like an import', async () => {
    const { owner, addUser } = await server.newAccount();
    const file = mbox([
      OLD_LEAD,
      fixture('zillow.eml').toString('utf8'),
      fixture('not-a-lead.eml').toString('utf8'),
      OLD_LEAD, // the same Message-ID again
    ]);
    const agent = await addUser('Agent');
    assert.equal((await upload(agent.key, file)).status, 403);
    const res = await upload(owner.key, file);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, 'queued');
    const report = await eventually('historic parsing done', async () => {
      const now = await server.get(owner.key, `/v1/inboundEmails/historic/${res.body.id}`);
      return now.body.status === 'done' && now.body;
    });
    assert.deepEqual(
      [
        report.total,
        report.processed,
        report.created,
        report.updated,
        report.skipped,
        report.errors,
      ],
      [4, 4, 2, 0, 2, []],
    );
    const people = (await server.get(owner.key, '/v1/people?sort=created')).body.people;
    assert.equal(people.length, 2);
    const wendy = people.find((p: { name: string }) => p.name === 'Wendy Archer');
    assert.equal(wendy.createdVia, 'Historic Email Parsing');
    assert.equal(wendy.created, '2019-03-04T10:30:00Z');
    const events = (await server.get(owner.key, `/v1/events?personId=${wendy.id}`)).body.events;
    assert.equal(events[0].occurred, '2019-03-04T10:30:00Z');
    // mboxrd: the body's own ">From" line comes back with its one ">" (the file had two).
    assert.equal(
      events[0].message,
      'Looking to buy in the spring.\n>From the bottom of my heart, thanks.',
    );
    const notifications = await server.get(owner.key, '/v1/notifications');
    assert.equal(notifications.body._metadata.total, 0, 'no new-lead notification for history');
    const listed = await server.get(owner.key, '/v1/inboundEmails?status=unparsed');
    assert.equal(listed.body._metadata.total, 1);
  });

  it('refuses a file with no message in it', async () => {
    const { owner } = await server.newAccount();
    const res = await upload(owner.key, 'just some text\nwith no From line\n');
    assert.equal(res.status, 400);
    assert.match(res.body.errorMessage, /From /);
  });
});
