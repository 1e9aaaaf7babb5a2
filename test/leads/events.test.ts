import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';
import { outboxEventsNamed } from '../support/outbox.js';

const email = () => `${unique('lead')}@example.com`;

describe('lead events: POST /v1/events', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  const outbox = (accountId: number, event: string) => outboxEventsNamed(server, accountId, event);

  it('creates a new lead (201), strips www. from the source, assigns the owner, records the event', async () => {
    const { accountId, owner } = await server.newAccount();
    const address = email();
    const res = await server.post(owner.key, '/v1/events', {
      source: 'www.MyHomes.com',
      system: 'SiteBuilder',
      type: 'Registration',
      message: 'Hi there',
      sourceUrl: 'https://myhomes.com/lead/1',
      person: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        emails: [{ value: address }],
        phones: [{ value: '(555) 010-2030' }],
        tags: ['buyer'],
      },
      campaign: { source: 'google', medium: 'cpc', name: 'spring' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, 'Ada Lovelace');
    assert.equal(res.body.source, 'MyHomes.com');
    assert.equal(res.body.sourceUrl, 'https://myhomes.com/lead/1');
    assert.equal(res.body.createdVia, 'API');
    assert.equal(res.body.assignedUserId, owner.id);
    assert.deepEqual(res.body.tags, ['buyer']);
    assert.ok(res.body.lastActivity);

    const events = await server.get(owner.key, `/v1/events?personId=${res.body.id}`);
    assert.equal(events.status, 200);
    assert.equal(events.body._metadata.collection, 'events');
    assert.equal(events.body.events.length, 1);
    const event = events.body.events[0];
    assert.equal(event.type, 'Registration');
    assert.equal(event.source, 'MyHomes.com');
    assert.equal(event.system, 'SiteBuilder');
    assert.equal(event.message, 'Hi there');
    assert.deepEqual(event.campaign, { source: 'google', medium: 'cpc', campaign: 'spring' });
    const created = await outbox(accountId, 'eventsCreated');
    assert.deepEqual(
      created.map((r) => r.resourceIds),
      [[event.id]],
    );
    assert.equal((await outbox(accountId, 'peopleCreated')).length, 1);
  });

  it('matches a returning lead by email (any case), merges without wiping, answers 200', async () => {
    const { accountId, owner } = await server.newAccount();
    const address = email();
    const first = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'a.com',
      person: { firstName: 'Ada', lastName: 'L', emails: [address], tags: ['one'] },
    });
    assert.equal(first.status, 201);
    const again = await server.post(owner.key, '/v1/events', {
      type: 'Viewed Property',
      source: 'b.com',
      property: { street: '1 Main St', zip: '90210', price: 500000 },
      person: {
        firstName: '',
        lastName: 'Other',
        emails: [address.toUpperCase()],
        phones: ['+1 555 010 9999'],
        tags: ['two'],
      },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.body.firstName, 'Ada');
    assert.equal(again.body.lastName, 'L');
    assert.equal(again.body.source, 'a.com');
    assert.deepEqual(again.body.tags, ['one', 'two']);
    assert.equal(again.body.emails.length, 1);
    assert.equal(again.body.phones[0].normalized, '5550109999');

    const byPhone = await server.post(owner.key, '/v1/events', {
      type: 'Incoming Call',
      person: { phones: ['555.010.9999'] },
    });
    assert.equal(byPhone.status, 200);
    assert.equal(byPhone.body.id, first.body.id);

    const count = await server.ctx.db
      .selectFrom('people')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
    const events = await server.get(owner.key, `/v1/events/${first.body.id}`);
    assert.deepEqual(
      events.body.events.map((e: { type: string }) => e.type),
      ['Incoming Call', 'Viewed Property', 'Registration'],
    );
    assert.deepEqual(events.body.events[1].property, {
      street: '1 Main St',
      code: '90210',
      price: 500000,
    });
    // the tag added by the returning lead fires peopleTagsCreated with just that tag
    const tagEvents = (await outbox(accountId, 'peopleTagsCreated')).map((r) => r.data?.tags);
    assert.deepEqual(tagEvents, [['one'], ['two']]);
  });

  it('matches by person.id; 404 for an unknown id or one of another account', async () => {
    const { owner } = await server.newAccount();
    const other = await server.newAccount();
    const person = await server.post(owner.key, '/v1/people', { firstName: 'Known' });
    const res = await server.post(owner.key, '/v1/events', {
      type: 'General Inquiry',
      person: { id: person.body.id, emails: [email()] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.emails.length, 1);
    assert.equal(
      (
        await server.post(owner.key, '/v1/events', {
          type: 'General Inquiry',
          person: { id: 99999999 },
        })
      ).status,
      404,
    );
    const foreign = await server.post(other.owner.key, '/v1/events', {
      type: 'General Inquiry',
      person: { id: person.body.id },
    });
    assert.equal(foreign.status, 404);
  });

  it('refuses unknown or missing types, unidentifiable people and malformed sections with 400', async () => {
    const { accountId, owner } = await server.newAccount();
    const cases: [unknown, RegExp][] = [
      [
        { type: 'Bought A Boat', person: { emails: [email()] } },
        /Unknown event type 'Bought A Boat'/,
      ],
      [{ person: { emails: [email()] } }, /'type' is required/],
      [{ type: 'Registration', person: {} }, /cannot be identified/],
      [{ type: 'Registration' }, /cannot be identified/],
      [
        { type: 'Registration', person: { emails: [email()] }, campaign: { medium: 'cpc' } },
        /campaign\.source/,
      ],
      [
        { type: 'Registration', person: { emails: [email()] }, color: 'red' },
        /Invalid fields in the request body: color\./,
      ],
      [
        { type: 'Registration', person: { emails: [email()] }, occurredAt: 'yesterday' },
        /occurredAt/,
      ],
      [{ type: 'Registration', person: { emails: ['not-an-email'] } }, /not a valid email/],
    ];
    for (const [body, message] of cases) {
      const res = await server.post(owner.key, '/v1/events', body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
      assert.match(res.body.errorMessage, message);
    }
    const people = await server.ctx.db
      .selectFrom('people')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    assert.equal(people.length, 0);
  });

  it('accepts the camelCase aliases and resolves Inquiry by the property section', async () => {
    const { owner } = await server.newAccount();
    const address = email();
    const expected: [string, unknown, string][] = [
      ['registration', undefined, 'Registration'],
      ['viewedProperty', { street: '2 Elm' }, 'Viewed Property'],
      ['savedProperty', { street: '2 Elm' }, 'Saved Property'],
      ['pageView', undefined, 'Viewed Page'],
      ['general', undefined, 'General Inquiry'],
      ['inquiry', { street: '3 Oak' }, 'Property Inquiry'],
      ['Inquiry', undefined, 'General Inquiry'],
      ['Saved Property Search', undefined, 'Saved Property Search'],
      ['Visited Website', undefined, 'Visited Website'],
      ['Unsubscribed', undefined, 'Unsubscribed'],
      ['Seller Inquiry', undefined, 'Seller Inquiry'],
      ['Visited Open House', undefined, 'Visited Open House'],
      ['Property Search', undefined, 'Property Search'],
    ];
    let personId = 0;
    for (const [type, property] of expected) {
      const res = await server.post(owner.key, '/v1/events', {
        type,
        property,
        person: { emails: [address] },
        propertySearch: type === 'Property Search' ? { city: 'Austin', minPrice: 100 } : undefined,
      });
      assert.ok(res.status === 200 || res.status === 201, res.text);
      personId = res.body.id;
    }
    const list = await server.get(owner.key, `/v1/events/${personId}?limit=100`);
    assert.deepEqual(
      list.body.events.map((e: { type: string }) => e.type).reverse(),
      expected.map(([, , t]) => t),
    );
    assert.deepEqual(list.body.events[0].propertySearch, { city: 'Austin', minPrice: 100 });
    const inquiries = await server.get(owner.key, `/v1/events?personId=${personId}&type=inquiry`);
    assert.equal(inquiries.body._metadata.total, 3); // general, inquiry+property, Inquiry
    const viewed = await server.get(
      owner.key,
      `/v1/events?personId=${personId}&type=viewedProperty`,
    );
    assert.equal(viewed.body._metadata.total, 1);
    assert.equal((await server.get(owner.key, '/v1/events?type=nonsense')).status, 400);
  });

  it('collapses 20 concurrent posts of the same new lead into exactly one person', async () => {
    const { accountId, owner } = await server.newAccount();
    const address = email();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.post(owner.key, '/v1/events', {
          type: 'Registration',
          source: 'race.com',
          person: {
            firstName: 'Race',
            lastName: `Try${i}`,
            emails: [i % 2 ? address.toUpperCase() : address],
            phones: ['555 777 1234'],
          },
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status).filter((s) => s !== 200 && s !== 201),
      [],
      results.map((r) => r.text).join('\n'),
    );
    assert.equal(results.filter((r) => r.status === 201).length, 1);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
    const people = await server.ctx.db
      .selectFrom('people')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    assert.equal(people.length, 1);
    const events = await server.get(owner.key, `/v1/events?personId=${people[0].id}`);
    assert.equal(events.body._metadata.total, 20);
    assert.equal((await outbox(accountId, 'peopleCreated')).length, 1);
  });

  it('creates a new person for an email its first owner no longer carries', async () => {
    const { owner } = await server.newAccount();
    const address = email();
    const first = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [address] },
    });
    const moved = await server.put(owner.key, `/v1/people/${first.body.id}`, { emails: [email()] });
    assert.equal(moved.status, 200);
    const again = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [address] },
    });
    assert.equal(again.status, 201, again.text);
    assert.notEqual(again.body.id, first.body.id);
    const third = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [address] },
    });
    assert.equal(third.status, 200);
    assert.equal(third.body.id, again.body.id);
  });

  it('concurrent events for one returning lead lose none of their tags or phones', async () => {
    const { owner } = await server.newAccount();
    const address = email();
    const first = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [address] },
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.post(owner.key, '/v1/events', {
          type: 'Viewed Property',
          person: {
            emails: [address],
            tags: [`tag${i}`],
            phones: [`555 300 00${String(i).padStart(2, '0')}`],
          },
        }),
      ),
    );
    assert.ok(
      results.every((r) => r.status === 200),
      results.map((r) => r.text).join('\n'),
    );
    const person = await server.get(owner.key, `/v1/people/${first.body.id}`);
    assert.equal(person.body.tags.length, 10);
    assert.equal(person.body.phones.length, 10);
  });

  it('stores historical events (occurredAt older than a day) without automation', async () => {
    const { accountId, owner } = await server.newAccount();
    const occurredAt = new Date(Date.now() - 3 * 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const res = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'old.com',
      occurredAt,
      person: { emails: [email()], firstName: 'Old' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.assignedUserId, null);
    assert.equal(res.body.lastActivity, occurredAt);
    const events = await server.get(owner.key, `/v1/events/${res.body.id}`);
    assert.equal(events.body.events[0].occurred, occurredAt);
    const notes = await server.ctx.db
      .selectFrom('notifications')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    assert.equal(notes.length, 0);
  });

  it('POST /v1/people runs none of the lead automation', async () => {
    const { accountId, owner } = await server.newAccount();
    const res = await server.post(owner.key, '/v1/people', {
      firstName: 'Direct',
      emails: [email()],
      source: 'www.direct.com',
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.assignedUserId, null);
    const count = async (table: 'lead_events' | 'notifications' | 'lead_jobs') =>
      (
        await server.ctx.db
          .selectFrom(table)
          .select('id')
          .where('account_id', '=', accountId)
          .execute()
      ).length;
    assert.equal(await count('lead_events'), 0);
    assert.equal(await count('notifications'), 0);
    assert.equal(await count('lead_jobs'), 0);
    assert.equal((await outbox(accountId, 'eventsCreated')).length, 0);
  });
});

