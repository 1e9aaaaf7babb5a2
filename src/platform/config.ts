import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ConfigError,
  type Env,
  fail,
  fileVar,
  flagVar,
  intVar,
  secondsListVar,
  urlVar,
} from './config-vars.js';
import { isEmailAddress } from './email-address.js';
import { type InboundConfig, inboundVar } from './config-inbound.js';
import { type MailboxConfig, mailboxVar } from './config-mailbox.js';

export { ConfigError };
export type { InboundConfig };

const DEFAULT_OWNER_EMAIL = 'owner@localhost';

export type Role = 'all' | 'api' | 'worker';

export interface RateLimitOverrides {
  withSystemKey?: Record<string, number>;
  withoutSystemKey?: Record<string, number>;
  systems?: Record<string, Record<string, number>>;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | null;
  dataDir: string;
  publicUrl: string;
  tlsCertFile: string | null;
  tlsKeyFile: string | null;
  trustProxy: boolean;
  role: Role;
  webhookAllowPrivate: boolean;
  webhookCaFile: string | null;
  webhookRetrySchedule: number[];
  webhookRetryWindow: number;
  webhookTimeout: number;
  /** HEARTH_METRICS_TOKEN: null = no /metrics; otherwise the bearer token a scraper presents. */
  metricsToken: string | null;
  /** HEARTH_WEBHOOK_CONCURRENCY: deliveries in flight at once to one webhook. */
  webhookConcurrency: number;
  signatureHeader: string;
  rateLimits: 'default' | 'off' | RateLimitOverrides;
  smtpUrl: string | null;
  enrichmentUrl: string | null;
  email: EmailConfig;
  /** HEARTH_OWNER_EMAIL: the first-start owner's email (default owner@localhost). */
  ownerEmail: string;
  /** HEARTH_SECRET: encrypts stored webhook signing keys; null = a secret generated once in the data dir. */
  secret: string | null;
  logLevel: string;
  /** HEARTH_REQUEST_TIMEOUT: seconds a client has to send a whole request (headers and body). */
  requestTimeout: number;
  /** HEARTH_MAX_CONNECTIONS: open client connections at most; more are closed on arrival. */
  maxConnections: number;
  /** HEARTH_TLS_HANDSHAKE_TIMEOUT: seconds a new connection has to complete its TLS handshake. */
  tlsHandshakeTimeout: number;
  /** ms one people-list request's queries may run before a 503 (src/platform/db/query-budget.ts) */
  listQueryBudgetMs: number;
  /**
   * HEARTH_LIST_CONCURRENCY: people-list reads running at once (SQLite read threads, PostgreSQL
   * list lanes); null = chosen from the CPU count and the database's host (src/platform/db/list-concurrency.ts).
   */
  listConcurrency: number | null;
  /**
   * HEARTH_DB_SHORTCUTS (`on`): the hottest queries compiled once and, on SQLite, group commit and
   * remembered list reads. `compiled`: the first alone; `off`: plain Kysely, each transaction
   * committing alone.
   * Only for `npm run bench -- machinery`, which measures what each buys.
   */
  dbShortcuts: DbShortcuts;
  inbound: InboundConfig;
  mailbox: MailboxConfig;
}

/** Built-in campaign email (HEARTH_SMTP_URL is the server it goes through). */
export interface EmailConfig {
  /** HEARTH_EMAIL_FROM: sender when the campaign's user has no address (and the envelope sender). */
  from: string | null;
  /** HEARTH_EMAIL_RATE: messages per second at most; 0 = as fast as the server takes them. */
  rate: number;
  /** HEARTH_EMAIL_CONNECTIONS: SMTP connections kept open per worker. */
  connections: number;
  /** HEARTH_EMAIL_RETRY_SCHEDULE: seconds before each retry after an SMTP 4xx; then soft-bounce. */
  retrySchedule: number[];
  /** HEARTH_DKIM_DOMAIN + HEARTH_DKIM_SELECTOR + HEARTH_DKIM_KEY_FILE, all or none. */
  dkim: { domainName: string; keySelector: string; privateKey: string } | null;
  /** HEARTH_BOUNCE_SECRET: the bearer secret of POST /e/bounces (bounce reports); unset = off. */
  bounceSecret: string | null;
}

/** The database shortcuts (HEARTH_DB_SHORTCUTS); all on unless measuring. */
export interface DbShortcuts {
  /** the hottest queries compiled once (reusable-query.ts), SQLite's by-id reads on the read connection */
  compiledQueries: boolean;
  /** SQLite: transactions that queue up share one COMMIT (sqlite/group-commit.ts) */
  groupCommit: boolean;
  /** SQLite: list totals and pages reused until content changes (remembered-reads.ts) */
  rememberedReads: boolean;
}

