import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { allPeople, importCsv, upload } from './imports-helpers.js';

describe('POST /v1/imports with a value mapping: the file’s stages, agents and sources in Hearth’s words', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ worker: true });
  });
  after(async () => server.close());

  const csv = [
    'Name,Email,Status,Agent,Lead Source',
    'Ann Lee,ann@example.com,Hot,Bob S.,zillow',
    'Ben Orr,ben@example.com,ACTIVE,bob s.,Zillow.com',
    'Cal Fox,cal@example.com,Prospect,Nobody,Open house',
  ].join('\n');

  it('previews each column’s distinct values, then imports with them mapped', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const ava = await account.addUser('Agent', 'Ava Brooks');
    const preview = await server.call('POST', '/v1/imports/preview', {
      key,
      raw: csv,
      contentType: 'text/csv',
    });
    assert.equal(preview.status, 200, preview.text);
    const column = (header: string) =>
      preview.body.columns.find((c: { header: string }) => c.header === header);
    assert.deepEqual(column('Status').values, ['Hot', 'ACTIVE', 'Prospect']);
    assert.deepEqual(column('Agent').values, ['Bob S.', 'Nobody']);
    assert.deepEqual(column('Lead Source').values, ['zillow', 'Zillow.com', 'Open house']);

    const stages = (await server.get(key, '/v1/stages?limit=100')).body.stages;
    const stage = (name: string) => stages.find((s: { name: string }) => s.name === name).id;
    const values = {
      stage: { hot: stage('Active Client'), Active: stage('Nurture') },
      assignedTo: { 'Bob S.': ava.id },
      source: { zillow: 'Zillow', 'zillow.com': 'Zillow' },
    };
    const done = await importCsv(
      server,
      key,
      csv,
      `?values=${encodeURIComponent(JSON.stringify(values))}`,
    );
    assert.deepEqual(
      [done.status, done.created, done.errorCount],
      ['done', 3, 0],
      JSON.stringify(done),
    );
    // Only the value nobody mapped is a warning.
    assert.deepEqual(done.warnings, [
      {
        row: 4,
        message:
          "Agent: 'Nobody' matches no user (by name or email), so the person is assigned to you",
      },
    ]);
    const people = await allPeople(server, key);
    const byName = (name: string) => people.find((p: { name: string }) => p.name === name);
    assert.deepEqual(
      ['Ann Lee', 'Ben Orr', 'Cal Fox'].map((n) => {
        const p = byName(n);
        return [p.stage, p.assignedUserId, p.source];
      }),
      [
        ['Active Client', ava.id, 'Zillow'],
        ['Nurture', ava.id, 'Zillow'],
        ['Prospect', account.owner.id, 'Open house'],
      ],
    );
  });

  it('refuses a mapping to another account’s stage or user, or of a field that has no values, with a 400', async () => {
    const account = await server.newAccount();
    const other = await server.newAccount();
    const theirs = (await server.get(other.owner.key, '/v1/stages?limit=1')).body.stages[0].id;
    const cases: [unknown, RegExp][] = [
      [{ stage: { Hot: theirs } }, new RegExp(`no stage ${theirs} in this account`)],
      [{ assignedTo: { Bob: other.owner.id } }, new RegExp(`no user ${other.owner.id}`)],
      [{ email: { a: 'b' } }, /'email' cannot be mapped/],
      [{ stage: { Hot: 'Nurture' } }, /'stage.Hot' must be an id/],
      ['[1', /not JSON/],
    ];
    for (const [values, message] of cases) {
      const raw = typeof values === 'string' ? values : JSON.stringify(values);
      const res = await upload(
        server,
        account.owner.key,
        csv,
        `?values=${encodeURIComponent(raw)}`,
      );
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.errorMessage, message);
    }
    const imports = await server.get(account.owner.key, '/v1/imports');
    assert.equal(imports.body._metadata.total, 0, 'nothing was queued');
  });
});
