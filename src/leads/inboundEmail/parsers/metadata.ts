import { htmlText, type Mail } from '../mime.js';
import type { Fields, LeadField } from './fields.js';
import { domainOf, eventTypeOf, leadEvent, type ParsedLead, priceIn } from './lead.js';

/**
 * Real Estate Lead Metadata v1.0 (leadmetadata.org): `<meta name="lead_…" content="…">` tags in
 * the HTML head, which a sender adds so any CRM can read the lead without knowing its layout.
 */
const META_FIELDS: Record<string, LeadField> = {
  lead_name: 'name',
  lead_first_name: 'firstName',
  lead_last_name: 'lastName',
  lead_email: 'email',
  lead_phone: 'phone',
  lead_property_address: 'address',
  lead_property_city: 'city',
  lead_property_state: 'state',
  lead_property_zip: 'zip',
  lead_mls: 'mls',
  lead_message: 'message',
  lead_source: 'source',
  lead_time_frame: 'timeFrame',
  lead_type: 'type',
  lead_url: 'url',
  lead_property_url: 'url',
  lead_price: 'price',
};

const META_TAG = /<meta\b[^>]*>/gi;
const attribute = (tag: string, name: string) =>
  new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);

/** Every lead_… meta tag's value (a name given twice keeps its values, in order). */
export function metaTags(html: string): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const [tag] of html.slice(0, 256 * 1024).matchAll(META_TAG)) {
    const name = attribute(tag, 'name');
    const content = attribute(tag, 'content');
    const key = (name?.[1] ?? name?.[2] ?? name?.[3] ?? '').toLowerCase();
    if (!key.startsWith('lead_') || !content) continue;
    const value = htmlText(content[1] ?? content[2] ?? content[3] ?? '').trim();
    if (value) tags.set(key, [...(tags.get(key) ?? []), value]);
  }
  return tags;
}

const TYPE_WORDS: Record<string, string> = {
  seller: 'Seller Inquiry',
  buyer: 'Property Inquiry',
  renter: 'Property Inquiry',
  registration: 'Registration',
};

export function leadMetadataLead(mail: Mail): ParsedLead | null {
  const tags = metaTags(mail.html);
  if (!tags.size) return null;
  const fields: Fields = {};
  for (const [name, field] of Object.entries(META_FIELDS))
    if (tags.has(name) && fields[field] === undefined) fields[field] = tags.get(name)![0];
  const leadType = fields.type?.toLowerCase() ?? '';
  const type = TYPE_WORDS[leadType] ?? eventTypeOf(fields.type);
  const event = leadEvent(fields, {
    source: domainOf(mail.from?.address) || 'Email',
    type,
    forRent: leadType === 'renter' || undefined,
  });
  if (!event) return null;
  const maxPrice = priceIn(tags.get('lead_max_price')?.[0]);
  const minPrice = priceIn(tags.get('lead_min_price')?.[0]);
  if (maxPrice || minPrice) event.propertySearch = { maxPrice, minPrice };
  const tagNames = (tags.get('lead_tag') ?? []).flatMap((t) => t.split(',')).map((t) => t.trim());
  if (tagNames.some(Boolean))
    event.person!.tags = tagNames
      .filter(Boolean)
      .map((t) => t.slice(0, 100))
      .slice(0, 50);
  return { parser: 'leadMetadata', event };
}