/** Thrown for a bad configuration value; its message is the one line printed at start-up. */
function dbShortcutsVar(env: Env): DbShortcuts {
  const raw = env.HEARTH_DB_SHORTCUTS;
  if (raw === undefined || raw === '' || raw === 'on')
    return { compiledQueries: true, groupCommit: true, rememberedReads: true };
  if (raw === 'compiled')
    return { compiledQueries: true, groupCommit: false, rememberedReads: false };
  if (raw === 'off') return { compiledQueries: false, groupCommit: false, rememberedReads: false };
  fail('HEARTH_DB_SHORTCUTS', `must be on, compiled or off, got "${raw}"`);
}

function databaseUrlVar(env: Env, dataDir: string): string {
  const raw = env.DATABASE_URL;
  if (!raw) return `sqlite:${path.join(dataDir, 'hearth.db')}`;
  if (raw === 'sqlite::memory:') return raw;
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length);
    if (!path.isAbsolute(file)) fail('DATABASE_URL', `sqlite path must be absolute, got "${file}"`);
    return raw;
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      fail('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return raw;
  }
  fail('DATABASE_URL', 'must start with sqlite: or postgres://');
}

function retryScheduleVar(env: Env): number[] {
  return secondsListVar(env, 'HEARTH_WEBHOOK_RETRY_SCHEDULE', [60, 300, 300, 600, 1800]);
}

/** HEARTH_OWNER_EMAIL: the email of the owner made on the first start. */
function ownerEmailVar(env: Env): string {
  const email = env.HEARTH_OWNER_EMAIL?.trim() || DEFAULT_OWNER_EMAIL;
  if (!isEmailAddress(email))
    fail('HEARTH_OWNER_EMAIL', `must be an email address, got "${email}"`);
  return email.toLowerCase();
}

function bounceSecretVar(env: Env): string | null {
  const secret = env.HEARTH_BOUNCE_SECRET?.trim() || null;
  if (secret !== null && secret.length < 24)
    fail('HEARTH_BOUNCE_SECRET', 'must be at least 24 characters (e.g. openssl rand -hex 24)');
  return secret;
}

function emailVar(env: Env): EmailConfig {
  const from = env.HEARTH_EMAIL_FROM?.trim() || null;
  if (from !== null && !isEmailAddress(from))
    fail('HEARTH_EMAIL_FROM', `must be an email address, got "${from}"`);
  const dkimVars = ['HEARTH_DKIM_DOMAIN', 'HEARTH_DKIM_SELECTOR', 'HEARTH_DKIM_KEY_FILE'];
  const given = dkimVars.filter((name) => env[name]);
  if (given.length > 0 && given.length < dkimVars.length)
    fail(
      dkimVars.find((name) => !env[name])!,
      'must be set together with the other HEARTH_DKIM_ variables',
    );
  const keyFile = fileVar(env, 'HEARTH_DKIM_KEY_FILE');
  return {
    from,
    rate: intVar(env, 'HEARTH_EMAIL_RATE', 0, 0, 100_000),
    connections: intVar(env, 'HEARTH_EMAIL_CONNECTIONS', 5, 1, 100),
    retrySchedule: secondsListVar(env, 'HEARTH_EMAIL_RETRY_SCHEDULE', [60, 300, 900, 3600, 10800]),
    bounceSecret: bounceSecretVar(env),
    dkim: keyFile
      ? {
          domainName: env.HEARTH_DKIM_DOMAIN!,
          keySelector: env.HEARTH_DKIM_SELECTOR!,
          privateKey: readFileSync(keyFile, 'utf8'),
        }
      : null,
  };
}

function rateLimitsVar(env: Env): Config['rateLimits'] {
  const raw = env.HEARTH_RATE_LIMITS;
  if (!raw) return 'default';
  if (raw === 'off') return 'off';
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(raw, 'utf8'));
  } catch (err) {
    fail('HEARTH_RATE_LIMITS', `must be "off" or a readable JSON file: ${(err as Error).message}`);
  }
  if (!isLimitOverrides(parsed)) {
    fail(
      'HEARTH_RATE_LIMITS',
      'file must hold {"withSystemKey":{context:n},"withoutSystemKey":{…},"systems":{name:{context:n}}}',
    );
  }
  return parsed;
}

function isLimitTable(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((n) => Number.isInteger(n) && (n as number) >= 0);
}

function isLimitOverrides(value: unknown): value is RateLimitOverrides {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const allowed = ['withSystemKey', 'withoutSystemKey', 'systems'];
  if (Object.keys(v).some((k) => !allowed.includes(k))) return false;
  if (!isLimitTable(v.withSystemKey) || !isLimitTable(v.withoutSystemKey)) return false;
  if (v.systems === undefined) return true;
  if (typeof v.systems !== 'object' || v.systems === null) return false;
  return Object.values(v.systems).every(isLimitTable);
}

