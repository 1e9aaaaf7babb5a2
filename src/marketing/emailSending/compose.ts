import { escapeHtml } from '../../platform/http/html.js';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import DKIM from 'nodemailer/lib/dkim/index.js';
import type { EmailConfig } from '../../platform/config.js';
import { renderMergeFields, type MergeData } from '../templates/merge-fields.js';
import { decodeEntities, htmlToText } from './html-text.js';
import type { TrackingUrls } from './tracking-links.js';

export interface Content {
  subject: string;
  bodyHtml: string;
}

/** A campaign's subject and body merged for one recipient (values HTML-escaped in the body). */
export function mergeContent(content: Content, data: MergeData): Content {
  return {
    subject: renderMergeFields(content.subject, data).replace(/[\r\n]+/g, ' '),
    bodyHtml: renderMergeFields(content.bodyHtml, data, escapeHtml),
  };
}

const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi;

/** The message HTML: http(s) links through the click redirect, a footer and the open pixel. */
export function trackedHtml(
  bodyHtml: string,
  urls: TrackingUrls,
  options: { pixel: boolean } = { pixel: true },
): string {
  const linked = bodyHtml.replace(HREF, (_, start: string, quote: string, href: string) => {
    const tracked = escapeHtml(urls.click(decodeEntities(href)));
    return `${start}${quote}${tracked}${quote}`;
  });
  const footer =
    `<p style="font-size:12px;color:#666">` +
    `<a href="${escapeHtml(urls.view)}">View this email in your browser</a> · ` +
    `<a href="${escapeHtml(urls.unsubscribe)}">Unsubscribe</a></p>` +
    (options.pixel ? `<img src="${escapeHtml(urls.open)}" width="1" height="1" alt="">` : '');
  const bodyEnd = linked.search(/<\/body\s*>/i);
  return bodyEnd === -1
    ? linked + footer
    : linked.slice(0, bodyEnd) + footer + linked.slice(bodyEnd);
}

export interface MessageInput {
  content: Content;
  from: { name: string; address: string };
  envelopeFrom: string;
  to: string;
  messageId: string;
  urls: TrackingUrls;
  dkim: EmailConfig['dkim'];
}

function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** The whole MIME message (HTML + generated text, RFC 8058 headers, optional DKIM signature). */
export async function buildMessage(input: MessageInput): Promise<Buffer> {
  const html = trackedHtml(input.content.bodyHtml, input.urls);
  const composer = new MailComposer({
    from: input.from,
    sender: input.envelopeFrom === input.from.address ? undefined : input.envelopeFrom,
    to: input.to,
    subject: input.content.subject,
    html,
    text: `${htmlToText(html)}\n\nUnsubscribe: ${input.urls.unsubscribe}\n`,
    messageId: input.messageId,
    headers: {
      'List-Unsubscribe': `<${input.urls.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
  const raw = await composer.compile().build();
  if (!input.dkim) return raw;
  return collect(new DKIM(input.dkim).sign(raw));
}
