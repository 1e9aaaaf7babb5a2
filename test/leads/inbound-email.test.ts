import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import {
  fixture,
  type Inbound,
  INBOUND_SECRET,
  leadAddresses,
  parsedInbound,
  sendSmtp,
  withMessageId,
} from './inbound-helpers.js';

/** Each fixture's lead as the parser must read it. */
const LEADS: Record<
  string,
  { parser: string; email: string; name: string; source: string; type: string; street?: string }
> = {
  'lead-metadata.eml': {
    parser: 'leadMetadata',
    email: 'anais.olsen@example.net',
    name: 'Anaís Olsen',
    source: 'Sunrise Realty IDX',
    type: 'Property Inquiry',
    street: '48 Orchard Lane',
  },
  'zillow.eml': {
    parser: 'zillow',
    email: 'jordan.smith@example.org',
    name: 'Jordan Smith',
    source: 'Zillow',
    type: 'Property Inquiry',
    street: '123 Main St',
  },
  'realtor-com.eml': {
    parser: 'realtor.com',
    email: 'renee.dubois@example.com',
    name: 'Renée Dubois',
    source: 'Realtor.com',
    type: 'Property Inquiry',
    street: '9 Birch Ct',
  },
  'homes-com.eml': {
    parser: 'homes.com',
    email: 'priya.raman@example.com',
    name: 'Priya Raman',
    source: 'Homes.com',
    type: 'Property Inquiry',
    street: '77 Lake Shore Dr',
  },
  'trulia.eml': {
    parser: 'trulia',
    email: 'marcus.lee@example.com',
    name: 'Marcus Lee',
    source: 'Trulia',
    type: 'Property Inquiry',
    street: '5 Pine Rd',
  },
  'redfin.eml': {
    parser: 'redfin',
    email: 'helen.park@example.com',
    name: 'Helen Park',
    source: 'Redfin',
    type: 'Property Inquiry',
    street: '210 Elm St',
  },
  'streeteasy.eml': {
    parser: 'streeteasy',
    email: 'sam.ortiz@example.com',
    name: 'Sam Ortiz',
    source: 'StreetEasy',
    type: 'Property Inquiry',
    street: '300 E 57th St #4B',
  },
  'apartments-com.eml': {
    parser: 'apartments.com',
    email: 'dana.whit@example.com',
    name: 'Dana Whit',
    source: 'Apartments.com',
    type: 'Property Inquiry',
  },
  'form-mail.eml': {
    parser: 'formMail',
    email: 'oliver.grant@example.com',
    name: 'Oliver Grant',
    source: 'lakeview-homes.example',
    type: 'Seller Inquiry',
  },
  'gmail-forward.eml': {
    parser: 'realtor.com',
    email: 'tomas.novak@example.com',
    name: 'Tomas Novak',
    source: 'Realtor.com',
    type: 'Property Inquiry',
    street: '4 Quarry Rd',
  },
  'outlook-forward.eml': {
    parser: 'formMail',
    email: 'carla.mendes@example.com',
    name: 'Carla Mendes',
    source: 'hillside-homes.example',
    type: 'General Inquiry',
  },
  'attached-forward.eml': {
    parser: 'zillow',
    email: 'lee.chen@example.org',
    name: 'Lee Chen',
    source: 'Zillow',
    type: 'Property Inquiry',
    street: '8 Willow Way',
  },
};

