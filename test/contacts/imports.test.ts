import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { allPeople, importCsv, upload } from './imports-helpers.js';

describe('POST /v1/imports: columns, encodings, separators', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ worker: true });
  });
  after(async () => server.close());

  it('recognises the usual CRM headers and custom fields by label; people come in as Import', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const agent = await account.addUser('Agent', 'Alex Agent');
    const field = await server.post(key, '/v1/customFields', {
      label: 'Favourite colour',
      type: 'text',
    });
    assert.equal(field.status, 201, field.text);
    const csv = [
      'First Name,Last Name,E-mail Address,Email 2,Mobile,Work Phone,Address,City,State,Zip/Postal Code,Country,Tags,Stage,Lead Source,Assigned To,Price,Notes,Favourite colour,Unknown thing',
      `Jane,Doe,jane@example.com,jd@work.example,555-010-2030,(555) 010-9999,12 Elm St,Springfield,IL,62701,US,"buyer, vip",Prospect,www.zillow.com,${agent.name},"$325,000","Likes ""big"" gardens`,
      'second line",blue,whatever',
    ].join('\n');
    const done = await importCsv(server, key, csv);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.deepEqual(
      [done.total, done.processed, done.created, done.updated, done.skipped, done.errors],
      [1, 1, 1, 0, 0, []],
    );
    const [jane] = await allPeople(server, key);
    assert.equal(jane.name, 'Jane Doe');
    assert.equal(jane.createdVia, 'Import');
    assert.deepEqual(
      jane.emails.map((e: { value: string }) => e.value),
      ['jane@example.com', 'jd@work.example'],
    );
    assert.deepEqual(
      jane.phones.map((p: { value: string; type: string }) => [p.value, p.type]),
      [
        ['555-010-2030', 'mobile'],
        ['(555) 010-9999', 'work'],
      ],
    );
    assert.deepEqual(jane.addresses[0], {
      street: '12 Elm St',
      city: 'Springfield',
      state: 'IL',
      code: '62701',
      country: 'US',
      type: 'home',
    });
    assert.deepEqual(jane.tags, ['buyer', 'vip']);
    assert.equal(jane.stage, 'Prospect');
    assert.equal(jane.source, 'zillow.com');
    assert.equal(jane.assignedUserId, agent.id);
    assert.equal(jane.price, 325000);
    assert.equal(jane.background, 'Likes "big" gardens\nsecond line');
    assert.equal(jane[field.body.name], 'blue');
  });

  it('takes an explicit mapping, and refuses one naming a missing column or field', async () => {
    const { owner } = await server.newAccount();
    const csv = 'Who,Contact,Ignore me\nRita Moreno,rita@example.com,x\n';
    const bad = await upload(
      server,
      owner.key,
      csv,
      `?mapping=${encodeURIComponent('{"Nope":"email"}')}`,
    );
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /Nope/);
    const badField = await upload(
      server,
      owner.key,
      csv,
      `?mapping=${encodeURIComponent('{"Who":"nickname"}')}`,
    );
    assert.equal(badField.status, 400);
    assert.match(badField.body.errorMessage, /nickname/);
    const mapping = encodeURIComponent(
      JSON.stringify({ Who: 'name', Contact: 'email', 'Ignore me': 'ignore' }),
    );
    const done = await importCsv(server, owner.key, csv, `?mapping=${mapping}`);
    assert.equal(done.created, 1, JSON.stringify(done));
    const [rita] = await allPeople(server, owner.key);
    assert.equal(rita.firstName, 'Rita');
    assert.equal(rita.lastName, 'Moreno');
    assert.equal(rita.emails[0].value, 'rita@example.com');
  });

  it('reads UTF-8 with and without BOM, UTF-16 LE and BE, and Windows-1252', async () => {
    const text = 'First Name;Last Name;Email\r\nJosé;Müller-Øst;jose@example.com\r\n';
    const utf16be = Buffer.from(`\uFEFF${text}`, 'utf16le').swap16();
    const files: [string, Buffer][] = [
      ['utf-8', Buffer.from(text, 'utf8')],
      ['utf-8 bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
      ['utf-16le', Buffer.from(`\uFEFF${text}`, 'utf16le')],
      ['utf-16be', utf16be],
      ['windows-1252', Buffer.from(text, 'latin1')],
    ];
    for (const [name, body] of files) {
      const { owner } = await server.newAccount();
      const done = await importCsv(server, owner.key, body);
      assert.equal(done.created, 1, `${name}: ${JSON.stringify(done)}`);
      const [person] = await allPeople(server, owner.key);
      assert.equal(person.name, 'José Müller-Øst', name);
      assert.equal(person.emails[0].value, 'jose@example.com', name);
    }
  });

  it('reads a file larger than one stored chunk piece by piece, characters cut at piece ends whole', async () => {
    // 1.3 MB of 2- and 3-byte characters: more than one 1 MiB chunk, read in 128 KiB pieces,
    // whose ends fall inside characters.
    const { owner } = await server.newAccount();
    const rows = ['Name,Email,Background'];
    const note = (i: number) => `${i} ${'é日ø'.repeat(300 + (i % 7))}`;
    for (let i = 0; i < 600; i++) rows.push(`Zoë ${i},z${i}@example.com,"${note(i)}"`);
    const body = Buffer.from(rows.join('\r\n'), 'utf8');
    assert.ok(body.length > 1.2 * 1024 * 1024, `${body.length} bytes`);
    const done = await importCsv(server, owner.key, body);
    assert.equal(done.created, 600, JSON.stringify(done).slice(0, 500));
    assert.equal(done.errors.length, 0);
    const people = await allPeople(server, owner.key);
    const byEmail = new Map(people.map((p) => [p.emails[0].value, p]));
    for (let i = 0; i < 600; i++) {
      const person = byEmail.get(`z${i}@example.com`);
      assert.equal(person?.name, `Zoë ${i}`);
      assert.equal(person?.background, note(i), `row ${i + 2}`);
    }
  });

  it('tells comma, semicolon and tab apart, with quoted fields over several lines', async () => {
    for (const sep of [',', ';', '\t']) {
      const { owner } = await server.newAccount();
      const csv = [
        ['Name', 'Email', 'Background'].join(sep),
        ['Ann Lee', 'ann@example.com', `"one${sep} two\nthree"`].join(sep),
        ['Bob Ray', 'bob@example.com', 'plain'].join(sep),
      ].join('\r\n');
      const done = await importCsv(server, owner.key, csv);
      assert.equal(done.created, 2, JSON.stringify(done));
      const people = await allPeople(server, owner.key);
      assert.equal(people[0].background, `one${sep} two\nthree`);
      assert.equal(people[1].name, 'Bob Ray');
    }
  });
});
