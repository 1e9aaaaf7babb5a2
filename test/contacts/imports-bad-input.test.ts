import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type TestServer, startServer } from '../support/server.js';
import { allPeople, importCsv, upload } from './imports-helpers.js';

describe('imports: bad input gets a clear 4xx or a row error, never a 500 or half a row', () => {
  let server: TestServer;
  let key: string;
  let accountId: number;

  before(async () => {
    server = await startServer({ worker: true });
    const account = await server.newAccount();
    key = account.owner.key;
    accountId = account.accountId;
  });
  after(async () => server.close());

  const refused = async (body: string | Buffer, status: number, pattern: RegExp, query = '') => {
    const res = await upload(server, key, body, query);
    assert.equal(res.status, status, res.text);
    assert.match(res.body.errorMessage, pattern);
  };

  it('an empty file, or one of blank lines', async () => {
    await refused('', 400, /empty/);
    await refused('\r\n\n  \n', 400, /empty/);
    await refused(Buffer.from([0xef, 0xbb, 0xbf]), 400, /empty/);
  });

  it('no header, or a header with no usable column', async () => {
    await refused(
      'Jane,Doe,jane@example.com\nJohn,Roe,john@example.com\n',
      400,
      /No column names a person.*Found: Jane, Doe/,
    );
    await refused('Colour,Size\nred,XL\n', 400, /No column names a person/);
    await refused(',,,\nJane,,,\n', 400, /no header/);
  });

  it('binary garbage', async () => {
    await refused(randomBytes(4096), 400, /not CSV text/);
    const zip = Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(2000)]);
    await refused(zip, 400, /not CSV text/);
  });

  it('a file over the 50 MiB limit is refused with 413, and nothing of it is kept', async () => {
    const row = 'Someone,someone@example.com,' + 'x'.repeat(100) + '\n';
    const big = Buffer.from(
      'Name,Email,Background\n' + row.repeat(Math.ceil((50 * 1024 * 1024 + 1) / row.length)),
    );
    assert.ok(big.length > 50 * 1024 * 1024);
    await refused(big, 413, /larger than 50 MiB/);
    const kept = await server.ctx.db
      .selectFrom('imports')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    assert.deepEqual(kept, [], 'no import row (and so no stored chunk) is left');
  });

  it('a wrong content type, a bad query, an unknown encoding', async () => {
    const json = await server.post(key, '/v1/imports', { people: [] });
    assert.equal(json.status, 415, json.text);
    await refused('Email\na@example.com\n', 400, /onDuplicate/, '?onDuplicate=merge');
    await refused('Email\na@example.com\n', 400, /mapping/, '?mapping=notjson');
    await refused('Email\na@example.com\n', 400, /encoding/, '?encoding=ebcdic');
  });

  it('a row with 10,000 columns, and other bad rows, are row errors; the good rows are imported whole', async () => {
    const wide = Array.from({ length: 10_000 }, (_, i) => `v${i}`).join(',');
    const csv = [
      'Name,Email,Phone',
      'Good One,good1@example.com,555-010-0001',
      wide,
      'Bad Email,not-an-email,555-010-0002',
      'Bad Phone,bad@example.com,12',
      `Long,${'x'.repeat(400)}@example.com,`,
      'Nul\0Name,nul@example.com,',
      ',,',
      'Good Two,good2@example.com,555-010-0003',
    ].join('\n');
    const done = await importCsv(server, key, csv);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.deepEqual([done.total, done.created, done.skipped, done.errorCount], [8, 2, 1, 5]);
    assert.deepEqual(
      done.errors.map((e: { row: number }) => e.row),
      [3, 4, 5, 6, 7],
    );
    assert.match(done.errors[0].message, /10000 columns but the header has 3/);
    assert.match(done.errors[1].message, /not a valid email/);
    assert.match(done.errors[2].message, /not a valid phone/);
    const people = await allPeople(server, key);
    assert.deepEqual(people.map((p) => p.name).sort(), ['Good One', 'Good Two']);
  });

  it('a field left open to the end of the file fails the import before any row, naming the line', async () => {
    const { owner } = await server.newAccount();
    const rows = ['Name,Email,Background'];
    for (let i = 0; i < 300; i++) rows.push(`R ${i},r${i}@example.com,ok`);
    rows.push(`Open,open@example.com,"${'y'.repeat(1024 * 1024 + 10)}`);
    const done = await importCsv(server, owner.key, rows.join('\n'));
    assert.equal(done.status, 'failed', JSON.stringify(done).slice(0, 500));
    assert.match(done.message, /past line 30\d: a field longer than 1 MiB/);
    assert.equal(done.created, 0, 'an unreadable file imports nothing: nothing to undo by hand');
    assert.equal((await allPeople(server, owner.key)).length, 0);
  });
});
