import type { Mail } from '../mime.js';
import { formMailLead } from './formMail.js';
import { unwrapForwards } from './forwarded.js';
import { leadMetadataLead } from './metadata.js';
import { portalLead } from './portals.js';
import type { ParsedLead } from './lead.js';

export type { ParsedLead } from './lead.js';

/**
 * The lead in a message, or null when it holds none: forwards are unwrapped first, then the
 * formats are tried from the most explicit (Lead Metadata tags) to the loosest (labelled fields).
 */
export async function parseLeadEmail(mail: Mail): Promise<ParsedLead | null> {
  const original = await unwrapForwards(mail);
  // A forward keeps the original's meta tags only in its own HTML (Gmail quotes the head away).
  return (
    leadMetadataLead(original) ??
    (original === mail ? null : leadMetadataLead(mail)) ??
    portalLead(original) ??
    formMailLead(original)
  );
}
