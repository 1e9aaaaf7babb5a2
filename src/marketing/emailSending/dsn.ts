/**
 * Reading a bounce report: an RFC 3464 delivery status notification (multipart/report with a
 * message/delivery-status part, and usually the original message or its headers). Pure and
 * forgiving: whatever it cannot read it leaves out; it never throws on garbage.
 */

export interface DsnRecipient {
  /** Final-Recipient (else Original-Recipient) address, as written. */
  email: string;
  /** failed, delayed, delivered, relayed or expanded (lower case); '' when missing. */
  action: string;
  /** The status code, e.g. 5.1.1; '' when missing or malformed. */
  status: string;
  diagnostic: string;
}

export interface DsnReport {
  recipients: DsnRecipient[];
  /** Message-IDs quoted in the returned message or headers (never the report's own). */
  messageIds: string[];
}

const MAX_BYTES = 512 * 1024;

/** Header-style fields of one block ("Name: value", continuation lines folded in), lower-case names. */
function fieldsOf(block: string): Map<string, string> {
  const fields = new Map<string, string>();
  let last: string | null = null;
  for (const line of block.split('\n')) {
    if (/^[ \t]/.test(line) && last) {
      fields.set(last, `${fields.get(last)} ${line.trim()}`);
      continue;
    }
    const match = /^([A-Za-z][A-Za-z0-9-]*)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    last = match[1].toLowerCase();
    if (!fields.has(last)) fields.set(last, match[2].trim());
  }
  return fields;
}

/** "rfc822; Jane@Example.com" → "Jane@Example.com" */
function addressOf(value: string | undefined): string {
  if (!value) return '';
  const address = (value.includes(';') ? value.slice(value.indexOf(';') + 1) : value).trim();
  return address.replace(/^<|>$/g, '').slice(0, 320);
}

/** The message/delivery-status part's body and where it ends, or null when there is none. */
function statusPart(text: string): { body: string; end: number } | null {
  const type = /^content-type:[ \t]*message\/(?:global-)?delivery-status\b.*$/im.exec(text);
  if (!type) return null;
  const start = text.indexOf('\n\n', type.index);
  if (start === -1) return null;
  const boundary = text.indexOf('\n--', start + 2);
  const end = boundary === -1 ? text.length : boundary;
  return { body: text.slice(start + 2, end), end };
}

export function parseDsn(raw: string): DsnReport | null {
  const text = raw.slice(0, MAX_BYTES).replace(/\r\n?/g, '\n');
  const part = statusPart(text);
  if (!part) return null;
  const blocks = part.body
    .split(/\n[ \t]*\n/)
    .map((block) => fieldsOf(block))
    .filter((fields) => fields.size > 0);
  const recipients: DsnRecipient[] = [];
  for (const fields of blocks) {
    const email = addressOf(fields.get('final-recipient') ?? fields.get('original-recipient'));
    if (!email) continue; // the per-message block, or a block without a recipient
    const status = /^([245])\.\d{1,3}\.\d{1,3}/.exec(fields.get('status') ?? '');
    recipients.push({
      email,
      action: (fields.get('action') ?? '').toLowerCase().split(/\s/)[0],
      status: status ? status[0] : '',
      diagnostic: (fields.get('diagnostic-code') ?? '').slice(0, 1000),
    });
  }
  const returned = text.slice(part.end);
  const messageIds = [...returned.matchAll(/^message-id:[ \t]*(<[^>\s]{1,300}>)/gim)].map(
    (m) => m[1],
  );
  return { recipients, messageIds: [...new Set(messageIds)].slice(0, 10) };
}

/** What a recipient's report means for Hearth: 5.x.x a hard bounce, 4.x.x a soft one. */
export function bounceKind(recipient: DsnRecipient): 'hard-bounce' | 'soft-bounce' | null {
  if (['delivered', 'relayed', 'expanded'].includes(recipient.action)) return null;
  if (recipient.status.startsWith('5.')) return 'hard-bounce';
  if (recipient.status.startsWith('4.')) return 'soft-bounce';
  return null;
}
