import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 4.1/4.2: verifier and S256 challenge are 43–128 unreserved characters. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isValidPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

/** S256: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isValidPkceValue(verifier)) return false;
  const a = Buffer.from(s256Challenge(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
