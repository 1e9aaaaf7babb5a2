import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/connect.js';
import { createUser } from '../../src/accounts/accounts.service.js';
import { startServer, type TestAccount, type TestServer } from '../support/server.js';

/**
 * The fast read paths (list totals remembered while nothing changes, verified keys remembered for a
 * few seconds, SQLite's read connection) must never show a client stale data.
 */
describe('fast read paths stay exact', () => {
  let server: TestServer;
  let account: TestAccount;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
  });
  after(async () => server.close());

  const total = async (query = '') => {
    const res = await server.get(account.owner.key, `/v1/people?limit=1${query}`);
    assert.equal(res.status, 200);
    return res.body._metadata.total as number;
  };

  it('a list total follows every change: through the API, and by another connection to the database', async () => {
    const start = await total();
    assert.equal(await total(), start, 'asking twice with no change gives the same total');
    const created = await server.post(account.owner.key, '/v1/people', { firstName: 'Counted' });
    assert.equal(created.status, 201);
    assert.equal(await total(), start + 1);
    assert.equal(await total('&firstName=Counted'), 1);

    // Another process (the admin CLI, a worker on its own) writes through its own connection.
    const other = openDatabase(server.ctx.config.databaseUrl);
    try {
      const stage = await other.db
        .selectFrom('stages')
        .select('id')
        .where('account_id', '=', account.accountId)
        .where('name', '=', 'Lead')
        .executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      await other.db
        .insertInto('people')
        .values({
          account_id: account.accountId,
          created_at: at,
          updated_at: at,
          created_via: 'Import',
          name: 'Counted Too',
          first_name: 'Counted',
          last_name: 'Too',
          stage_id: stage.id,
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
        })
        .execute();
    } finally {
      await other.db.destroy();
    }
    assert.equal(await total(), start + 2);
    assert.equal(await total('&firstName=Counted'), 2);

    const trash = await server.get(account.owner.key, '/v1/stages?name=Trash');
    await server.put(account.owner.key, `/v1/people/${created.body.id}`, {
      stageId: trash.body.stages[0].id,
    });
    assert.equal(
      await total(),
      start + 1,
      'moving a person to Trash takes them out of the default total',
    );
    assert.equal(
      await server.del(account.owner.key, `/v1/people/${created.body.id}`).then((r) => r.status),
      204,
    );
    assert.equal(await total('&includeTrash=true'), start + 1);
  });

  it('a person read right after a change shows the change', async () => {
    const created = await server.post(account.owner.key, '/v1/people', { firstName: 'Fresh' });
    for (let i = 0; i < 5; i++) {
      const put = await server.put(account.owner.key, `/v1/people/${created.body.id}`, {
        background: `round ${i}`,
      });
      assert.equal(put.status, 200);
      const got = await server.get(account.owner.key, `/v1/people/${created.body.id}`);
      assert.equal(got.body.background, `round ${i}`);
    }
  });

  it('a key works the moment its user exists, and an unknown key is refused every time', async () => {
    const bogus = 'x'.repeat(43);
    for (let i = 0; i < 3; i++) assert.equal((await server.get(bogus, '/v1/identity')).status, 401);
    const config = loadConfig({
      HEARTH_DATA_DIR: server.dataDir,
      DATABASE_URL: server.ctx.config.databaseUrl,
    });
    const other = openDatabase(config.databaseUrl);
    try {
      const made = await createUser(other.db, {
        accountId: account.accountId,
        role: 'Agent',
        name: 'Late Agent',
        email: 'late@example.test',
      });
      const me = await server.get(made.apiKey, '/v1/identity');
      assert.equal(me.status, 200);
      assert.equal(me.body.user.name, 'Late Agent');
    } finally {
      await other.db.destroy();
    }
    assert.equal((await server.get(account.owner.key, '/v1/identity')).status, 200);
  });
});
