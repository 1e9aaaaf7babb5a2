import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import { importCsv } from './imports-helpers.js';

// The text index of GET /v1/people (migration 0140_b) is written in the same transaction as
// every kind of write of a person. On SQLite it is a table of its own (people_search), compared
// here row by row with what the people table says after each write; on both databases every
// person is then found by `q` through the index exactly as the people table says.
describe('people text index: in step with the people table after every kind of write', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  const system = { 'x-system': 'IndexTest' };

  before(async () => {
    server = await startServer({ worker: true });
    account = await server.newAccount();
    key = account.owner.key;
  });
  after(async () => server.close());

  /** What the index should hold for each person of the account, from the people table. */
  async function expected() {
    const rows = await server.ctx.db
      .selectFrom('people')
      .select(['id', 'name', 'first_name', 'last_name', 'emails', 'phones'])
      .where('account_id', '=', account.accountId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      names: `${r.name} ${r.first_name} ${r.last_name}`,
      emails: (JSON.parse(r.emails) as { value: string }[]).map((e) => e.value).join(' '),
      phones: (JSON.parse(r.phones) as { normalized: string }[]).map((p) => p.normalized).join(' '),
    }));
  }

  async function indexed() {
    const { rows } = await sql<{ id: number; names: string; emails: string; phones: string }>`
      select s.rowid as id, s.names, s.emails, s.phones from people_search s
      where s.rowid in (select id from people where account_id = ${account.accountId})
         or s.rowid not in (select id from people)
      order by s.rowid`.execute(server.ctx.db);
    return rows;
  }

  /** Every person is found by a distinctive part of each of their names, emails and phones. */
  async function assertInStep(step: string) {
    const people = await expected();
    if (server.ctx.dialect === 'sqlite') assert.deepEqual(await indexed(), people, step);
    for (const person of people) {
      const probes = [
        person.names.split(' ')[1],
        ...person.emails.split(' ').filter(Boolean),
        ...person.phones
          .split(' ')
          .filter(Boolean)
          .map((p) => `(${p.slice(0, 3)}) ${p.slice(3)}`),
      ].filter((p) => p && [...p].length >= 3);
      for (const probe of probes) {
        const res = await server.get(key, `/v1/people?limit=100&q=${encodeURIComponent(probe)}`);
        assert.equal(res.status, 200, res.text);
        const ids = res.body.people.map((p: { id: number }) => p.id);
        assert.ok(ids.includes(person.id), `${step}: q=${probe} misses person ${person.id}`);
      }
    }
  }
  const search = async (q: string) => {
    const res = await server.get(key, `/v1/people?limit=100&q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200, res.text);
    return res.body.people.map((p: { id: number }) => p.id) as number[];
  };

  it('create, update, deduplicating create, lead events, import, delete', async () => {
    const created = await server.post(key, '/v1/people', {
      name: 'Zanzibar Quokka',
      emails: ['zq@first.example'],
      phones: ['(415) 555-0101'],
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id;
    await assertInStep('create');

    const updated = await server.put(key, `/v1/people/${id}`, {
      firstName: 'Xerxes',
      lastName: 'Wombat',
      emails: ['xw@second.example'],
      phones: ['212 555 0199'],
    });
    assert.equal(updated.status, 200, updated.text);
    await assertInStep('update');
    assert.deepEqual(await search('quokka'), [], 'the old name is gone from the index');
    assert.deepEqual(await search('first.example'), [], 'the old email is gone');
    assert.deepEqual(await search('415 555'), [], 'the old phone is gone');

    const merged = await server.post(key, '/v1/people?deduplicate=true', {
      name: 'Xerxes Wombat',
      emails: ['xw@second.example', 'merged@third.example'],
    });
    assert.equal(merged.status, 200, merged.text);
    await assertInStep('deduplicating create (merge)');
    assert.deepEqual(await search('third.example'), [id]);

    const lead = await server.post(
      key,
      '/v1/events',
      {
        type: 'Registration',
        source: 'index.example',
        person: { firstName: 'Yolanda', lastName: 'Yak', emails: [{ value: 'yy@lead.example' }] },
      },
      system,
    );
    assert.equal(lead.status, 201, lead.text);
    const returning = await server.post(
      key,
      '/v1/events',
      {
        type: 'Property Inquiry',
        source: 'index.example',
        person: {
          emails: [{ value: 'yy@lead.example' }],
          phones: [{ value: '(646) 555-0142' }],
        },
      },
      system,
    );
    assert.equal(returning.status, 200, returning.text);
    await assertInStep('lead events (new, then returning with a phone)');
    assert.deepEqual(await search('646 555 01'), [lead.body.id]);

    const done = await importCsv(
      server,
      key,
      'First Name,Last Name,Email,Phone\nVladimir,Vole,vv@import.example,(303) 555-0177\n',
    );
    assert.equal(done.status, 'done', JSON.stringify(done));
    await assertInStep('import');
    assert.equal((await search('vole')).length, 1);

    assert.equal((await server.del(key, `/v1/people/${id}`)).status, 204);
    await assertInStep('delete');
    assert.deepEqual(await search('wombat'), []);
  });
});
