// Verifying a Hearth webhook delivery (Node.js 18+, no dependencies).
// `rawBody` must be the exact bytes received (read the body as a Buffer/string before any JSON parsing).
import { createHmac, timingSafeEqual } from 'node:crypto';

function safeEqual(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Scheme 1, the Hearth-Signature header: lowercase hex HMAC-SHA256, keyed with your system key,
 * over the base64 encoding of the raw body.
 */
export function verifyHearthSignature(rawBody, signatureHeader, systemKey) {
  if (typeof signatureHeader !== 'string') return false;
  const base64Body = Buffer.from(rawBody).toString('base64');
  const expected = createHmac('sha256', systemKey).update(base64Body).digest('hex');
  return safeEqual(expected, signatureHeader);
}

/**
 * Scheme 2, Standard Webhooks: `webhook-signature` holds one or more `v1,<base64>` values, each
 * an HMAC-SHA256 (key: your system key's UTF-8 bytes) of `${webhook-id}.${webhook-timestamp}.${body}`.
 * Deliveries older than `toleranceSeconds` are refused to stop replays.
 */
export function verifyStandardWebhook(
  rawBody,
  headers,
  systemKey,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', systemKey)
    .update(`${id}.${timestamp}.${Buffer.from(rawBody).toString('utf8')}`)
    .digest('base64');
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    return version === 'v1' && value !== undefined && safeEqual(expected, value);
  });
}
