import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'undici';
import { exitOf, runAdmin, spawnServer, waitFor } from '../support/process.js';
import { basic } from '../support/server.js';

function freshEnv(dir: string): Record<string, string> {
  return {
    HEARTH_DATA_DIR: dir,
    DATABASE_URL: process.env.TEST_DATABASE_URL || `sqlite:${path.join(dir, 'hearth.db')}`,
    HEARTH_LOG_LEVEL: 'warn',
  };
}

describe('admin command line', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'hearth-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates an account, a user and a system, printing one JSON object each', () => {
    const env = freshEnv(dir);
    const account = runAdmin(
      [
        'create-account',
        '--name',
        'Acme Realty',
        '--owner-name',
        'Olive Owner',
        '--owner-email',
        'olive@acme.test',
      ],
      env,
    );
    assert.equal(account.code, 0, account.stderr);
    const created = JSON.parse(account.stdout);
    assert.equal(created.account.name, 'Acme Realty');
    assert.equal(created.user.role, 'Owner');
    assert.equal(created.user.email, 'olive@acme.test');
    assert.match(created.apiKey, /^hk_[A-Za-z0-9_-]{43}$/);

    const user = runAdmin(
      [
        'create-user',
        '--account',
        String(created.account.id),
        '--role',
        'Agent',
        '--name',
        'Al Agent',
        '--email',
        'al@acme.test',
      ],
      env,
    );
    assert.equal(user.code, 0, user.stderr);
    const parsedUser = JSON.parse(user.stdout);
    assert.equal(parsedUser.user.role, 'Agent');
    assert.ok(parsedUser.apiKey);

    const systemName = `Zillow-${process.pid}-${Date.now()}`;
    const system = runAdmin(['create-system', '--name', systemName], env);
    assert.equal(system.code, 0, system.stderr);
    assert.equal(JSON.parse(system.stdout).system, systemName);
    assert.match(JSON.parse(system.stdout).systemKey, /^hsk_/);
    const again = runAdmin(['create-system', '--name', systemName], env);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, new RegExp(`system named "${systemName}" is already registered`));

    const migrate = runAdmin(['migrate'], env);
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.deepEqual(JSON.parse(migrate.stdout), { migrated: [] });
  });

  it('fails with a clear message and a non-zero exit for bad input', () => {
    const env = freshEnv(dir);
    const badRole = runAdmin(
      ['create-user', '--account', '1', '--role', 'Boss', '--name', 'X', '--email', 'x@acme.test'],
      env,
    );
    assert.notEqual(badRole.code, 0);
    assert.match(badRole.stderr, /--role must be one of Owner, Admin, Agent, Lender/);
    assert.equal(badRole.stdout, '');
    const missing = runAdmin(['create-account', '--name', 'No Owner'], env);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /--owner-name is required/);
    const noAccount = runAdmin(
      [
        'create-user',
        '--account',
        '999999999',
        '--role',
        'Agent',
        '--name',
        'X',
        '--email',
        'x@acme.test',
      ],
      env,
    );
    assert.notEqual(noAccount.code, 0);
    assert.match(noAccount.stderr, /Account 999999999 does not exist/);
    const unknown = runAdmin(['fly-to-moon'], env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /Usage/);
  });
});

const insecure = new Agent({ connect: { rejectUnauthorized: false } });

async function isUp(port: number): Promise<boolean> {
  try {
    const res = await request(`https://127.0.0.1:${port}/health`, { dispatcher: insecure });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

describe('npm start: first run, HTTPS, graceful shutdown', () => {
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await insecure.close();
  });

  it(
    'creates the first owner once, serves HTTPS with that key, and stops cleanly on SIGTERM',
    {
      skip: process.env.TEST_DATABASE_URL
        ? 'the first-run owner needs an empty database; covered on SQLite'
        : false,
    },
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'hearth-start-'));
      const port = 30000 + Math.floor(Math.random() * 20000);
      const env = { ...freshEnv(dir), PORT: String(port) };
      try {
        const first = spawnServer(env);
        children.push(first.child);
        await waitFor(() => isUp(port));
        const keyFile = path.join(dir, 'owner-api-key');
        const key = readFileSync(keyFile, 'utf8').trim();
        assert.ok(first.output().includes(key), 'the key is printed once at first start');
        assert.equal(statSync(keyFile).mode & 0o777, 0o600);
        const linkFile = path.join(dir, 'setup-link');
        const setupLink = readFileSync(linkFile, 'utf8').trim();
        assert.match(setupLink, /^https:\/\/localhost:\d+\/set-password\?token=hpw_/);
        assert.ok(first.output().includes(setupLink), 'the setup link is printed once');
        assert.equal(statSync(linkFile).mode & 0o777, 0o600);
        const cert = readFileSync(path.join(dir, 'tls-cert.pem'), 'utf8');
        const dispatcher = new Agent({ connect: { ca: cert } });
        const res = await request(`https://localhost:${port}/v1/identity`, {
          headers: { authorization: basic(key) },
          dispatcher,
        });
        assert.equal(res.statusCode, 200);
        const identity = (await res.body.json()) as { account: { name: string } };
        assert.equal(identity.account.name, 'My Team');
        await dispatcher.close();
        first.child.kill('SIGTERM');
        assert.equal(await exitOf(first.child), 0);

        const second = spawnServer(env);
        children.push(second.child);
        await waitFor(() => isUp(port));
        assert.doesNotMatch(second.output(), /Owner API key/, 'no second owner on a later start');
        second.child.kill('SIGTERM');
        assert.equal(await exitOf(second.child), 0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('stops at start-up with one line naming a bad variable', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hearth-badcfg-'));
    try {
      const bad = spawnServer({ ...freshEnv(dir), PORT: 'eighty' });
      children.push(bad.child);
      assert.equal(await exitOf(bad.child), 1);
      const lines = bad.output().trim().split('\n');
      assert.equal(lines.length, 1);
      assert.match(lines[0], /PORT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
