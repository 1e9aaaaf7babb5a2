import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type ApiResponse, type TestServer, startServer } from '../support/server.js';
import { GOOD_PASSWORD, givePassword, login } from '../support/auth.js';

/** An address of its own for each test run: the database (PostgreSQL) outlives the server. */
const freshAddress = () =>
  `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
const via = (address: string) => ({ 'x-forwarded-proto': 'https', 'x-forwarded-for': address });
const EMAIL_LIMIT = 5;

function statusCounts(answers: ApiResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

describe('sign-in throttling holds whatever the concurrency', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { HEARTH_TRUST_PROXY: '1' } });
  });
  after(async () => server.close());

  it('100 wrong passwords at once for one email: 5 are checked (401), 95 refused (429)', async () => {
    const account = await server.newAccount();
    const { email } = await givePassword(server, await account.addUser('Agent'));
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        login(server, email, `wrong-password-${i}`, via(address)),
      ),
    );
    assert.deepEqual(statusCounts(answers), { 401: EMAIL_LIMIT, 429: 100 - EMAIL_LIMIT });
    for (const refused of answers.filter((a) => a.status === 429)) {
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.match(refused.body.errorMessage, /Too many failed sign-ins/);
    }
    // The right password is refused too now: the guesses above used up the email's attempts.
    const right = await login(server, email, GOOD_PASSWORD, via(freshAddress()));
    assert.equal(right.status, 429, right.text);
  });

  it('parallel guesses at an unknown email are limited the same way', async () => {
    const address = freshAddress();
    const email = `nobody-${randomBytes(6).toString('hex')}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => login(server, email, 'some-wrong-password', via(address))),
    );
    assert.deepEqual(statusCounts(answers), { 401: EMAIL_LIMIT, 429: 30 - EMAIL_LIMIT });
  });

  it('a right password among parallel attempts signs in and is not counted as a failure', async () => {
    const account = await server.newAccount();
    const { email } = await givePassword(server, await account.addUser('Agent'));
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => login(server, email, GOOD_PASSWORD, via(freshAddress()))),
    );
    assert.deepEqual(statusCounts(answers), { 200: 3 });
    for (let i = 0; i < EMAIL_LIMIT - 1; i++)
      assert.equal(
        (await login(server, email, 'wrong-password!', via(freshAddress()))).status,
        401,
      );
    assert.equal((await login(server, email, GOOD_PASSWORD, via(freshAddress()))).status, 200);
  });

  it(
    'two API instances on one database share the limit (PostgreSQL)',
    { skip: !process.env.TEST_DATABASE_URL && 'SQLite serves one instance' },
    async () => {
      const second = await startServer({
        env: { HEARTH_TRUST_PROXY: '1', DATABASE_URL: process.env.TEST_DATABASE_URL ?? '' },
      });
      try {
        const account = await server.newAccount();
        const { email } = await givePassword(server, await account.addUser('Agent'));
        const address = freshAddress();
        const answers = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            login(i % 2 ? second : server, email, `wrong-password-${i}`, via(address)),
          ),
        );
        assert.deepEqual(statusCounts(answers), { 401: EMAIL_LIMIT, 429: 60 - EMAIL_LIMIT });
      } finally {
        await second.close();
      }
    },
  );
});