describe('lead events: reading and visibility', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it("paginates GET /v1/events and hides other agents' and accounts' events", async () => {
    const { owner, addUser } = await server.newAccount();
    const other = await server.newAccount();
    const agent = await addUser('Agent');
    const mine = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [email()], assignedUserId: agent.id },
    });
    const theirs = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [email()] },
    });
    for (let i = 0; i < 4; i++)
      await server.post(owner.key, '/v1/events', {
        type: 'Viewed Page',
        pageUrl: `https://x.com/${i}`,
        pageDuration: 30,
        person: { id: mine.body.id },
      });
    await server.post(other.owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [email()] },
    });

    const page1 = await server.get(owner.key, '/v1/events?limit=3');
    assert.equal(page1.body._metadata.total, 6);
    assert.equal(page1.body.events.length, 3);
    assert.ok(page1.body._metadata.next);
    assert.match(
      page1.body._metadata.nextLink,
      /^https:\/\/hearth\.test\/v1\/events\?limit=3&next=/,
    );
    const page2 = await server.get(
      owner.key,
      `/v1/events?limit=3&next=${page1.body._metadata.next}`,
    );
    assert.equal(page2.body.events.length, 3);
    assert.equal(page2.body._metadata.next, undefined);
    const ids = [...page1.body.events, ...page2.body.events].map((e: { id: number }) => e.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );

    const agentList = await server.get(agent.key, '/v1/events?limit=100');
    assert.equal(agentList.body._metadata.total, 5);
    assert.ok(
      agentList.body.events.every((e: { personId: number }) => e.personId === mine.body.id),
    );
    assert.equal((await server.get(agent.key, `/v1/events/${theirs.body.id}`)).status, 404);
    assert.equal(
      (await server.get(agent.key, `/v1/events/${mine.body.id}`)).body._metadata.total,
      5,
    );
    assert.equal((await server.get(other.owner.key, `/v1/events/${mine.body.id}`)).status, 404);
    assert.equal(
      (await server.get(other.owner.key, `/v1/events?personId=${mine.body.id}`)).body._metadata
        .total,
      0,
    );
    const byId = await server.get(owner.key, `/v1/events?id=${ids[0]},${ids[1]}`);
    assert.equal(byId.body._metadata.total, 2);
  });

  it("returns only the id when an Agent's lead matches a person they may not see", async () => {
    const { owner, addUser } = await server.newAccount();
    const agent = await addUser('Agent');
    const address = email();
    const first = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [address], firstName: 'Secret' },
    });
    const res = await server.post(agent.key, '/v1/events', {
      type: 'Viewed Property',
      person: { emails: [address] },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { id: first.body.id });
  });

  it('deleting the person removes their events', async () => {
    const { owner } = await server.newAccount();
    const res = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [email()] },
    });
    assert.equal((await server.del(owner.key, `/v1/people/${res.body.id}`)).status, 204);
    const rows = await server.ctx.db
      .selectFrom('lead_events')
      .select('id')
      .where('person_id', '=', res.body.id)
      .execute();
    assert.equal(rows.length, 0);
  });
});
