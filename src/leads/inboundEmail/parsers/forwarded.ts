import { type Mail, readMail } from '../mime.js';

/**
 * A forwarded lead mail read as the original: Gmail's "Forwarded message", Outlook's "Original
 * Message" or "From:/Sent:" block, Apple Mail's "Begin forwarded message", or the original
 * attached whole. Forwards of forwards are unwrapped up to MAX_DEPTH times.
 */
const MAX_DEPTH = 3;
const MARKER =
  /^\s*(?:-{5,}\s*Forwarded message\s*-{5,}|-{3,}\s*Original Message\s*-{3,}|Begin forwarded message:|_{20,})\s*$/im;
const HEADER = /^\s*[*>]*\s*(From|Date|Sent|Subject|To|Cc|Reply-To)\s*:\s*[*]*\s*(.*)$/i;

function addressIn(value: string): { name: string; address: string } | null {
  const angled = /^(.*?)<([^<>\s]+@[^<>\s]+)>/.exec(value);
  if (angled)
    return { name: angled[1].replace(/["*]/g, '').trim(), address: angled[2].toLowerCase() };
  const bare = /[^\s<>"*[\]]+@[^\s<>"*[\]]+/.exec(value);
  return bare ? { name: '', address: bare[0].replace(/[.,;]$/, '').toLowerCase() } : null;
}

/** The mail inside a forward's text, or null when the text holds none. */
function unwrapText(mail: Mail): Mail | null {
  const marker = MARKER.exec(mail.text);
  const start = marker
    ? marker.index + marker[0].length
    : /^\s*From:.*\n\s*Sent:/im.exec(mail.text)?.index;
  if (start === undefined) return null;
  const lines = mail.text
    .slice(start)
    .replace(/^\s*\n/, '')
    .split(/\r?\n/);
  const headers = new Map<string, string>();
  let i = 0;
  for (; i < lines.length && i < 20; i++) {
    const match = HEADER.exec(lines[i]);
    if (!match) break;
    headers.set(match[1].toLowerCase(), match[2].trim());
  }
  const from = headers.get('from');
  if (!from) return null;
  const when = Date.parse((headers.get('date') ?? headers.get('sent') ?? '').replace(/ at /, ' '));
  const body = lines
    .slice(i)
    .map((line) => line.replace(/^> ?/, ''))
    .join('\n')
    .trim();
  return {
    ...mail,
    subject: headers.get('subject') ?? mail.subject,
    from: addressIn(from),
    replyTo: headers.has('reply-to') ? addressIn(headers.get('reply-to')!) : null,
    date: Number.isNaN(when) ? mail.date : new Date(when),
    text: body,
  };
}

/** The original of a forwarded mail; the mail itself when it is no forward. */
export async function unwrapForwards(mail: Mail, depth = 0): Promise<Mail> {
  if (depth >= MAX_DEPTH) return mail;
  if (mail.attachedMessages.length) {
    const inner = await readMail(mail.attachedMessages[0]).catch(() => null);
    if (inner) return unwrapForwards(inner, depth + 1);
  }
  const inner = unwrapText(mail);
  return inner ? unwrapForwards({ ...inner, attachedMessages: [] }, depth + 1) : mail;
}
