import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { COMMON_PASSWORDS } from './common-passwords.js';

/**
 * Passwords are hashed with scrypt from node:crypto (no native addon to build). N=2^15, r=8, p=1
 * costs 32 MiB and about 50-100 ms here: slow for a guesser, fine for a sign-in. The parameters
 * travel in the stored string, so they can be raised later without breaking existing hashes.
 */
const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 12;
/** Longer input only costs the server time; no one types more. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

interface StoredHash {
  /** `scrypt$N$r$p$salt`: everything a derivation depends on besides the password. */
  setting: string;
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return null;
  const setting = stored.slice(0, stored.lastIndexOf('$'));
  const params = { n: Number(n), r: Number(r), p: Number(p) };
  return {
    setting,
    ...params,
    salt: Buffer.from(salt, 'base64url'),
    key: Buffer.from(key, 'base64url'),
  };
}

/**
 * `scrypt$N$r$p$salt$key`, salt and key in base64url. With `sameSettingAs` (another user's hash)
 * the new hash reuses its salt and parameters: users sharing an email share them, so one
 * derivation checks a password against all of them (findMatchingHash).
 */
export async function hashPassword(password: string, sameSettingAs?: string): Promise<string> {
  const like = sameSettingAs ? parseHash(sameSettingAs) : null;
  const { n, r, p } = like ?? { n: COST, r: BLOCK_SIZE, p: PARALLELISM };
  const salt = like?.salt ?? randomBytes(16);
  const key = await derive(password, salt, n, r, p);
  return ['scrypt', n, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether two stored hashes share salt and parameters (one derivation checks both). */
export function sameSetting(a: string, b: string): boolean {
  const [x, y] = [parseHash(a), parseHash(b)];
  return x !== null && x.setting === y?.setting;
}

const sameKey = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await findMatchingHash(password, [stored])) === 0;
}

/**
 * The index of the stored hash the password matches, or -1. One derivation per distinct salt
 * and parameters, in the order given: hashes sharing them (one email's users) cost one together.
 */
export async function findMatchingHash(password: string, stored: string[]): Promise<number> {
  const hashes = stored.map(parseHash);
  const tried = new Set<string>();
  for (const hash of hashes) {
    if (!hash || tried.has(hash.setting)) continue;
    tried.add(hash.setting);
    const key = await derive(password, hash.salt, hash.n, hash.r, hash.p);
    const match = hashes.findIndex((h) => h?.setting === hash.setting && sameKey(key, h.key));
    if (match !== -1) return match;
  }
  return -1;
}

/** A hash of nothing anyone knows: verified when no user matches, so both cases take as long. */
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return decoyHash;
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `Password must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  const folded = password.toLowerCase();
  if (COMMON_PASSWORDS.has(folded) || /^(.)\1*$/.test(folded))
    return 'Password is too common; choose one that is not on lists of frequently used passwords';
  const mailbox = email?.toLowerCase().split('@')[0] ?? '';
  if (mailbox.length >= 4 && folded.includes(mailbox) && folded.length - mailbox.length < 8)
    return 'Password must not be built from your email address';
  return null;
}
