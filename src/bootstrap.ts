import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { createAccount } from './accounts/accounts.service.js';
import { type Clock, systemClock } from './time.js';

export function createLogger(config: Config) {
  return pino({
    level: config.logLevel,
    // Keys travel in Authorization and X-System-Key: never let a log line carry them.
    redact: ['req.headers.authorization', 'req.headers["x-system-key"]'],
  });
}

/** Opens the database and brings its schema up to date: everything a process needs before work. */
export async function createContext(config: Config, options: { clock?: Clock; log?: AppContext['log'] } = {}): Promise<AppContext> {
  const log = options.log ?? createLogger(config);
  const { db, dialect } = openDatabase(config.databaseUrl, { onBackgroundError: (message) => log.warn({ error: message }, 'background WAL checkpoint failed') });
  await migrateToLatest(db, dialect);
  return { config, db, dialect, clock: options.clock ?? systemClock, log };
}

/**
 * On the first start against an empty database: an account "My Team" and its owner, whose key is
 * printed once and written to owner-api-key in the data dir (mode 0600).
 */
export async function ensureFirstOwner(ctx: AppContext): Promise<string | null> {
  const existing = await ctx.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const created = await createAccount(ctx.db, { name: 'My Team', ownerName: 'Owner', ownerEmail: 'owner@localhost' });
  mkdirSync(ctx.config.dataDir, { recursive: true });
  const file = path.join(ctx.config.dataDir, 'owner-api-key');
  writeFileSync(file, `${created.apiKey}\n`, { mode: 0o600 });
  return created.apiKey;
}