describe('leads by email over SMTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      worker: true,
      env: {
        HEARTH_INBOUND_SMTP_PORT: '0',
        HEARTH_INBOUND_DOMAIN: 'leads.hearth.test',
        HEARTH_INBOUND_MAX_BYTES: String(256 * 1024),
        HEARTH_INBOUND_SECRET: INBOUND_SECRET,
      },
    });
  });
  after(() => server.close());

  it('gives the account and each user a random lead address, rotatable', async () => {
    const { owner, addUser } = await server.newAccount();
    const agent = await addUser('Agent');
    const mine = await leadAddresses(server, owner.key);
    const theirs = await leadAddresses(server, agent.key);
    assert.match(mine.account, /^lead-[a-z2-7]{16}@leads\.hearth\.test$/);
    assert.equal(theirs.account, mine.account);
    assert.notEqual(theirs.user, mine.user);
    assert.equal((await leadAddresses(server, owner.key)).user, mine.user, 'stable');

    const refused = await server.post(agent.key, '/v1/leadEmailAddresses/rotate', {
      scope: 'account',
    });
    assert.equal(refused.status, 403);
    const rotated = await server.post(agent.key, '/v1/leadEmailAddresses/rotate', {
      scope: 'user',
    });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.leadEmailAddress, theirs.user);
    assert.equal((await leadAddresses(server, agent.key)).user, rotated.body.leadEmailAddress);
    await assert.rejects(sendSmtp(server, fixture('zillow.eml'), theirs.user), /550/);
  });

  it('reads each format into a lead the way of POST /v1/events, createdVia Email Parsing', async () => {
    const { owner } = await server.newAccount();
    const { account } = await leadAddresses(server, owner.key);
    for (const name of Object.keys(LEADS)) await sendSmtp(server, fixture(name), account);
    const rows = await parsedInbound(server, owner.key, Object.keys(LEADS).length);
    for (const [name, want] of Object.entries(LEADS)) {
      const person = (
        await server.get(owner.key, `/v1/people?email=${encodeURIComponent(want.email)}`)
      ).body.people[0];
      assert.ok(person, `${name}: a person for ${want.email}`);
      assert.equal(person.name, want.name, name);
      assert.equal(person.createdVia, 'Email Parsing', name);
      assert.equal(person.source, want.source, name);
      const row = rows.find((r: Inbound) => r.personId === person.id);
      assert.equal(row?.status, 'parsed', name);
      assert.equal(row?.parser, want.parser, name);
      assert.equal(row?.to, account);
      const events = (await server.get(owner.key, `/v1/events?personId=${person.id}`)).body.events;
      assert.equal(events.length, 1, name);
      assert.equal(events[0].id, row?.eventId);
      assert.equal(events[0].type, want.type, name);
      if (want.street) assert.equal(events[0].property?.street, want.street, name);
    }
  });

  it('keeps a message that is no lead as unparsed, and broken MIME never crashes', async () => {
    const { owner } = await server.newAccount();
    const { account } = await leadAddresses(server, owner.key);
    await sendSmtp(server, fixture('not-a-lead.eml'), account);
    await sendSmtp(server, fixture('broken.eml'), account);
    const rows = await parsedInbound(server, owner.key, 2);
    assert.deepEqual(
      rows.map((r: Inbound) => r.status),
      ['unparsed', 'unparsed'],
    );
    const people = await server.get(owner.key, '/v1/people');
    assert.equal(people.body._metadata.total, 0, 'nobody half-made');
    const detail = await server.get(owner.key, `/v1/inboundEmails/${rows[1].id}`);
    assert.equal(detail.status, 200);
    assert.match(detail.body.text, /lunch on Friday/);
  });

  it('stores a repeated Message-ID once', async () => {
    const { owner } = await server.newAccount();
    const { account } = await leadAddresses(server, owner.key);
    await sendSmtp(server, fixture('homes-com.eml'), account);
    await sendSmtp(server, fixture('homes-com.eml'), account);
    await parsedInbound(server, owner.key, 1);
    const list = await server.get(owner.key, '/v1/inboundEmails');
    assert.equal(list.body._metadata.total, 1);
    const events = await server.get(owner.key, '/v1/events');
    assert.equal(events.body._metadata.total, 1);
  });

  it("assigns a lead sent to a user's address to that user", async () => {
    const { owner, addUser } = await server.newAccount();
    const agent = await addUser('Agent');
    const { user } = await leadAddresses(server, agent.key);
    await sendSmtp(server, fixture('redfin.eml'), user);
    const [row] = await parsedInbound(server, owner.key, 1);
    assert.equal(row.userId, agent.id);
    const person = await server.get(owner.key, `/v1/people/${row.personId}`);
    assert.equal(person.body.assignedUserId, agent.id);
    const seen = await server.get(agent.key, `/v1/people/${row.personId}`);
    assert.equal(seen.status, 200, 'the agent sees their lead');
  });

  it('relays nothing (550), refuses a message over the size limit (552)', async () => {
    const { owner } = await server.newAccount();
    const { account } = await leadAddresses(server, owner.key);
    await assert.rejects(
      sendSmtp(server, fixture('zillow.eml'), 'someone@elsewhere.example'),
      /550/,
    );
    await assert.rejects(
      sendSmtp(server, fixture('zillow.eml'), 'lead-aaaaaaaaaaaaaaaa@leads.hearth.test'),
      /550/,
    );
    const big = Buffer.concat([fixture('form-mail.eml'), Buffer.alloc(300 * 1024, 'x')]);
    await assert.rejects(sendSmtp(server, big, account), /552/);
    const list = await server.get(owner.key, '/v1/inboundEmails');
    assert.equal(list.body._metadata.total, 0);
  });

  it('lists inbound emails for Owner and Admin only', async () => {
    const { owner, addUser } = await server.newAccount();
    const agent = await addUser('Agent');
    const admin = await addUser('Admin');
    assert.equal((await server.get(agent.key, '/v1/inboundEmails')).status, 403);
    assert.equal((await server.get(admin.key, '/v1/inboundEmails')).status, 200);
    const other = await server.newAccount();
    const { account } = await leadAddresses(server, other.owner.key);
    await sendSmtp(server, fixture('trulia.eml'), account);
    const [row] = await parsedInbound(server, other.owner.key, 1);
    assert.equal(
      (await server.get(owner.key, `/v1/inboundEmails/${row.id}`)).status,
      404,
      'another account',
    );
  });

  it('takes a raw message at POST /e/inbound with the bearer secret', async () => {
    const { owner } = await server.newAccount();
    const { account } = await leadAddresses(server, owner.key);
    const raw = withMessageId(fixture('zillow.eml'), 'hosted-1@convoy.zillow.com');
    const post = (headers: Record<string, string>, body: Buffer, query = `?to=${account}`) =>
      server.call('POST', `/e/inbound${query}`, {
        raw: body,
        contentType: 'message/rfc822',
        headers,
      });
    assert.equal((await post({ authorization: 'Bearer wrong-secret' }, raw)).status, 401);
    assert.equal((await post({}, raw)).status, 401);
    const auth = { authorization: `Bearer ${INBOUND_SECRET}` };
    const nobody = await post(auth, raw, '?to=nobody@leads.hearth.test');
    assert.equal(nobody.status, 422);
    assert.match(nobody.body.errorMessage, /lead address/);
    assert.equal((await post(auth, Buffer.alloc(300 * 1024, 'x'))).status, 413);
    const taken = await post(auth, raw);
    assert.equal(taken.status, 202, taken.text);
    // Without ?to= the recipients are read from the message's headers.
    const byHeader = Buffer.from(
      `Delivered-To: ${account}\r\n${withMessageId(raw, 'hosted-2@x').toString('latin1')}`,
      'latin1',
    );
    assert.equal((await post(auth, byHeader, '')).status, 202);
    const rows = await parsedInbound(server, owner.key, 2);
    assert.deepEqual(
      rows.map((r: Inbound) => r.status),
      ['parsed', 'parsed'],
    );
    assert.equal(rows[0].personId, rows[1].personId, 'the same lead twice is one person');
  });
});
