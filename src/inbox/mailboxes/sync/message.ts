import { createHash } from 'node:crypto';
import type { AddressObject, ParsedMail } from 'mailparser';
import { decodeMail, htmlText, printable } from '../../../leads/inboundEmail/mime.js';
import { sanitizeEmailHtml } from '../sanitize.js';

/** One message of a mailbox, decoded and bounded: what filing needs. */
export interface MailMessage {
  messageId: string;
  /** In-Reply-To then References, oldest first: the conversation this message answers. */
  references: string[];
  from: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  date: Date | null;
  subject: string;
  text: string;
  /** sanitised ('' without an HTML part) */
  html: string;
  /** a mailing list, a newsletter or an automatic message: never filed on a timeline */
  bulk: boolean;
}

const MAX_TEXT = 200 * 1024;

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const lists = Array.isArray(value) ? value : value ? [value] : [];
  const out: string[] = [];
  const walk = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.group) walk(entry.group);
      else if (entry.address) out.push(printable(entry.address).trim().toLowerCase());
    }
  };
  for (const list of lists) walk(list.value);
  return [...new Set(out)].slice(0, 200);
}

const ids = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? value.split(/\s+/) : [])
    .map((id) => printable(id).trim())
    .filter((id) => /^<[^<>\s]+>$/.test(id))
    .slice(-50);

/** Headers that mark mail sent to many or by a machine (RFC 2369, 3834, and Precedence). */
function isBulk(parsed: ParsedMail): boolean {
  const h = parsed.headers;
  // mailparser gathers the List-* headers (RFC 2369, 2919) into one `list` entry.
  if (h.has('list') || h.has('list-id') || h.has('list-unsubscribe')) return true;
  const precedence = String(h.get('precedence') ?? '').toLowerCase();
  if (['bulk', 'list', 'junk'].includes(precedence)) return true;
  const auto = String(h.get('auto-submitted') ?? 'no').toLowerCase();
  return auto !== 'no';
}

export async function readMessage(raw: Buffer): Promise<MailMessage> {
  return mailMessageOf(await decodeMail(raw), raw);
}

/**
 * What filing reads of a decoded message (decodeMail); a message without a Message-ID gets one
 * from its bytes, so a resync finds it again.
 */
export function mailMessageOf(parsed: ParsedMail, raw: Buffer): MailMessage {
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const plain = (parsed.text ?? '').trim();
  const messageId =
    ids(parsed.messageId)[0] ??
    `<${createHash('sha256').update(raw).digest('hex').slice(0, 40)}@hearth.invalid>`;
  const references = [...ids(parsed.references), ...ids(parsed.inReplyTo)].filter(
    (id, i, all) => id !== messageId && all.indexOf(id) === i,
  );
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null;
  return {
    messageId,
    references,
    from: addresses(parsed.from)[0] ?? null,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    bcc: addresses(parsed.bcc),
    date,
    subject: printable(parsed.subject ?? '')
      .trim()
      .slice(0, 1000),
    text: printable(plain || (html ? htmlText(html) : '')).slice(0, MAX_TEXT),
    html: html ? printable(sanitizeEmailHtml(html)) : '',
    bulk: isBulk(parsed),
  };
}
