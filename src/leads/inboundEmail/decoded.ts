import type { Mail } from './mime.js';
import { parseLeadEmail } from './parsers/index.js';
import type { Decoded } from './parse-pool.js';

/** What the lead parsers find in a decoded message, with the headers the lead email list shows. */
export async function decodedLead(mail: Mail): Promise<Decoded> {
  const found = await parseLeadEmail(mail);
  const summary = {
    subject: mail.subject,
    from: mail.from?.address ?? '',
    dateMs: mail.date?.getTime() ?? null,
  };
  return { mail: summary, found };
}
