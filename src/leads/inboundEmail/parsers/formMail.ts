import type { Mail } from '../mime.js';
import { COMMON_LABELS, labelledFields } from './fields.js';
import { domainOf, leadEvent, type ParsedLead } from './lead.js';

/**
 * The fallback for website and form-builder mails: labelled fields (Name, Email, Phone,
 * Property/Address, Message). It takes a mail only when it names the lead and gives an email or
 * phone as fields, so a person's ordinary mail with a signature stays unparsed.
 */
export function formMailLead(mail: Mail): ParsedLead | null {
  const fields = labelledFields(mail.text, COMMON_LABELS);
  const named = fields.name || fields.firstName || fields.lastName;
  if (!named || (!fields.email && !fields.phone)) return null;
  const event = leadEvent(fields, {
    source: domainOf(mail.from?.address).replace(/^www\./, '') || 'Email',
    // A website's form has no type field: a seller says so in their words.
    subject: `${mail.subject}\n${fields.message ?? ''}`,
  });
  return event && { parser: 'formMail', event };
}
