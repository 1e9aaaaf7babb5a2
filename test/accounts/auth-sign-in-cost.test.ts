import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto, { randomBytes } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { type TestServer, startServer, unique } from '../support/server.js';
import { GOOD_PASSWORD, login } from '../support/auth.js';
import { createUser } from '../../src/accounts/accounts.service.js';
import { setPassword } from '../../src/accounts/auth/auth.service.js';
import { decoyPasswordHash, hashPassword } from '../../src/accounts/auth/passwords.js';

/**
 * What a sign-in costs is the number of scrypt derivations it runs (each some 50-100 ms): counted
 * at node:crypto, the boundary every password hash goes through.
 */
describe('a sign-in costs the same whoever holds the email', () => {
  let server: TestServer;
  const originalScrypt = crypto.scrypt;
  let derivations = 0;

  before(async () => {
    server = await startServer({ env: { HEARTH_TRUST_PROXY: '1' } });
    await decoyPasswordHash();
    crypto.scrypt = ((...args: Parameters<typeof crypto.scrypt>) => {
      derivations += 1;
      return (originalScrypt as (...a: unknown[]) => void)(...args);
    }) as typeof crypto.scrypt;
    syncBuiltinESMExports();
  });
  after(async () => {
    crypto.scrypt = originalScrypt;
    syncBuiltinESMExports();
    await server.close();
  });

  /** Each sign-in from an address of its own, so throttling never answers in its place. */
  const derivationsOf = async (email: string, password: string, status: number) => {
    const before = derivations;
    const address = `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const res = await login(server, email, password, {
      'x-forwarded-proto': 'https',
      'x-forwarded-for': address,
    });
    assert.equal(res.status, status, res.text);
    return { count: derivations - before, body: res.body };
  };

  /** Users of `accounts` different accounts with one email, each with a password of their own. */
  const sharedEmail = async (accounts: number) => {
    const email = `${unique('shared')}@example.com`.toLowerCase();
    const users = [];
    for (let i = 0; i < accounts; i++) {
      const account = await server.newAccount();
      const created = await createUser(server.ctx.db, {
        accountId: account.accountId,
        role: 'Agent',
        name: `Shared ${i}`,
        email,
      });
      const password = `${GOOD_PASSWORD}-${i}`;
      await setPassword(server.ctx.db, created.user.id, password);
      users.push({ accountId: account.accountId, password });
    }
    return { email, users };
  };

  it('a wrong password: one derivation for an unknown email, one account or three', async () => {
    const unknown = await derivationsOf(`${unique('ghost')}@example.com`, 'wrong-password!', 401);
    const one = await sharedEmail(1);
    const three = await sharedEmail(3);
    const single = await derivationsOf(one.email, 'wrong-password!', 401);
    const triple = await derivationsOf(three.email, 'wrong-password!', 401);
    assert.deepEqual([unknown.count, single.count, triple.count], [1, 1, 1]);
  });

  it('each user of a shared email still signs in to their own account with their password', async () => {
    const { email, users } = await sharedEmail(2);
    for (const user of users) {
      const res = await derivationsOf(email, user.password, 200);
      assert.equal(res.body.account.id, user.accountId);
      assert.equal(res.count, 1);
    }
  });

  it('hashes from before salts were shared converge at the next successful sign-in', async () => {
    const { email, users } = await sharedEmail(2);
    // As stored before: the second user's hash with a salt of its own.
    const second = await server.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .where('account_id', '=', users[1]!.accountId)
      .executeTakeFirstOrThrow();
    await server.ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(users[1]!.password) })
      .where('id', '=', second.id)
      .execute();
    assert.equal((await derivationsOf(email, 'wrong-password!', 401)).count, 2);
    const signedIn = await derivationsOf(email, users[1]!.password, 200);
    assert.equal(signedIn.body.account.id, users[1]!.accountId);
    assert.equal((await derivationsOf(email, 'wrong-password!', 401)).count, 1);
    for (const user of users)
      assert.equal(
        (await derivationsOf(email, user.password, 200)).body.account.id,
        user.accountId,
      );
  });
});
