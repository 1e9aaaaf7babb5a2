import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { allPeople, importCsv } from './imports-helpers.js';

describe('POST /v1/imports from another CRM: "Last, First" names, unknown stages and agents', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ worker: true });
  });
  after(async () => server.close());

  it('imports every row, with the default stage or the importer where nothing matches, and warns', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const owner = (await server.get(key, '/v1/me')).body;
    const ava = await account.addUser('Agent', 'Ava Brooks');
    const csv = [
      'Name,Email,Status,Agent',
      '"Muñoz, José",jose@example.com,Prospect,Ava Brooks',
      'Jane Doe,jane@example.com,Hot,Ava Brooks',
      '"Nguyen, Jacob",jacob@example.com,Active,Nobody Known',
      'Cher,cher@example.com,,',
    ].join('\n');
    const done = await importCsv(server, key, csv);
    assert.deepEqual(
      [done.status, done.created, done.errorCount, done.errors],
      ['done', 4, 0, []],
      JSON.stringify(done),
    );
    assert.deepEqual(done.warnings, [
      { row: 3, message: "Status: 'Hot' matches no stage, so the person gets the stage Lead" },
      { row: 4, message: "Status: 'Active' matches no stage, so the person gets the stage Lead" },
      {
        row: 4,
        message:
          "Agent: 'Nobody Known' matches no user (by name or email), so the person is assigned to you",
      },
    ]);
    const people: Record<string, Record<string, unknown>> = {};
    for (const p of await allPeople(server, key)) people[p.emails[0].value] = p;
    const field = (email: string, ...names: string[]) => names.map((n) => people[email][n]);
    assert.deepEqual(
      field('jose@example.com', 'firstName', 'lastName', 'name', 'stage', 'assignedUserId'),
      ['José', 'Muñoz', 'José Muñoz', 'Prospect', ava.id],
    );
    assert.deepEqual(field('jane@example.com', 'firstName', 'lastName', 'stage'), [
      'Jane',
      'Doe',
      'Lead',
    ]);
    assert.deepEqual(
      field('jacob@example.com', 'firstName', 'lastName', 'stage', 'assignedUserId'),
      ['Jacob', 'Nguyen', 'Lead', owner.id],
    );
    assert.deepEqual(field('cher@example.com', 'name'), ['Cher']);
  });

  it('an Agent’s row with an unknown agent is assigned to that Agent', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent', 'Importing Agent');
    const done = await importCsv(
      server,
      agent.key,
      'First Name,Last Name,Email,Assigned To\nLee,Park,lee@example.com,Who Is This\n',
    );
    assert.deepEqual([done.created, done.errorCount, done.warnings.length], [1, 0, 1]);
    const [lee] = await allPeople(server, agent.key);
    assert.equal(lee.assignedUserId, agent.id);
  });
});
