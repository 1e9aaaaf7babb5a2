import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/platform/config.js';
import { createContext, ensureFirstOwner } from '../../src/app/bootstrap.js';
import { createAccount } from '../../src/accounts/accounts.service.js';
import { runAdmin } from '../support/process.js';
import { startServer, unique } from '../support/server.js';
import { login } from '../support/auth.js';

const PASSWORD = 'lantern-harbor-plum-77';
const dirs: string[] = [];

function freshEnv(extra: Record<string, string> = {}): Record<string, string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-owner-'));
  dirs.push(dir);
  return {
    HEARTH_DATA_DIR: dir,
    DATABASE_URL: process.env.TEST_DATABASE_URL || `sqlite:${path.join(dir, 'hearth.db')}`,
    HEARTH_LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** What the server does on its first start against an empty database. */
async function firstStart(env: Record<string, string>) {
  const ctx = await createContext(loadConfig(env), { log: pino({ level: 'silent' }) });
  try {
    return await ensureFirstOwner(ctx);
  } finally {
    await ctx.db.destroy();
  }
}

/** Signs in on a server over the same database: the password the CLI set is the one that works. */
async function signsIn(env: Record<string, string>, email: string, password: string) {
  const server = await startServer({ env: { DATABASE_URL: env.DATABASE_URL! } });
  try {
    return (await login(server, email, password)).status;
  } finally {
    await server.close();
  }
}

describe('set-password works for every user Hearth made', () => {
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const firstRunOnly = {
    skip: process.env.TEST_DATABASE_URL
      ? 'the first-start owner needs an empty database; covered on SQLite'
      : false,
  };

  it(
    'the first-start owner, owner@localhost, gets a password from the CLI',
    firstRunOnly,
    async () => {
      const env = freshEnv();
      const owner = await firstStart(env);
      assert.equal(owner?.email, 'owner@localhost');
      const res = runAdmin(['set-password', '--email', 'owner@localhost'], env, `${PASSWORD}\n`);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(JSON.parse(res.stdout).user.email, 'owner@localhost');
      assert.equal(await signsIn(env, 'owner@localhost', PASSWORD), 200);
    },
  );

  it('HEARTH_OWNER_EMAIL names the first-start owner', firstRunOnly, async () => {
    const env = freshEnv({ HEARTH_OWNER_EMAIL: 'Broker@Example.com' });
    const owner = await firstStart(env);
    assert.equal(owner?.email, 'broker@example.com');
    const res = runAdmin(['set-password', '--email', 'broker@example.com'], env, `${PASSWORD}\n`);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(await signsIn(env, 'broker@example.com', PASSWORD), 200);
  });

  it('any address with a single-label domain is accepted; a bad one is refused', async () => {
    const env = freshEnv();
    const ctx = await createContext(loadConfig(env), { log: pino({ level: 'silent' }) });
    const email = `${unique('admin')}@intranet`.toLowerCase();
    try {
      await createAccount(ctx.db, { name: 'Intranet', ownerName: 'Admin', ownerEmail: email });
    } finally {
      await ctx.db.destroy();
    }
    const res = runAdmin(['set-password', '--email', email], env, `${PASSWORD}\n`);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(JSON.parse(res.stdout).user.email, email);
    const bad = runAdmin(['set-password', '--email', 'not an address'], env, `${PASSWORD}\n`);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--email must be an email address/);
  });
});
