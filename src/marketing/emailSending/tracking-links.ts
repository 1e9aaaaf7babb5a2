import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A recipient's tracking key: 144 random bits, no id inside, looked up by its value. */
export function newRecipientToken(): string {
  return randomBytes(18).toString('base64url');
}

const TOKEN = /^[A-Za-z0-9_-]{24}$/;
export const isRecipientToken = (value: string) => TOKEN.test(value);

/** Keys derived from the server secret, one per use, so a signature cannot serve another purpose. */
export function linkKeys(secret: string) {
  const derive = (purpose: string) => createHmac('sha256', secret).update(purpose).digest();
  return {
    click: derive('hearth email click v1'),
    messageId: derive('hearth email message-id v1'),
  };
}
export type LinkKeys = ReturnType<typeof linkKeys>;

function mac(key: Buffer, ...parts: string[]): string {
  return createHmac('sha256', key).update(parts.join('\n')).digest('base64url').slice(0, 27);
}

/** The signature that lets /e/c/:token redirect to `url`: only links Hearth put in the message. */
export const clickSignature = (keys: LinkKeys, token: string, url: string) =>
  mac(keys.click, token, url);

export function validClickSignature(keys: LinkKeys, token: string, url: string, sig: string) {
  const expected = Buffer.from(clickSignature(keys, token, url));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The same Message-ID every time a recipient's message is built (mailboxes drop repeats): the
 * recipient's token and its signature, so a bounce report that quotes it finds the recipient.
 */
export const messageIdOf = (keys: LinkKeys, token: string, host: string) =>
  `<${token}.${mac(keys.messageId, token).slice(0, 16)}@${host}>`;

/** The recipient token in a Message-ID Hearth made (its signature checked), else null. */
export function tokenOfMessageId(keys: LinkKeys, messageId: string): string | null {
  const match = /^<?([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{16})@[^>\s]+>?$/.exec(messageId.trim());
  if (!match) return null;
  const expected = Buffer.from(mac(keys.messageId, match[1]).slice(0, 16));
  const given = Buffer.from(match[2]);
  return timingSafeEqual(given, expected) ? match[1] : null;
}

export interface TrackingUrls {
  open: string;
  view: string;
  unsubscribe: string;
  click(url: string): string;
}

/** The public URLs of one recipient's message on HEARTH_PUBLIC_URL. */
export function trackingUrls(publicUrl: string, keys: LinkKeys, token: string): TrackingUrls {
  const base = `${publicUrl}/e`;
  return {
    open: `${base}/o/${token}.gif`,
    view: `${base}/v/${token}`,
    unsubscribe: `${base}/u/${token}`,
    click: (url) =>
      `${base}/c/${token}?u=${encodeURIComponent(url)}&s=${clickSignature(keys, token, url)}`,
  };
}
