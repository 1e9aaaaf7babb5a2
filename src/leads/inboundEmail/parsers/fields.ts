/** Labelled fields ("Name: Jo Doe", or "Name   Jo Doe" from an HTML table) read from a mail's text. */

export type LeadField =
  | 'name'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'address'
  | 'city'
  | 'state'
  | 'zip'
  | 'mls'
  | 'price'
  | 'message'
  | 'url'
  | 'source'
  | 'timeFrame'
  | 'type';

export type Fields = Partial<Record<LeadField, string>>;

const group = (field: LeadField, labels: string[]) =>
  labels.map((label) => [label, field] as [string, LeadField]);

/** The labels form mails and portal notifications use, squashed (see squashLabel). */
export const COMMON_LABELS = new Map<string, LeadField>([
  ...group('name', ['name', 'full name', 'contact name', 'lead name', 'your name', 'client name']),
  ...group('name', ['buyer name', 'renter name', 'customer name']),
  ...group('firstName', ['first name', 'firstname', 'given name']),
  ...group('lastName', ['last name', 'lastname', 'surname', 'family name']),
  ...group('email', ['email', 'e mail', 'email address', 'your email', 'contact email']),
  ...group('phone', ['phone', 'phone number', 'telephone', 'tel', 'mobile', 'cell', 'cell phone']),
  ...group('phone', ['your phone', 'contact phone', 'mobile phone', 'daytime phone']),
  ...group('address', ['property', 'property address', 'address', 'listing address', 'listing']),
  ...group('address', ['home address', 'street address', 'street']),
  ...group('city', ['city']),
  ...group('state', ['state', 'province']),
  ...group('zip', ['zip', 'zip code', 'zipcode', 'postal code', 'postcode']),
  ...group('mls', ['mls', 'mls number', 'mls id', 'mls no', 'listing id', 'listing number']),
  ...group('price', ['price', 'list price', 'listing price', 'asking price', 'listed at']),
  ...group('message', ['message', 'comments', 'comment', 'questions', 'question', 'notes']),
  ...group('message', ['inquiry', 'additional comments', 'lead message', 'your message']),
  ...group('url', ['listing url', 'property url', 'listing link', 'property link', 'url']),
  ...group('source', ['lead source', 'source']),
  ...group('timeFrame', ['timeframe', 'time frame', 'move in date', 'moving timeline']),
  ...group('type', ['lead type', 'inquiry type', 'request type', 'type of request']),
]);

export function squashLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

const LINE = /^\s*[*_]*([A-Za-z][A-Za-z #./()-]{0,40}?)[*_]*\s*(?::|\t| {2,})\s*(.*)$/;
const MAX_VALUE = 20_000;

function labelOf(line: string, labels: Map<string, LeadField>): [LeadField, string] | null {
  const match =
    LINE.exec(line) ?? /^\s*[*_]*([A-Za-z][A-Za-z #./()-]{0,40}?)[*_]*\s*:?\s*$/.exec(line);
  if (!match) return null;
  const field = labels.get(squashLabel(match[1]));
  return field ? [field, (match[2] ?? '').trim()] : null;
}

/**
 * The first value of each known label. A label alone on its line takes the next line; a message
 * runs on until a blank line or the next label.
 */
export function labelledFields(text: string, labels: Map<string, LeadField>): Fields {
  const lines = text.split(/\r?\n/);
  const fields: Fields = {};
  for (let i = 0; i < lines.length; i++) {
    const found = labelOf(lines[i], labels);
    if (!found) continue;
    const [field, inline] = found;
    let value = inline;
    let next = i + 1;
    if (!value) {
      while (next < lines.length && !lines[next].trim()) next++;
      if (next < lines.length && !labelOf(lines[next], labels)) value = lines[next++].trim();
    }
    if (field === 'message' && value) {
      for (; next < lines.length && lines[next].trim() && !labelOf(lines[next], labels); next++)
        value += `\n${lines[next].trim()}`;
    }
    if (value && fields[field] === undefined) fields[field] = value.slice(0, MAX_VALUE);
  }
  return fields;
}
