import { createHash } from 'node:crypto';
import { convert } from 'html-to-text';
import type { AddressObject, ParsedMail } from 'mailparser';

/** What the parsers read of a message, decoded (mailparser) and bounded. */
export interface Mail {
  messageId: string | null;
  subject: string;
  from: { name: string; address: string } | null;
  replyTo: { name: string; address: string } | null;
  date: Date | null;
  /** the text part, or the HTML as text (tables as columns) when that reads better */
  text: string;
  /** the HTML part, at most MAX_HTML characters ('' without one) */
  html: string;
  /** messages attached whole (a forward "as attachment") */
  attachedMessages: Buffer[];
}

/** HTML beyond this is not read: a lead notification is a few KiB; a huge one is no lead. */
const MAX_HTML = 1024 * 1024;
const MAX_TEXT = 256 * 1024;

/** Control characters (NUL above all: PostgreSQL text refuses it) dropped from what is stored. */
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
export function printable(value: string): string {
  return value.replace(CONTROL, '');
}

function firstAddress(value: AddressObject | AddressObject[] | undefined) {
  const list = Array.isArray(value) ? value[0] : value;
  const first = list?.value[0];
  if (!first?.address) return null;
  return {
    name: printable(first.name ?? '').trim(),
    address: printable(first.address).trim().toLowerCase(),
  };
}

/** HTML as lines of text: tables become "Label   value" rows, links and images drop out. */
export function htmlText(html: string): string {
  return convert(html.slice(0, MAX_HTML), {
    wordwrap: false,
    selectors: [
      { selector: 'table', format: 'dataTable' },
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'script', format: 'skip' },
    ],
  });
}

/**
 * Decodes a message with mailparser, once: a mailbox's message is filed from this and, when it is
 * nobody's conversation, read by the lead parsers from the same decoding (mailOf). Broken MIME
 * decodes as far as it goes (mailparser is lenient).
 */
export async function decodeMail(raw: Buffer): Promise<ParsedMail> {
  // Loaded on the first message (0.3 s of CPU), not by every process that starts the app.
  const { simpleParser } = await import('mailparser');
  return simpleParser(raw, {
    skipImageLinks: true,
    skipTextToHtml: true,
    skipHtmlToText: true,
    maxHtmlLengthToParse: MAX_HTML,
  });
}

export async function readMail(raw: Buffer): Promise<Mail> {
  return mailOf(await decodeMail(raw));
}

/** What the lead parsers read of a decoded message. */
export function mailOf(parsed: ParsedMail): Mail {
  const html = typeof parsed.html === 'string' ? parsed.html.slice(0, MAX_HTML) : '';
  const plain = (parsed.text ?? '').trim();
  const text = printable(plain || (html ? htmlText(html) : '')).slice(0, MAX_TEXT);
  return {
    messageId:
      printable(parsed.messageId ?? '')
        .trim()
        .slice(0, 500) || null,
    subject: printable(parsed.subject ?? '')
      .trim()
      .slice(0, 1000),
    from: firstAddress(parsed.from),
    replyTo: firstAddress(parsed.replyTo),
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null,
    text,
    html,
    attachedMessages: parsed.attachments
      .filter((a) => a.contentType === 'message/rfc822')
      .map((a) => a.content),
  };
}

/** The key that makes a repeat land once: the Message-ID, else a hash of the bytes. */
export function messageKey(raw: Buffer): string {
  const messageId = rawHeader(raw, 'message-id')?.replace(/\s+/g, '');
  return messageId || `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

/** The header block's value of `name` (unfolded, undecoded), read without parsing the message. */
export function rawHeader(raw: Buffer, name: string): string | null {
  const head = raw.subarray(0, 64 * 1024).toString('latin1');
  const end = head.search(/\r?\n\r?\n/);
  const block = (end < 0 ? head : head.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const pattern = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im');
  const value = pattern.exec(block)?.[1];
  return value === undefined ? null : printable(value).trim().slice(0, 1000);
}
