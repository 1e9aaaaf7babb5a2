import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys and system keys are 32 random bytes (base64url) behind a short readable prefix.
 * Only their SHA-256 is stored: they are high-entropy secrets, so a slow KDF adds nothing.
 */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

// crypto.hash: the same digest as createHash's, without a Hash object per call.
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Compares a presented secret with a stored hash without leaking timing. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
