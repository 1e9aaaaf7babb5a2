import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { insertRows, reusableQuery, reusableWrite } from '../../src/platform/db/reusable-query.js';
import { startServer, type TestServer } from '../support/server.js';

describe('reusableQuery: compiled once, filled with new values each call', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ api: false });
  });
  after(async () => server.close());

  it('returns the row for each call’s own values, keeping constants of the shape', async () => {
    const first = await server.newAccount('Alpha');
    const second = await server.newAccount('Beta');
    // 'Owner' is a constant of the query; the account id is an argument.
    const ownerOf = reusableQuery((db, _shape, accountId: number) =>
      db
        .selectFrom('users')
        .select(['id', 'account_id'])
        .where('account_id', '=', accountId)
        .where('role', '=', 'Owner'),
    );
    const a = await ownerOf(server.ctx.db, 'owner', first.accountId);
    const b = await ownerOf(server.ctx.db, 'owner', second.accountId);
    assert.deepEqual(a, { id: first.owner.id, account_id: first.accountId });
    assert.deepEqual(b, { id: second.owner.id, account_id: second.accountId });
    assert.equal(await ownerOf(server.ctx.db, 'owner', 999_999_999), undefined);
  });

  /** A query by role whose builds are counted: each build is one compilation. */
  const countedByRole = () => {
    let builds = 0;
    const byRole = reusableQuery((db, role, accountId: number) => {
      builds += 1;
      return db
        .selectFrom('users')
        .select('id')
        .where('account_id', '=', accountId)
        .where('role', '=', role as 'Owner');
    });
    return { byRole, builds: () => builds };
  };

  it('keeps one compiled form per shape', async () => {
    const account = await server.newAccount();
    const other = await server.newAccount();
    const agent = await account.addUser('Agent');
    const { byRole, builds } = countedByRole();
    for (let i = 0; i < 3; i++) {
      assert.equal((await byRole(server.ctx.db, 'Owner', account.accountId))?.id, account.owner.id);
      assert.equal((await byRole(server.ctx.db, 'Agent', account.accountId))?.id, agent.id);
      assert.equal((await byRole(server.ctx.db, 'Owner', other.accountId))?.id, other.owner.id);
    }
    // Two shapes (Owner, Agent), each compiled once, whatever the number of calls and values.
    assert.equal(builds(), 2);
  });

  it('with HEARTH_DB_SHORTCUTS=off compiles every call, with the same answers', async () => {
    const plain = await startServer({ api: false, env: { HEARTH_DB_SHORTCUTS: 'off' } });
    try {
      const account = await plain.newAccount();
      const { byRole, builds } = countedByRole();
      for (let i = 0; i < 3; i++)
        assert.equal(
          (await byRole(plain.ctx.db, 'Owner', account.accountId))?.id,
          account.owner.id,
        );
      assert.equal(builds(), 3);
    } finally {
      await plain.close();
    }
  });

  it('reusableWrite: changes only the rows its values name, and reports how many, per shape', async () => {
    const account = await server.newAccount();
    const other = await server.newAccount();
    const { db } = server.ctx;
    const otherBefore = await db
      .selectFrom('users')
      .select(['name', 'phone'])
      .where('id', '=', other.owner.id)
      .executeTakeFirstOrThrow();
    const rename = reusableWrite(
      (db, column, accountId: number, id: number, value: string | null) =>
        db
          .updateTable('users')
          .set({ [column]: value } as never)
          .where('account_id', '=', accountId)
          .where('id', '=', id),
    );
    assert.equal(await rename(db, 'name', account.accountId, account.owner.id, 'Renamed Owner'), 1);
    // Another account's id: nothing changes, though the compiled form is the same.
    assert.equal(await rename(db, 'name', account.accountId, other.owner.id, 'Intruder'), 0);
    assert.equal(await rename(db, 'phone', account.accountId, account.owner.id, '555 0101'), 1);
    const users = await db
      .selectFrom('users')
      .select(['id', 'name', 'phone'])
      .where('id', 'in', [account.owner.id, other.owner.id])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      users.map((u) => [u.name, u.phone]),
      [
        ['Renamed Owner', '555 0101'],
        [otherBefore.name, otherBefore.phone],
      ],
    );
  });

  it('insertRows: each shape compiled once, every call storing its own values', async () => {
    const account = await server.newAccount();
    const { db } = server.ctx;
    const row = (event: string, data: string | null) => ({
      account_id: account.accountId,
      event,
      resource_ids: '[1]',
      data,
      created_at: '2026-01-01T00:00:00Z',
      dispatched_at: null,
    });
    const [first] = await insertRows(db, 'outbox', [row('peopleCreated', null)], {
      returning: 'id',
    });
    const [second] = await insertRows(db, 'outbox', [row('peopleUpdated', '{"x":1}')], {
      returning: 'id',
    });
    const both = await insertRows(
      db,
      'outbox',
      [row('notesCreated', null), row('notesDeleted', '{}')],
      { returning: 'id' },
    );
    assert.equal(both.length, 2);
    const stored = await db
      .selectFrom('outbox')
      .select(['id', 'event', 'data'])
      .where('account_id', '=', account.accountId)
      .orderBy('id')
      .execute();
    assert.deepEqual(stored, [
      { id: first.id, event: 'peopleCreated', data: null },
      { id: second.id, event: 'peopleUpdated', data: '{"x":1}' },
      { id: both[0].id, event: 'notesCreated', data: null },
      { id: both[1].id, event: 'notesDeleted', data: '{}' },
    ]);
    // without RETURNING nothing comes back; a column left undefined is left out, as with Kysely
    assert.deepEqual(
      await insertRows(db, 'outbox', [{ ...row('dealsCreated', null), data: undefined }]),
      [],
    );
    assert.equal(
      (
        await db
          .selectFrom('outbox')
          .select('data')
          .where('event', '=', 'dealsCreated')
          .where('account_id', '=', account.accountId)
          .executeTakeFirst()
      )?.data,
      null,
    );
    await assert.rejects(
      insertRows(db, 'outbox', [row('a', null), { ...row('b', null), data: undefined }]),
      /same columns/,
    );
  });

  it('insertRows: ON CONFLICT DO NOTHING returns only the rows it inserted', async () => {
    const account = await server.newAccount();
    const at = '2026-01-01T00:00:00Z';
    const [person] = await insertRows(
      server.ctx.db,
      'people',
      [
        {
          account_id: account.accountId,
          created_at: at,
          updated_at: at,
          created_via: 'API',
          name: 'Key',
          first_name: 'Key',
          last_name: '',
          stage_id: null,
          source: '',
          source_url: '',
          background: '',
          contacted: 0,
          emails: '[]',
          phones: '[]',
          addresses: '[]',
          tags: '[]',
          collaborators: '[]',
          custom: '{}',
        },
      ],
      { returning: 'id' },
    );
    const key = (value: string) => ({
      account_id: account.accountId,
      person_id: person.id as number,
      kind: 'email' as const,
      value,
    });
    const options = { onConflictDoNothing: ['account_id', 'kind', 'value'], returning: 'value' };
    assert.deepEqual(
      await insertRows(
        server.ctx.db,
        'lead_identity_keys',
        [key('a@x.test'), key('b@x.test')],
        options,
      ),
      [{ value: 'a@x.test' }, { value: 'b@x.test' }],
    );
    assert.deepEqual(
      await insertRows(
        server.ctx.db,
        'lead_identity_keys',
        [key('b@x.test'), key('c@x.test')],
        options,
      ),
      [{ value: 'c@x.test' }],
    );
  });
});
