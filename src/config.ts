import { readFileSync } from 'node:fs';
import path from 'node:path';

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
  signatureHeader: string;
  rateLimits: 'default' | 'off' | RateLimitOverrides;
  smtpUrl: string | null;
  enrichmentUrl: string | null;
  /** HEARTH_SECRET: encrypts stored webhook signing keys; null = a secret generated once in the data dir. */
  secret: string | null;
  logLevel: string;
}

/** Thrown for a bad configuration value; its message is the one line printed at start-up. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function fail(variable: string, problem: string): never {
  throw new ConfigError(`Invalid configuration: ${variable} ${problem}`);
}

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) fail(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) fail(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flagVar(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1' || raw === 'true') return true;
  fail(name, `must be 1 or unset, got "${raw}"`);
}

function fileVar(env: Env, name: string): string | null {
  const raw = env[name];
  if (!raw) return null;
  try {
    readFileSync(raw);
  } catch {
    fail(name, `names a file that cannot be read: ${raw}`);
  }
  return path.resolve(raw);
}

function urlVar(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(name, `is not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) fail(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  return raw;
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
  const raw = env.HEARTH_WEBHOOK_RETRY_SCHEDULE;
  if (!raw) return [60, 300, 300, 600, 1800];
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) {
    fail('HEARTH_WEBHOOK_RETRY_SCHEDULE', `must be a comma-separated list of seconds, got "${raw}"`);
  }
  return parts.map(Number);
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
    fail('HEARTH_RATE_LIMITS', 'file must hold {"withSystemKey":{context:n},"withoutSystemKey":{…},"systems":{name:{context:n}}}');
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
  if (raw.length < 32) fail('HEARTH_SECRET', `must be at least 32 characters (e.g. openssl rand -base64 32), got ${raw.length}`);
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevelVar(env: Env): string {
  const raw = env.HEARTH_LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(raw)) fail('HEARTH_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
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
  if (!['all', 'api', 'worker'].includes(role)) fail('HEARTH_ROLE', `must be all, api or worker, got "${role}"`);
  const publicUrl = (urlVar(env, 'HEARTH_PUBLIC_URL', ['https:', 'http:']) ?? `https://localhost:${port}`).replace(/\/+$/, '');
  const signatureHeader = env.HEARTH_SIGNATURE_HEADER || 'Hearth-Signature';
  if (!/^[A-Za-z0-9-]+$/.test(signatureHeader)) fail('HEARTH_SIGNATURE_HEADER', 'must be a valid header name');
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
    signatureHeader,
    rateLimits: rateLimitsVar(env),
    smtpUrl: urlVar(env, 'HEARTH_SMTP_URL', ['smtp:', 'smtps:']),
    enrichmentUrl: urlVar(env, 'HEARTH_ENRICHMENT_URL', ['https:', 'http:']),
    secret: secretVar(env),
    logLevel: logLevelVar(env),
  });
}
