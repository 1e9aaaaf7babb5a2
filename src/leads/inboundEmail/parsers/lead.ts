import type { EventInput } from '../../events/events.prepare.js';
import type { Fields } from './fields.js';

/** A lead found in a message: which parser knew it, and the POST /v1/events body it makes. */
export interface ParsedLead {
  parser: string;
  event: EventInput;
}

const EMAIL = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[a-z]{2,}$/i;
const EMAIL_IN_TEXT = /[^\s@<>()[\],;:"']+@[^\s@<>()[\],;:"']+\.[a-z]{2,}/i;

/** An email address in a field's text ("Jo <jo@x.com>", "mailto:jo@x.com"), or undefined. */
export function emailIn(value: string | undefined): string | undefined {
  const found = value && EMAIL_IN_TEXT.exec(value)?.[0].replace(/^mailto:/i, '');
  return found && EMAIL.test(found) && found.length <= 320 ? found.toLowerCase() : undefined;
}

/** A phone number: 7 to 15 digits, kept as written (POST /v1/events normalises it). */
export function phoneIn(value: string | undefined): string | undefined {
  const found = value && /\+?[\d(][\d\s().-]{5,24}\d/.exec(value)?.[0];
  const digits = found?.replace(/\D/g, '') ?? '';
  return found && digits.length >= 7 && digits.length <= 15 ? found.trim() : undefined;
}

export function priceIn(value: string | undefined): number | undefined {
  const match = value && /\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*([kKmM])?\b/.exec(value);
  if (!match) return undefined;
  const base = Number(match[1].replace(/,/g, ''));
  const unit = match[2]?.toLowerCase();
  const price = unit === 'k' ? base * 1_000 : unit === 'm' ? base * 1_000_000 : base;
  return Number.isFinite(price) && price > 0 ? price : undefined;
}

/** "123 Main St, Springfield, IL 62701" in its parts; anything else is a street. */
export function splitAddress(value: string): {
  street: string;
  city?: string;
  state?: string;
  code?: string;
} {
  const match = /^(.+?),\s*([^,]+?),\s*([A-Za-z]{2})\.?,?\s+(\d{5}(?:-\d{4})?)\s*$/.exec(
    value.trim(),
  );
  if (!match) return { street: value.trim() };
  return {
    street: match[1].trim(),
    city: match[2].trim(),
    state: match[3].toUpperCase(),
    code: match[4],
  };
}

const clip = (value: string | undefined, max: number) => value?.trim().slice(0, max) || undefined;

/** Seller and registration mails by their words; anything else an inquiry (about its property, if any). */
export function eventTypeOf(...texts: (string | undefined)[]): string {
  const words = texts.filter(Boolean).join(' ').toLowerCase();
  if (/\bsell(er|ing)?\b|home valuation|what'?s my home worth|\bcma\b/.test(words))
    return 'Seller Inquiry';
  if (/\bregist(ered|ration)\b|\bsigned up\b|new account/.test(words)) return 'Registration';
  return 'Inquiry';
}

/** The POST /v1/events body of a lead's fields; null when nobody can be told apart (no email or phone). */
export function leadEvent(
  fields: Fields,
  defaults: { source: string; type?: string; forRent?: boolean; subject?: string },
): EventInput | null {
  const email = emailIn(fields.email);
  const phone = phoneIn(fields.phone);
  if (!email && !phone) return null;
  const address = fields.address ? splitAddress(fields.address) : undefined;
  const property = {
    street: clip(address?.street, 500),
    city: clip(fields.city ?? address?.city, 200),
    state: clip(fields.state ?? address?.state, 100),
    code: clip(fields.zip ?? address?.code, 30),
    mlsNumber: clip(fields.mls?.replace(/^#\s*/, ''), 100),
    price: priceIn(fields.price),
    url: /^https?:\/\/\S+$/.test(fields.url ?? '') ? clip(fields.url, 2000) : undefined,
    forRent: defaults.forRent,
  };
  const hasProperty = !!(property.street || property.mlsNumber || property.url);
  return {
    type: defaults.type ?? eventTypeOf(fields.type, defaults.subject),
    source: clip(fields.source ?? defaults.source, 300),
    person: {
      ...(fields.firstName || fields.lastName
        ? { firstName: clip(fields.firstName, 150), lastName: clip(fields.lastName, 150) }
        : { name: clip(fields.name, 300) }),
      emails: email ? [{ value: email }] : [],
      phones: phone ? [{ value: phone }] : [],
    },
    property: hasProperty ? property : undefined,
    message: clip(fields.message, 20_000),
    description: fields.timeFrame ? clip(`Time frame: ${fields.timeFrame}`, 20_000) : undefined,
  };
}

/** The domain part of an address ("mail.acme-realty.com"), or '' */
export function domainOf(address: string | undefined): string {
  return address?.split('@')[1]?.toLowerCase() ?? '';
}
