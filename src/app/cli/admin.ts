// Admin command line: `npm run --silent admin -- <command> [--flag value …]`.
// Prints one JSON object on stdout and exits 0, or a clear error on stderr and exits non-zero.
import { loadConfig } from '../../platform/config.js';
import { closeContext, createContext } from '../bootstrap.js';
import type { AppContext } from '../../platform/context.js';
import { migrateToLatest } from '../../platform/db/migrate.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import {
  createAccount,
  createSystem,
  createUser,
  USER_ROLES,
  type UserRole,
} from '../../accounts/accounts.service.js';
import { parseFlags, requiredString } from './args.js';
import { setRateLimit } from '../../accounts/rateLimit/overrides.js';
import { createOAuthClientCommand } from '../../accounts/oauth/clients.js';
import { isEmailAddress } from '../../platform/email-address.js';
import pino from 'pino';
import { readFirstLine, setPasswordCommand } from '../../accounts/auth/setPasswordCommand.js';

type Flags = ReturnType<typeof parseFlags>;

/** Any address Hearth accepts, the first-start owner's `owner@localhost` included. */
function email(flags: Flags, name: string): string {
  const value = requiredString(flags, name);
  if (!isEmailAddress(value)) throw new Error(`--${name} must be an email address, got '${value}'`);
  return value;
}

function accountId(flags: Flags): number {
  const raw = requiredString(flags, 'account');
  if (!/^\d+$/.test(raw))
    throw new Error(`--account must be an account id (a number), got '${raw}'`);
  return Number(raw);
}

const commands: Record<string, (ctx: AppContext, flags: Flags) => Promise<unknown>> = {
  async 'create-account'(ctx, flags) {
    const created = await createAccount(ctx.db, {
      name: requiredString(flags, 'name'),
      ownerName: requiredString(flags, 'owner-name'),
      ownerEmail: email(flags, 'owner-email'),
    });
    return { account: created.account, user: created.user, apiKey: created.apiKey };
  },
  async 'create-user'(ctx, flags) {
    const role = requiredString(flags, 'role') as UserRole;
    if (!USER_ROLES.includes(role))
      throw new Error(`--role must be one of ${USER_ROLES.join(', ')}, got '${role}'`);
    const id = accountId(flags);
    const account = await ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!account) throw new Error(`Account ${id} does not exist`);
    return createUser(ctx.db, {
      accountId: id,
      role,
      name: requiredString(flags, 'name'),
      email: email(flags, 'email'),
    });
  },
  async 'create-system'(ctx, flags) {
    const name = requiredString(flags, 'name');
    try {
      return await createSystem(ctx.db, name);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw new Error(
        `A system named "${name}" is already registered (its key was shown when it was created); choose another name`,
        { cause: err },
      );
    }
  },
  async 'set-rate-limit'(ctx, flags) {
    const optional = (name: string) =>
      flags[name] === undefined ? undefined : requiredString(flags, name);
    return setRateLimit(ctx.db, {
      context: requiredString(flags, 'context'),
      limit: requiredString(flags, 'limit'),
      system: optional('system'),
      tier: optional('tier'),
    });
  },
  async 'create-oauth-client'(ctx, flags) {
    return createOAuthClientCommand(ctx.db, flags);
  },
  async 'set-password'(ctx, flags) {
    return setPasswordCommand(ctx, {
      email: email(flags, 'email'),
      accountId: flags.account === undefined ? undefined : accountId(flags),
      password: await readFirstLine(process.stdin),
    });
  },
  async migrate(ctx) {
    return { migrated: await migrateToLatest(ctx.db, ctx.dialect) };
  },
};

function explain(err: unknown): string {
  if (isUniqueViolation(err)) return 'That email is already registered';
  return err instanceof Error ? err.message : String(err);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const run = command ? commands[command] : undefined;
  if (!run) {
    process.stderr.write(
      `Usage: npm run --silent admin -- <${Object.keys(commands).join('|')}> [--flag value …]\n`,
    );
    return 2;
  }
  let ctx: AppContext | null = null;
  try {
    const flags = parseFlags(rest);
    const config = loadConfig();
    // `migrate` reports what it applied, so the context must not migrate first.
    ctx =
      command === 'migrate'
        ? await openWithoutMigrating(config)
        : await createContext(config, { log: pino({ level: 'silent' }) });
    const result = await run(ctx, flags);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`Error: ${explain(err)}\n`);
    return 1;
  } finally {
    if (ctx) await closeContext(ctx);
  }
}

async function openWithoutMigrating(config: ReturnType<typeof loadConfig>): Promise<AppContext> {
  const { openDatabase } = await import('../../platform/db/connect.js');
  const { systemClock } = await import('../../platform/time.js');
  const { db, dialect } = openDatabase(config.databaseUrl);
  return { config, db, dialect, clock: systemClock, log: pino({ level: 'silent' }), smtp: null };
}

main(process.argv.slice(2)).then((code) => process.exit(code));
