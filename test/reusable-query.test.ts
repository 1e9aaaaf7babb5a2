import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reusableQuery } from '../src/db/reusable-query.js';
import { startServer, type TestServer } from './helpers.js';

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
      db.selectFrom('users').select(['id', 'account_id']).where('account_id', '=', accountId).where('role', '=', 'Owner'),
    );
    const a = await ownerOf(server.ctx.db, 'owner', first.accountId);
    const b = await ownerOf(server.ctx.db, 'owner', second.accountId);
    assert.deepEqual(a, { id: first.owner.id, account_id: first.accountId });
    assert.deepEqual(b, { id: second.owner.id, account_id: second.accountId });
    assert.equal(await ownerOf(server.ctx.db, 'owner', 999_999_999), undefined);
  });

  it('keeps one compiled form per shape', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const byRole = reusableQuery((db, role, accountId: number) =>
      db.selectFrom('users').select('id').where('account_id', '=', accountId).where('role', '=', role as 'Owner'),
    );
    assert.equal((await byRole(server.ctx.db, 'Owner', account.accountId))?.id, account.owner.id);
    assert.equal((await byRole(server.ctx.db, 'Agent', account.accountId))?.id, agent.id);
  });
});
