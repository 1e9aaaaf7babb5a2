import { badRequest } from '../../platform/http/errors.js';
import { checkCallbackHost, type Resolver, systemResolver } from './address-guard.js';

const MAX_URL_LENGTH = 2048;
/** API keys (hk_) and system keys (hsk_) are recognisable by their prefix wherever they hide in a URL. */
const KEY_PATTERN = /(^|[^A-Za-z0-9])hs?k_[A-Za-z0-9_-]{20,}/;

/**
 * Validates a callback URL for registration: absolute HTTPS, no credentials or keys in it
 * (interface part 5 item 6) and, unless private addresses are allowed, a host that resolves only
 * to public addresses.
 */
export async function validateCallbackUrl(
  raw: string,
  options: { allowPrivate: boolean; resolver?: Resolver },
): Promise<string> {
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH)
    throw badRequest(`Field 'url' must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`Field 'url' must be an absolute HTTPS URL, got '${text.slice(0, 200)}'`);
  }
  if (url.protocol !== 'https:')
    throw badRequest(`Field 'url' must be an HTTPS URL (got ${url.protocol.replace(/:$/, '')})`);
  if (url.username || url.password)
    throw badRequest("Field 'url' must not carry credentials (user:password@)");
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    /* keep the raw text */
  }
  if (KEY_PATTERN.test(text) || KEY_PATTERN.test(decoded)) {
    throw badRequest(
      "Field 'url' must not carry an API key or system key; deliveries are signed instead",
    );
  }
  if (!options.allowPrivate) {
    const reason = await checkCallbackHost(url, options.resolver ?? systemResolver);
    if (reason) throw badRequest(`Field 'url' is not allowed: ${reason}`);
  }
  return url.href;
}
