import { writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import pino from 'pino';
import type { Config } from '../platform/config.js';
import type { AppContext } from '../platform/context.js';
import { openDatabase } from '../platform/db/connect.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { createAccount } from '../accounts/accounts.service.js';
import { createPasswordToken, SETUP_LINK_MS, setPasswordLink } from '../accounts/auth/links.js';
import { type Clock, systemClock } from '../platform/time.js';
import { ensurePrivateDir } from '../platform/private-files.js';

export function createLogger(config: Config) {
  return pino({
    level: config.logLevel,
    // Keys travel in Authorization and X-System-Key: never let a log line carry them.
    // The session cookie and CSRF token likewise (a logged cookie is a stolen session).
    redact: [
      'req.headers.authorization',
      'req.headers["x-system-key"]',
      'req.headers.cookie',
      'req.headers["x-csrf-token"]',
      'res.headers["set-cookie"]',
    ],
  });
}

/** Opens the database and brings its schema up to date: everything a process needs before work. */
export async function createContext(
  config: Config,
  options: { clock?: Clock; log?: AppContext['log'] } = {},
): Promise<AppContext> {
  const log = options.log ?? createLogger(config);
  ensurePrivateDir(config.dataDir);
  const { db, dialect } = openDatabase(config.databaseUrl, {
    ...config.dbShortcuts,
    listConcurrency: config.listConcurrency,
    onBackgroundError: (message) =>
      log.warn({ error: message }, 'background WAL checkpoint failed'),
  });
  await migrateToLatest(db, dialect);
  // SQLite: start the read threads now, so no request waits for them to start. A worker serves no
  // requests: its jobs start them on first use, if ever (each thread is a V8 isolate, ~10 MB).
  if (config.role !== 'worker') db.heavyReads();
  const smtp = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  return { config, db, dialect, clock: options.clock ?? systemClock, log, smtp };
}

/** Closes what createContext opened. */
export async function closeContext(ctx: AppContext): Promise<void> {
  ctx.smtp?.close();
  await ctx.db.destroy();
}

/**
 * On the first start against an empty database: an account "My Team" and its owner (email
 * HEARTH_OWNER_EMAIL), whose key is printed once and written to owner-api-key in the data dir
 * (mode 0600), with a one-time link to choose the owner's password, written to setup-link (mode
 * 0600) beside it.
 */
export async function ensureFirstOwner(
  ctx: AppContext,
): Promise<{ apiKey: string; setupLink: string; email: string } | null> {
  const existing = await ctx.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const created = await createAccount(ctx.db, {
    name: 'My Team',
    ownerName: 'Owner',
    ownerEmail: ctx.config.ownerEmail,
  });
  const { token } = await ctx.db.transaction().execute((trx) =>
    createPasswordToken(
      trx,
      {
        accountId: created.account.id,
        userId: created.user.id,
        purpose: 'setup',
        ttlMs: SETUP_LINK_MS,
      },
      ctx.clock.now(),
    ),
  );
  const setupLink = setPasswordLink(ctx.config, token);
  ensurePrivateDir(ctx.config.dataDir);
  writeFileSync(path.join(ctx.config.dataDir, 'owner-api-key'), `${created.apiKey}\n`, {
    mode: 0o600,
  });
  writeFileSync(path.join(ctx.config.dataDir, 'setup-link'), `${setupLink}\n`, { mode: 0o600 });
  return { apiKey: created.apiKey, setupLink, email: created.user.email };
}