function secretVar(env: Env): string | null {
  const raw = env.HEARTH_SECRET;
  if (!raw) return null;
  if (raw.length < 32)
    fail(
      'HEARTH_SECRET',
      `must be at least 32 characters (e.g. openssl rand -base64 32), got ${raw.length}`,
    );
  return raw;
}

function metricsTokenVar(env: Env): string | null {
  const raw = env.HEARTH_METRICS_TOKEN;
  if (!raw) return null;
  if (raw.length < 16 || /\s/.test(raw))
    fail(
      'HEARTH_METRICS_TOKEN',
      'must be at least 16 characters without spaces (e.g. openssl rand -hex 24)',
    );
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevelVar(env: Env): string {
  const raw = env.HEARTH_LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(raw))
    fail('HEARTH_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const port = intVar(env, 'PORT', 8443, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const dataDir = path.resolve(env.HEARTH_DATA_DIR || './data');
  const tlsCertFile = fileVar(env, 'HEARTH_TLS_CERT');
  const tlsKeyFile = fileVar(env, 'HEARTH_TLS_KEY');
  if ((tlsCertFile === null) !== (tlsKeyFile === null)) {
    fail(tlsCertFile ? 'HEARTH_TLS_KEY' : 'HEARTH_TLS_CERT', 'must be set together with its pair');
  }
  const role = (env.HEARTH_ROLE || 'all') as Role;
  if (!['all', 'api', 'worker'].includes(role))
    fail('HEARTH_ROLE', `must be all, api or worker, got "${role}"`);
  const publicUrl = (
    urlVar(env, 'HEARTH_PUBLIC_URL', ['https:', 'http:']) ?? `https://localhost:${port}`
  ).replace(/\/+$/, '');
  const signatureHeader = env.HEARTH_SIGNATURE_HEADER || 'Hearth-Signature';
  if (!/^[A-Za-z0-9-]+$/.test(signatureHeader))
    fail('HEARTH_SIGNATURE_HEADER', 'must be a valid header name');
  return Object.freeze({
    port,
    host,
    databaseUrl: databaseUrlVar(env, dataDir),
    redisUrl: urlVar(env, 'REDIS_URL', ['redis:', 'rediss:']),
    dataDir,
    publicUrl,
    tlsCertFile,
    tlsKeyFile,
    trustProxy: flagVar(env, 'HEARTH_TRUST_PROXY'),
    role,
    webhookAllowPrivate: flagVar(env, 'HEARTH_WEBHOOK_ALLOW_PRIVATE'),
    webhookCaFile: fileVar(env, 'HEARTH_WEBHOOK_CA'),
    webhookRetrySchedule: retryScheduleVar(env),
    webhookRetryWindow: intVar(env, 'HEARTH_WEBHOOK_RETRY_WINDOW', 28800, 1, 30 * 86400),
    webhookTimeout: intVar(env, 'HEARTH_WEBHOOK_TIMEOUT', 10, 1, 300),
    webhookConcurrency: intVar(env, 'HEARTH_WEBHOOK_CONCURRENCY', 32, 1, 256),
    metricsToken: metricsTokenVar(env),
    signatureHeader,
    rateLimits: rateLimitsVar(env),
    smtpUrl: urlVar(env, 'HEARTH_SMTP_URL', ['smtp:', 'smtps:']),
    enrichmentUrl: urlVar(env, 'HEARTH_ENRICHMENT_URL', ['https:', 'http:']),
    email: emailVar(env),
    ownerEmail: ownerEmailVar(env),
    secret: secretVar(env),
    logLevel: logLevelVar(env),
    requestTimeout: intVar(env, 'HEARTH_REQUEST_TIMEOUT', 60, 1, 3600),
    maxConnections: intVar(env, 'HEARTH_MAX_CONNECTIONS', 4096, 1, 1_000_000),
    tlsHandshakeTimeout: intVar(env, 'HEARTH_TLS_HANDSHAKE_TIMEOUT', 10, 1, 120),
    listQueryBudgetMs: intVar(env, 'HEARTH_LIST_QUERY_MS', 1000, 10, 60_000),
    listConcurrency: env.HEARTH_LIST_CONCURRENCY
      ? intVar(env, 'HEARTH_LIST_CONCURRENCY', 0, 1, 64)
      : null,
    dbShortcuts: dbShortcutsVar(env),
    inbound: inboundVar(env, publicUrl),
    mailbox: mailboxVar(env),
  });
}
