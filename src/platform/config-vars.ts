import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The generic readers of configuration variables; config.ts reads each of Hearth's with them. */

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function fail(variable: string, problem: string): never {
  throw new ConfigError(`Invalid configuration: ${variable} ${problem}`);
}

export function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) fail(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) fail(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function flagVar(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1' || raw === 'true') return true;
  fail(name, `must be 1 or unset, got "${raw}"`);
}

export function fileVar(env: Env, name: string): string | null {
  const raw = env[name];
  if (!raw) return null;
  try {
    readFileSync(raw);
  } catch {
    fail(name, `names a file that cannot be read: ${raw}`);
  }
  return path.resolve(raw);
}

export function urlVar(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(name, `is not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(url.protocol))
    fail(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  return raw;
}

export function secondsListVar(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (!raw) return fallback;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^\d+(\.\d+)?$/.test(p)))
    fail(name, `must be a comma-separated list of seconds, got "${raw}"`);
  return parts.map(Number);
}
