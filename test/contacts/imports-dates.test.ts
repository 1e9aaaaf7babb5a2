import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { allPeople, importCsv, upload } from './imports-helpers.js';

/** An account with a date custom field labelled "Closing date": its key and the field's name. */
async function accountWithDateField(server: TestServer) {
  const { owner } = await server.newAccount();
  const field = await server.post(owner.key, '/v1/customFields', {
    label: 'Closing date',
    type: 'date',
  });
  assert.equal(field.status, 201, field.text);
  return { key: owner.key, closing: field.body.name as string };
}

describe('imports: spreadsheet dates (Created and date custom fields)', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ worker: true });
  });
  after(async () => server.close());

  it('reads ISO 8601, M/D/YYYY and M/D/YY (with a time, 24-hour or AM/PM) and YYYY/M/D; the rest are row errors', async () => {
    const { key, closing } = await accountWithDateField(server);
    const csv = [
      'Name,Created,Closing date',
      'Ann ISO,2025-03-07T14:30:00+01:00,2025-04-01',
      'Bob US,3/7/2025,4/1/2026',
      'Cy Short,03/07/25 2:30 PM,12/31/99',
      'Di Dashes,3-7-2025 14:30:05,1.2.2026',
      'Ed Year First,2025/3/7 9:05,2026/4/1',
      'Flo Midnight,3/7/2025 12:00 AM,',
      'Gus Month13,13/1/2025,',
      'Hal Feb30,2/30/2025,',
      'Ivy Words,"March 7, 2025",',
      'Jo Hour,3/7/2025 13:00 PM,',
      'Kay Custom,3/7/2025,31/1/2026',
    ].join('\r\n');
    const done = await importCsv(server, key, csv);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.deepEqual([done.created, done.errorCount], [6, 5], JSON.stringify(done));
    assert.deepEqual(
      done.errors.map((e: { row: number }) => e.row),
      [8, 9, 10, 11, 12],
    );
    assert.equal(done.dateFormat, 'MDY');
    assert.match(
      done.errors[0].message,
      /^Created: '13\/1\/2025' is not a date; use 2025-03-07, 3\/7\/2025 \(March 7\)/,
    );
    assert.match(done.errors[4].message, /^Closing date: '31\/1\/2026' is not a date/);
    const byName = Object.fromEntries((await allPeople(server, key)).map((p) => [p.name, p]));
    const created = (name: string) => byName[name].created;
    assert.equal(created('Ann ISO'), '2025-03-07T13:30:00Z');
    assert.equal(created('Bob US'), '2025-03-07T00:00:00Z', 'a date alone is its midnight UTC');
    assert.equal(created('Cy Short'), '2025-03-07T14:30:00Z');
    assert.equal(created('Di Dashes'), '2025-03-07T14:30:05Z');
    assert.equal(created('Ed Year First'), '2025-03-07T09:05:00Z');
    assert.equal(created('Flo Midnight'), '2025-03-07T00:00:00Z');
    assert.deepEqual(
      ['Ann ISO', 'Bob US', 'Cy Short', 'Di Dashes', 'Ed Year First'].map(
        (n) => byName[n][closing],
      ),
      ['2025-04-01', '2026-04-01', '1999-12-31', '2026-01-02', '2026-04-01'],
    );
  });

  it('dateFormat=DMY reads day first; a dry run reports the same, changing nothing', async () => {
    const { key, closing } = await accountWithDateField(server);
    const csv = [
      'Name,Created,Closing date',
      'Ann Day,7/3/2025,31/1/2026',
      'Bob Day,13/1/2025 18:45,1.2.26',
      'Cy Wrong,1/13/2025,',
    ].join('\n');
    const dry = await importCsv(server, key, csv, '?dateFormat=DMY&dryRun=true');
    assert.deepEqual([dry.dryRun, dry.created, dry.errorCount], [true, 2, 1], JSON.stringify(dry));
    assert.match(
      dry.errors[0].message,
      /^Created: '1\/13\/2025' is not a date; use 2025-03-07, 7\/3\/2025 \(7 March\)/,
    );
    assert.deepEqual(await allPeople(server, key), []);
    const done = await importCsv(server, key, csv, '?dateFormat=DMY');
    assert.deepEqual([done.dateFormat, done.created, done.errorCount], ['DMY', 2, 1]);
    const people = await allPeople(server, key);
    assert.deepEqual(
      people.map((p) => [p.name, p.created, p[closing]]),
      [
        ['Ann Day', '2025-03-07T00:00:00Z', '2026-01-31'],
        ['Bob Day', '2025-01-13T18:45:00Z', '2026-02-01'],
      ],
    );
  });

  it('an unknown dateFormat is a 400; the API itself still takes ISO 8601 dates only', async () => {
    const { key, closing } = await accountWithDateField(server);
    const bad = await upload(server, key, 'Name,Created\nAnn,3/7/2025\n', '?dateFormat=YMD');
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.errorMessage, /dateFormat/);
    const person = await server.post(key, '/v1/people', { name: 'Strict Sam' });
    assert.equal(person.status, 201, person.text);
    const loose = await server.put(key, `/v1/people/${person.body.id}`, { [closing]: '3/7/2025' });
    assert.equal(loose.status, 400, loose.text);
    const iso = await server.put(key, `/v1/people/${person.body.id}`, { [closing]: '2025-03-07' });
    assert.equal(iso.status, 200, iso.text);
    const [sam] = await allPeople(server, key);
    assert.equal(sam[closing], '2025-03-07');
  });
});
