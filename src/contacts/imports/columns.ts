import type { CustomFieldDefinition } from '../customFields/customFields.values.js';

/**
 * The person fields a CSV column can fill. Export writes these columns and import recognises
 * them (and the usual spellings of spreadsheet and CRM exports), so an export imports back.
 */
export const IMPORT_FIELDS = [
  'firstName',
  'lastName',
  'name',
  'email',
  'phone',
  'street',
  'street2',
  'city',
  'state',
  'code',
  'country',
  'stage',
  'source',
  'sourceUrl',
  'tags',
  'assignedTo',
  'lender',
  'price',
  'contacted',
  'background',
  'created',
] as const;

export type ImportField = (typeof IMPORT_FIELDS)[number];

/** What one column holds: a standard field (with a contact type for emails/phones) or a custom field. */
export type ColumnTarget =
  { field: ImportField; contactType?: string } | { custom: CustomFieldDefinition };

/** Headers as spreadsheets and CRMs write them, after `headerKey` (lower case, words only). */
const ALIASES: Record<ImportField, string[]> = {
  firstName: ['first name', 'firstname', 'first', 'given name', 'fname', 'forename'],
  lastName: ['last name', 'lastname', 'last', 'surname', 'family name', 'lname'],
  name: ['name', 'full name', 'fullname', 'contact name', 'display name'],
  email: [
    'email',
    'e mail',
    'email address',
    'e mail address',
    'primary email',
    'secondary email',
    'other email',
    'emails',
  ],
  phone: [
    'phone',
    'phone number',
    'telephone',
    'tel',
    'primary phone',
    'other phone',
    'phones',
    'mobile',
    'mobile phone',
    'mobile number',
    'cell',
    'cell phone',
    'cellphone',
  ],
  street: ['street', 'address', 'street address', 'address line 1', 'address 1', 'mailing address'],
  street2: ['address line 2', 'street 2', 'street address 2', 'address2'],
  city: ['city', 'town', 'mailing city'],
  state: ['state', 'province', 'region', 'state province', 'mailing state'],
  code: [
    'zip',
    'zip code',
    'zipcode',
    'postal code',
    'postcode',
    'zip postal code',
    'postal zip code',
    'mailing zip',
  ],
  country: ['country', 'mailing country'],
  stage: ['stage', 'status', 'lead status', 'contact stage'],
  source: ['source', 'lead source'],
  sourceUrl: ['source url', 'lead url'],
  tags: ['tags', 'tag', 'labels', 'groups'],
  assignedTo: [
    'assigned to',
    'assigned agent',
    'agent',
    'agent name',
    'agent email',
    'owner',
    'contact owner',
    'assigned user',
  ],
  lender: ['lender', 'lender name', 'lender email', 'assigned lender'],
  price: ['price', 'budget', 'home price'],
  contacted: ['contacted'],
  background: [
    'background',
    'notes',
    'note',
    'description',
    'comments',
    'about',
    'background info',
  ],
  created: ['created', 'created at', 'date created', 'created date', 'create date', 'date added'],
};

/** Typed contact headers: "Work Phone", "Home Email 2", "Business Phone"… */
const CONTACT_TYPES: Record<string, string> = {
  mobile: 'mobile',
  cell: 'mobile',
  work: 'work',
  business: 'work',
  office: 'work',
  home: 'home',
  personal: 'home',
  other: 'other',
  fax: 'fax',
};

const LOOKUP = new Map<string, ImportField>(
  IMPORT_FIELDS.flatMap((field) => ALIASES[field].map((alias) => [alias, field] as const)),
);

/** "E-mail Address 2" → "e mail address": lower case, words only, a trailing number dropped. */
export function headerKey(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\s+\d+$/, '')
    .trim();
}

function contactTarget(key: string): ColumnTarget | null {
  const words = key.split(' ');
  const type = CONTACT_TYPES[words[0]];
  if (!type) return null;
  const rest = words.slice(1).join(' ');
  if (['phone', 'phone number', 'number', 'tel', 'telephone'].includes(rest))
    return { field: 'phone', contactType: type };
  if (type !== 'mobile' && ['email', 'e mail', 'email address', 'e mail address'].includes(rest))
    return { field: 'email', contactType: type };
  return null;
}

/** The field a header names, or null for a column Hearth does not recognise. */
export function recognise(header: string, custom: CustomFieldDefinition[]): ColumnTarget | null {
  const key = headerKey(header);
  if (!key) return null;
  const field = LOOKUP.get(key);
  // The headers export writes mean what export meant; then the account's own custom fields, which
  // are more specific than the usual spellings of other tools ("Budget" may be a custom field).
  if (field && EXPORTED_KEYS.has(key)) return { field };
  const byLabel = custom.find(
    (d) => d.name === header.trim() || headerKey(d.label) === key || headerKey(d.name) === key,
  );
  if (byLabel) return { custom: byLabel };
  if (field === 'phone' && /^(mobile|cell)/.test(key)) return { field, contactType: 'mobile' };
  if (field) return { field };
  return contactTarget(key);
}

/**
 * An explicit mapping's value: a field name (`email`, `firstName`…), `customX` for a custom field,
 * or `ignore`. Returns null for ignore, undefined for a name that means nothing.
 */
export function mappedTarget(
  value: string,
  custom: CustomFieldDefinition[],
): ColumnTarget | null | undefined {
  if (value === 'ignore' || value === '') return null;
  if ((IMPORT_FIELDS as readonly string[]).includes(value)) return { field: value as ImportField };
  const field = custom.find((d) => d.name === value || d.label === value);
  return field ? { custom: field } : undefined;
}

/** The header export writes for each standard column; `Email 2`, `Phone 3`… follow the first. */
export const EXPORT_HEADERS: Record<Exclude<ImportField, 'name' | 'street2'>, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  phone: 'Phone',
  street: 'Street',
  city: 'City',
  state: 'State',
  code: 'Zip',
  country: 'Country',
  stage: 'Stage',
  source: 'Source',
  sourceUrl: 'Source URL',
  tags: 'Tags',
  assignedTo: 'Assigned To',
  lender: 'Lender',
  price: 'Price',
  contacted: 'Contacted',
  background: 'Background',
  created: 'Created',
};

const EXPORTED_KEYS = new Set(Object.values(EXPORT_HEADERS).map(headerKey));

/** A custom field's export header: its label, unless that reads as a standard column. */
export function customHeader(field: CustomFieldDefinition): string {
  return EXPORTED_KEYS.has(headerKey(field.label)) ? field.name : field.label;
}
