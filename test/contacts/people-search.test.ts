import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';

describe('GET /v1/people?q=: names, emails and phones', () => {
  let server: TestServer;
  let account: TestAccount;
  let agent: TestUser;
  const id: Record<string, number> = {};

  const search = async (q: string, key = account.owner.key, extra = '') => {
    const res = await server.get(key, `/v1/people?limit=100&q=${encodeURIComponent(q)}${extra}`);
    assert.equal(res.status, 200, `${q}: ${res.text}`);
    assert.equal(res.body._metadata.total, res.body.people.length, `${q}: total`);
    return (res.body.people as { name: string }[]).map((p) => p.name).sort();
  };

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    agent = await account.addUser('Agent', 'Agnes Agent');
    const other = await server.newAccount();
    const people: [string, Record<string, unknown>][] = [
      ['Alice Archer', { emails: ['alice.archer@example.com'], phones: ['(555) 010-1000'] }],
      ['Bob Baker', { emails: ['BOB@Bakery.io'], phones: ['+1 555 010 2000'] }],
      ['Carol Carlson', { emails: ['carol@example.com'], assignedUserId: agent.id }],
      ['Dan 100% Real_Name', {}],
      ['Élodie Ångström', { emails: ['elodie@example.fr'] }],
    ];
    for (const [name, body] of people) {
      const res = await server.post(account.owner.key, '/v1/people', { name, ...body });
      assert.equal(res.status, 201, res.text);
      id[name] = res.body.id;
    }
    // Another account's Alice never shows up.
    const res = await server.post(other.owner.key, '/v1/people', {
      name: 'Alice Other',
      emails: ['alice@other.example'],
    });
    assert.equal(res.status, 201, res.text);
  });
  after(async () => server.close());

  it('matches names by prefix and substring, case-insensitively', async () => {
    assert.deepEqual(await search('ali'), ['Alice Archer']);
    assert.deepEqual(await search('ARCH'), ['Alice Archer']);
    assert.deepEqual(await search('carl'), ['Carol Carlson']);
    assert.deepEqual(await search('  baker '), ['Bob Baker']);
    assert.deepEqual(await search('ngstr'), ['Élodie Ångström']);
  });

  it('matches emails by any part, case-insensitively', async () => {
    assert.deepEqual(await search('bakery'), ['Bob Baker']);
    assert.deepEqual(await search('bob@BAK'), ['Bob Baker']);
    assert.deepEqual(await search('example.com'), ['Alice Archer', 'Carol Carlson']);
  });

  it('matches phones by digits, however the number is written', async () => {
    assert.deepEqual(await search('555 010 1'), ['Alice Archer']);
    assert.deepEqual(await search('(555) 010-2000'), ['Bob Baker']);
    assert.deepEqual(await search('0102000'), ['Bob Baker']);
    assert.deepEqual(await search('+1 555-010-2000'), ['Bob Baker']);
    assert.deepEqual(await search('5550'), ['Alice Archer', 'Bob Baker']);
    // Text that is not written like a phone number does not match phones through its digits.
    assert.deepEqual(await search('x5550'), []);
  });

  it('takes LIKE wildcards literally', async () => {
    assert.deepEqual(await search('100%'), ['Dan 100% Real_Name']);
    assert.deepEqual(await search('a_e'), []);
    assert.deepEqual(await search('l_n'), ['Dan 100% Real_Name']);
    assert.deepEqual(await search('%'), ['Dan 100% Real_Name']);
  });

  it('combines with the other filters and with what the caller may see', async () => {
    assert.deepEqual(await search('example.com', agent.key), ['Carol Carlson']);
    assert.deepEqual(await search('a', account.owner.key, `&id=${id['Bob Baker']}`), ['Bob Baker']);
    assert.deepEqual(await search('alice', account.owner.key, '&email=nobody@example.com'), []);
  });

  it('pages through matches with next, and an empty q lists everyone', async () => {
    const first = await server.get(account.owner.key, '/v1/people?q=e&limit=2&sort=name');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body._metadata.total, 5);
    assert.ok(first.body._metadata.nextLink.includes('q=e'));
    const second = await server.get(
      account.owner.key,
      `/v1/people?q=e&limit=10&sort=name&next=${first.body._metadata.next}`,
    );
    const names = [...first.body.people, ...second.body.people].map(
      (p: { name: string }) => p.name,
    );
    assert.deepEqual(names, [
      'Alice Archer',
      'Bob Baker',
      'Carol Carlson',
      'Dan 100% Real_Name',
      'Élodie Ångström',
    ]);
    assert.equal((await search('')).length, 5);
  });

  it('with a tag: the same people whichever of the two is read first', async () => {
    // Eight "Pairing" people, three of them tagged rare-pair and all of them tagged wide-pair,
    // with six more people tagged wide-pair (one also rare-pair): on SQLite the rarer of the text's
    // matches and the tag's people is read and the other tested (people.list.ts), both ways here.
    const make = async (name: string, tags: string[]) => {
      const res = await server.post(account.owner.key, '/v1/people', { name, tags });
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    const paired: number[] = [];
    for (let i = 0; i < 8; i++)
      paired.push(await make(`Pairing ${i}`, i < 3 ? ['rare-pair', 'wide-pair'] : ['wide-pair']));
    const others: number[] = [];
    // One of them holds the rare tag without matching the text.
    for (let i = 0; i < 6; i++)
      others.push(await make(`Other ${i}`, i === 0 ? ['rare-pair', 'wide-pair'] : ['wide-pair']));
    const ids = async (query: string) => {
      const res = await server.get(account.owner.key, `/v1/people?limit=100&${query}`);
      assert.equal(res.status, 200, res.text);
      return {
        total: res.body._metadata.total,
        ids: res.body.people.map((p: { id: number }) => p.id),
      };
    };
    const newestFirst = (list: number[]) => [...list].sort((a, b) => b - a);
    const rare = newestFirst(paired.slice(0, 3));
    for (const query of ['q=pairing&tags=rare-pair', 'name=pairing&tags=rare-pair'])
      assert.deepEqual(await ids(query), { total: 3, ids: rare }, query);
    assert.deepEqual(await ids('q=pairing&tags=wide-pair'), {
      total: 8,
      ids: newestFirst(paired),
    });
    const byName = await ids('q=pairing&tags=rare-pair&sort=name');
    assert.deepEqual(byName, { total: 3, ids: paired.slice(0, 3) });
    // Paging with next, two at a time.
    const first = await server.get(
      account.owner.key,
      '/v1/people?q=pairing&tags=rare-pair&limit=2',
    );
    const second = await server.get(
      account.owner.key,
      `/v1/people?q=pairing&tags=rare-pair&limit=2&next=${first.body._metadata.next}`,
    );
    assert.deepEqual(
      [...first.body.people, ...second.body.people].map((p: { id: number }) => p.id),
      rare,
    );
    for (const id of [...paired, ...others])
      await server.del(account.owner.key, `/v1/people/${id}`);
  });

  it('refuses search text over 200 characters with a message', async () => {
    const res = await server.get(account.owner.key, `/v1/people?q=${'a'.repeat(201)}`);
    assert.equal(res.status, 400);
    assert.match(res.body.errorMessage, /q/);
  });
});
