import type { Mail } from '../mime.js';
import { COMMON_LABELS, type LeadField, labelledFields } from './fields.js';
import { domainOf, emailIn, leadEvent, type ParsedLead } from './lead.js';

/**
 * The lead notifications of the major portals, recognised by the sending domain. Each portal
 * writes the lead as labelled fields (in an HTML table or plain text) with words of its own, and
 * names the listing in its subject; the reply-to address is the lead's own when the body hides it.
 */
interface Portal {
  parser: string;
  source: string;
  domains: string[];
  forRent?: boolean;
  /** labels of its own, squashed, beside the common ones */
  labels?: Record<string, LeadField>;
  /** subject patterns with named groups `name` and `address` */
  subjects?: RegExp[];
}

export const PORTALS: Portal[] = [
  {
    parser: 'zillow',
    source: 'Zillow',
    domains: ['zillow.com'],
    labels: { 'contact information': 'name', 'about the property': 'address' },
    subjects: [
      /^(?<name>.+?) (?:is requesting information|wants to tour|has a question) (?:about|on) (?<address>.+)$/i,
      /^New Contact: (?<name>.+?)(?: - (?<address>.+))?$/i,
    ],
  },
  {
    parser: 'trulia',
    source: 'Trulia',
    domains: ['trulia.com'],
    labels: { 'the consumer': 'name', 'consumer name': 'name', 'property of interest': 'address' },
    subjects: [/^New Trulia lead(?: for| -|:) (?<address>.+)$/i],
  },
  {
    parser: 'realtor.com',
    source: 'Realtor.com',
    domains: ['realtor.com', 'move.com'],
    labels: { 'lead comments': 'message', 'mls id': 'mls', 'property address': 'address' },
    subjects: [/^New realtor\.com lead(?: -|:) (?<address>.+)$/i],
  },
  {
    parser: 'homes.com',
    source: 'Homes.com',
    domains: ['homes.com'],
    labels: {
      'lead name': 'name',
      'lead email': 'email',
      'lead phone': 'phone',
      property: 'address',
    },
    subjects: [/^Homes\.com Lead:? (?<name>.+?) (?:is interested in|about) (?<address>.+)$/i],
  },
  {
    parser: 'redfin',
    source: 'Redfin',
    domains: ['redfin.com'],
    labels: { client: 'name', 'client email': 'email', 'client phone': 'phone', home: 'address' },
    subjects: [/^Redfin (?:Referral|Partner Agent Lead):? (?<name>.+?)(?: - (?<address>.+))?$/i],
  },
  {
    parser: 'streeteasy',
    source: 'StreetEasy',
    domains: ['streeteasy.com'],
    forRent: true,
    labels: { renter: 'name', listing: 'address' },
    subjects: [/^StreetEasy inquiry(?: for|:) (?<address>.+)$/i],
  },
  {
    parser: 'apartments.com',
    source: 'Apartments.com',
    domains: ['apartments.com'],
    forRent: true,
    labels: { 'prospect name': 'name', 'move date': 'timeFrame', unit: 'address' },
    subjects: [/^(?:New )?Apartments\.com Lead(?: for|:) (?<address>.+)$/i],
  },
];

const LABELS = new Map(
  PORTALS.map((p) => [p, new Map([...COMMON_LABELS, ...Object.entries(p.labels ?? {})])] as const),
);

function portalOf(address: string | undefined): Portal | undefined {
  const domain = domainOf(address);
  return PORTALS.find((p) => p.domains.some((d) => domain === d || domain.endsWith(`.${d}`)));
}

export function portalLead(mail: Mail): ParsedLead | null {
  const portal = portalOf(mail.from?.address);
  if (!portal) return null;
  const fields = labelledFields(mail.text, LABELS.get(portal)!);
  const fromSubject = portal.subjects
    ?.map((pattern) => pattern.exec(mail.subject)?.groups)
    .find(Boolean);
  delete fields.source; // the portal is the source, whatever its listing says
  fields.name ??= fromSubject?.name;
  fields.address ??= fromSubject?.address;
  // Portals send from a no-reply address and put the lead's own in Reply-To.
  if (!emailIn(fields.email) && mail.replyTo && !portalOf(mail.replyTo.address))
    fields.email = mail.replyTo.address;
  const event = leadEvent(fields, {
    source: portal.source,
    forRent: portal.forRent,
    subject: mail.subject,
  });
  return event && { parser: portal.parser, event };
}
