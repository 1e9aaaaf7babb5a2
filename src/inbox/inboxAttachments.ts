import { badRequest } from '../platform/http/errors.js';
import { mimeTypeOf } from '../contacts/attachments/attachments.shared.js';

/** The MIME types the real API takes for inbox app attachments. */
export const ATTACHMENT_MIME_TYPES = [
  'image/png',
  'image/jpg',
  'image/jpeg',
  'image/gif',
  'application/pdf',
] as const;

export interface InboxAttachment {
  filename: string;
  url: string;
  mimeType: string;
}

/**
 * An absolute https address without credentials. It is only stored and shown: Hearth never
 * fetches it (not on the request path, not later), so there is no address check beyond this.
 */
function httpsUrl(value: string, field: string): string {
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null;
  if (!url || url.protocol !== 'https:' || url.username || url.password)
    throw badRequest(`'${field}' must be an absolute https URL without credentials`, [
      { field, message: 'invalid URL' },
    ]);
  return url.href;
}

/** Checks a message's attachments: https URLs, a supported type (given, or told by the name). */
export function checkAttachments(
  list: { filename: string; url: string; mimeType?: string }[] | undefined,
): InboxAttachment[] {
  return (list ?? []).map((a, i) => {
    const url = httpsUrl(a.url, `attachments[${i}].url`);
    const mimeType = a.mimeType ?? mimeTypeOf(a.filename);
    if (!(ATTACHMENT_MIME_TYPES as readonly string[]).includes(mimeType))
      throw badRequest(
        `'attachments[${i}]': '${a.filename}' is ${mimeType}; attachments are ${ATTACHMENT_MIME_TYPES.join(', ')} (send mimeType if the name does not tell)`,
        [{ field: `attachments[${i}].mimeType`, message: 'unsupported type' }],
      );
    return { filename: a.filename, url, mimeType };
  });
}

export function checkRichObjects(list: string[] | undefined): string[] {
  return (list ?? []).map((u, i) => httpsUrl(u, `richObjects[${i}]`));
}

function parseList(text: string): unknown[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

export const storedAttachments = (text: string) => parseList(text) as InboxAttachment[];
export const storedRichObjects = (text: string) => parseList(text) as string[];
