import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { type TestServer, startServer } from '../support/server.js';
import { allPeople, importCsv, upload, waitForImport, waitForUndo } from './imports-helpers.js';
import { outboxEvents } from '../support/outbox.js';

describe('imports: dedup, dry run, undo, errors report, webhooks, roles', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ worker: true });
  });
  after(async () => server.close());

  it('updates a known person (fills empty fields, adds contacts and tags, never wipes); rows of the file that match become one person', async () => {
    const { owner } = await server.newAccount();
    const known = await server.post(owner.key, '/v1/people', {
      firstName: 'Kim',
      lastName: 'Known',
      emails: ['kim@example.com'],
      tags: ['old'],
      background: 'kept',
    });
    const byPhone = await server.post(owner.key, '/v1/people', {
      firstName: 'Pat',
      phones: ['555-010-7777'],
    });
    const csv = [
      'Name,Email,Phone,Tags,Background,Source',
      'Kim Other,KIM@example.com,555-010-1234,new,replaced?,web',
      'Pat Phone,,(555) 010-7777,,,',
      'Neo New,neo@example.com,,a,,',
      'Neo Again,neo@example.com,555-010-4242,b,,',
      ',,555 010 4242,c,,',
      ',,,,,',
    ].join('\n');
    const done = await importCsv(server, owner.key, csv);
    assert.deepEqual(
      [done.total, done.created, done.updated, done.skipped, done.errorCount],
      [6, 1, 4, 1, 0],
      JSON.stringify(done),
    );
    const people = await allPeople(server, owner.key);
    assert.equal(people.length, 3);
    const kim = people.find((p) => p.id === known.body.id);
    assert.equal(kim.name, 'Kim Known', 'a known name is not overwritten');
    assert.equal(kim.background, 'kept');
    assert.equal(kim.source, 'web', 'an empty field is filled');
    assert.deepEqual(kim.tags, ['old', 'new']);
    assert.deepEqual(
      kim.phones.map((p: { value: string }) => p.value),
      ['555-010-1234'],
    );
    assert.equal(kim.createdVia, 'API');
    const pat = people.find((p) => p.id === byPhone.body.id);
    assert.equal(pat.firstName, 'Pat');
    assert.equal(pat.lastName, 'Phone', 'matched by phone, its empty last name filled');
    const neo = people.find((p) => p.firstName === 'Neo');
    assert.equal(neo.createdVia, 'Import');
    assert.deepEqual(neo.tags, ['a', 'b', 'c']);
    assert.deepEqual(
      neo.phones.map((p: { value: string }) => p.value),
      ['555-010-4242'],
    );

    const again = await importCsv(server, owner.key, csv);
    assert.deepEqual([again.created, again.updated, again.skipped], [0, 0, 6], 'nothing new');
    const skip = await importCsv(
      server,
      owner.key,
      'Email,Tags\nkim@example.com,skipme\n',
      '?onDuplicate=skip',
    );
    assert.deepEqual([skip.created, skip.updated, skip.skipped], [0, 0, 1]);
    const kimAfter = await server.get(owner.key, `/v1/people/${known.body.id}`);
    assert.deepEqual(kimAfter.body.tags, ['old', 'new']);
  });

  it('dryRun=true reports what would happen and changes nothing', async () => {
    const { owner } = await server.newAccount();
    await server.post(owner.key, '/v1/people', { firstName: 'Kim', emails: ['kim@example.com'] });
    const csv = [
      'Name,Email,Stage',
      'Kim Known,kim@example.com,',
      'New One,new@example.com,',
      'New Again,NEW@example.com,',
      'Bad Stage,bad@example.com,Nowhere',
    ].join('\n');
    const dry = await importCsv(server, owner.key, csv, '?dryRun=true');
    assert.equal(dry.dryRun, true);
    assert.deepEqual(
      [dry.status, dry.created, dry.updated, dry.skipped, dry.errorCount],
      ['done', 2, 2, 0, 0],
      JSON.stringify(dry),
    );
    // A stage that matches none no longer refuses the row: it is taken in with a warning.
    assert.deepEqual(dry.errors, []);
    assert.deepEqual(dry.warnings, [
      { row: 5, message: "Stage: 'Nowhere' matches no stage, so the person gets the stage Lead" },
    ]);
    const people = await allPeople(server, owner.key);
    assert.equal(people.length, 1);
    assert.equal(people[0].name, 'Kim');
    const undo = await server.del(owner.key, `/v1/imports/${dry.id}`);
    assert.equal(undo.status, 409);
  });

  it('undo removes only the people the import created; the errors report lists every bad row', async () => {
    const { owner } = await server.newAccount();
    const kept = await server.post(owner.key, '/v1/people', {
      firstName: 'Kept',
      emails: ['kept@example.com'],
    });
    const rows = ['First Name,Email,Price'];
    rows.push('Kept,kept@example.com,100');
    for (let i = 0; i < 450; i++)
      rows.push(`P${i},p${i}@example.com,${i % 150 === 7 ? 'lots' : i}`);
    const done = await importCsv(server, owner.key, rows.join('\n'));
    assert.deepEqual(
      [done.created, done.updated, done.errorCount],
      [447, 1, 3],
      JSON.stringify(done),
    );
    assert.deepEqual(
      done.errors.map((e: { row: number }) => e.row),
      [10, 160, 310],
    );
    const report = await server.get(owner.key, `/v1/imports/${done.id}/errors.csv`);
    assert.equal(report.status, 200);
    assert.match(String(report.headers['content-type']), /^text\/csv/);
    const parsed = parse(report.text.replace(/^\uFEFF/, ''), { columns: true });
    assert.deepEqual(parsed[0], { row: '10', message: "Price: 'lots' is not a price" });
    assert.equal(parsed.length, 3);

    const undo = await server.del(owner.key, `/v1/imports/${done.id}`);
    assert.equal(undo.status, 202, undo.text);
    const undone = await waitForUndo(server, owner.key, done.id);
    assert.equal(undone.undo.removed, 447);
    const left = await allPeople(server, owner.key);
    assert.deepEqual(
      left.map((p) => p.id),
      [kept.body.id],
    );
    assert.equal(left[0].price, 100, 'what the import changed on a known person stays');
    assert.equal((await server.del(owner.key, `/v1/imports/${done.id}`)).status, 409);
  });

  it('webhook events are batched: up to 100 people per delivery, not one per row', async () => {
    const account = await server.newAccount();
    const rows = ['Name,Email,Tags'];
    for (let i = 0; i < 250; i++) rows.push(`W ${i},w${i}@example.com,imported`);
    const done = await importCsv(server, account.owner.key, rows.join('\n'));
    assert.equal(done.created, 250);
    const outbox = await outboxEvents(server, account.accountId);
    const sizes = (event: string) =>
      outbox.filter((o) => o.event === event).map((o) => o.resourceIds.length);
    assert.deepEqual(sizes('peopleCreated'), [100, 100, 50]);
    assert.deepEqual(sizes('peopleTagsCreated'), [100, 100, 50]);
  });

  it("an Agent imports into their own name and cannot touch others' people; a Lender cannot import", async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const other = await account.addUser('Agent');
    await server.post(account.owner.key, '/v1/people', {
      firstName: 'Theirs',
      emails: ['theirs@example.com'],
      assignedUserId: other.id,
    });
    const csv = [
      'Name,Email,Assigned To',
      'Mine,mine@example.com,',
      'Theirs,theirs@example.com,',
      `Given,given@example.com,${other.name}`,
    ].join('\n');
    const done = await importCsv(server, agent.key, csv);
    assert.deepEqual([done.created, done.errorCount], [1, 2], JSON.stringify(done));
    assert.match(done.errors[0].message, /not yours/);
    assert.match(done.errors[1].message, /assigned to themselves/);
    const mine = await allPeople(server, agent.key);
    assert.deepEqual(
      mine.map((p) => [p.name, p.assignedUserId]),
      [['Mine', agent.id]],
    );
    assert.equal((await server.get(other.key, `/v1/imports/${done.id}`)).status, 404);
    assert.equal((await server.get(account.owner.key, `/v1/imports/${done.id}`)).status, 200);
    const lender = await account.addUser('Lender');
    const refused = await upload(server, lender.key, csv);
    assert.equal(refused.status, 403);
  });

  it('lists the imports of the account, newest first', async () => {
    const { owner } = await server.newAccount();
    const first = await importCsv(server, owner.key, 'Email\na@example.com\n');
    const second = await upload(server, owner.key, 'Email\nb@example.com\n', '?dryRun=1');
    await waitForImport(server, owner.key, second.body.id);
    const list = await server.get(owner.key, '/v1/imports');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.imports.map((i: { id: number }) => i.id),
      [second.body.id, first.id],
    );
  });
});
