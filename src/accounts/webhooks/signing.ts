import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../platform/config.js';
import { ensurePrivateDir } from '../../platform/private-files.js';

/**
 * Interface part 6 rule 6: lowercase hex HMAC-SHA256, keyed with the system key, over the base64
 * of the exact body bytes sent.
 */
export function hearthSignature(systemKey: string, body: string | Buffer): string {
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return createHmac('sha256', systemKey).update(raw.toString('base64')).digest('hex');
}

/**
 * Standard Webhooks (standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`.
 * The HMAC key is the system key's UTF-8 bytes (a `whsec_` secret would be base64 of those bytes).
 */
export function standardSignature(
  systemKey: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  return `v1,${createHmac('sha256', systemKey).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The server secret that encrypts system keys at rest: HEARTH_SECRET when set (required when
 * several instances share a database), otherwise 32 random bytes generated once into
 * `<data dir>/secret` (mode 0600).
 */
export function serverSecret(config: Pick<Config, 'secret' | 'dataDir'>): string {
  if (config.secret) return config.secret;
  const file = path.join(config.dataDir, 'secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  ensurePrivateDir(config.dataDir);
  try {
    // 'wx': when two processes start together, exactly one secret wins and both read it.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}

function keyFromSecret(secret: string): { key: Buffer; keyId: string } {
  const key = createHash('sha256').update(`hearth webhook signing keys\u0000${secret}`).digest();
  return { key, keyId: createHash('sha256').update(key).digest('hex').slice(0, 8) };
}

export class SigningKeyUnavailable extends Error {}

/** AES-256-GCM; the output names the secret it was made with, so a mismatch is reported clearly. */
export function encryptSystemKey(secret: string, systemKey: string): string {
  const { key, keyId } = keyFromSecret(secret);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(systemKey, 'utf8'), cipher.final()]);
  return [
    'v1',
    keyId,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join(':');
}

export function decryptSystemKey(secret: string, stored: string): string {
  const [version, keyId, iv, tag, ciphertext] = stored.split(':');
  const { key, keyId: ours } = keyFromSecret(secret);
  if (version !== 'v1' || !iv || !tag || !ciphertext)
    throw new SigningKeyUnavailable('stored signing key is malformed');
  if (keyId !== ours) {
    throw new SigningKeyUnavailable(
      'the signing key was encrypted with a different server secret; give every instance the same HEARTH_SECRET',
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new SigningKeyUnavailable('the stored signing key failed authentication');
  }
}
