/**
 * Merge fields (interface part 1): %name% tokens in template and campaign text, replaced with
 * values of the contact, the agent and the contact's last inquiry. Pure: callers load the data.
 */

export interface MergeAgent {
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

export interface MergeAddress {
  street?: string | null;
  city?: string | null;
  state?: string | null;
  code?: string | null;
  country?: string | null;
}

export interface MergeContact {
  name: string;
  firstName: string;
  lastName: string;
  emails: { value: string }[];
  phones: { value: string }[];
  addresses: MergeAddress[];
  source: string;
}

export interface MergeData {
  agent: MergeAgent | null;
  contact: MergeContact | null;
  /** `property.street` of the contact's last inquiry event; null when there is none. */
  inquiryStreet: string | null;
  /** First names of the recipients a message is merged for (`recipients.to`), when given. */
  recipientFirstNames?: string[];
}

const text = (value: string | null | undefined): string => (value ?? '').trim();

/** Rules 1-3 for %inquiry_address%, meant to be used alone as an email subject. */
export function inquiryAddress(
  street: string | null | undefined,
  sourceName: string | null | undefined,
): string {
  const s = text(street);
  if (s) return s;
  const source = text(sourceName);
  return source ? `Your property inquiry from ${source}` : 'Your property inquiry';
}

/** "street, city code", skipping the parts that are empty. */
export function contactAddress(address: MergeAddress | undefined): string {
  if (!address) return '';
  const place = [text(address.city), text(address.code)].filter(Boolean).join(' ');
  return [text(address.street), place].filter(Boolean).join(', ');
}

/** "Bob", "Bob and Alice", "Bob, Alice and Carol". */
export function listOfNames(names: string[]): string {
  const given = names.map(text).filter(Boolean);
  if (given.length <= 1) return given[0] ?? '';
  return `${given.slice(0, -1).join(', ')} and ${given[given.length - 1]}`;
}

type Resolver = (data: MergeData) => string;

const address = (data: MergeData) => data.contact?.addresses[0];

export const MERGE_FIELDS: Record<string, Resolver> = {
  agent_name: (d) => text(d.agent?.name),
  agent_first_name: (d) => text(d.agent?.firstName),
  agent_last_name: (d) => text(d.agent?.lastName),
  agent_email: (d) => text(d.agent?.email),
  agent_phone: (d) => text(d.agent?.phone),
  contact_name: (d) => text(d.contact?.name),
  contact_first_name: (d) => text(d.contact?.firstName),
  contact_last_name: (d) => text(d.contact?.lastName),
  contact_email: (d) => text(d.contact?.emails[0]?.value),
  contact_phone: (d) => text(d.contact?.phones[0]?.value),
  contact_address: (d) => contactAddress(address(d)),
  contact_street: (d) => text(address(d)?.street),
  contact_city: (d) => text(address(d)?.city),
  contact_state: (d) => text(address(d)?.state),
  contact_zipcode: (d) => text(address(d)?.code),
  contact_country: (d) => text(address(d)?.country),
  source_name: (d) => text(d.contact?.source),
  inquiry_address: (d) => inquiryAddress(d.inquiryStreet, d.contact?.source),
  contact_rels_first_name: (d) =>
    listOfNames(d.recipientFirstNames ?? [text(d.contact?.firstName)]),
};

/**
 * `%name%` or `%name|fallback%`: the fallback (plain text, at most 100 characters, without %, <, >
 * or a line break) is used when the field's value is empty. A token that does not fit stays as
 * written.
 */
const TOKEN = /%([A-Za-z_]+)(?:\|([^%<>\r\n]{0,100}))?%/y;

/**
 * Replaces every known %token% (names are case-insensitive), or its fallback when the value is
 * empty; unknown tokens stay exactly as written, fallback included, and their closing % may still
 * open a known token ("50%%agent_name%"). `escape` is applied to each merged value, not to the
 * template nor to a fallback, which is template text.
 */
export function renderMergeFields(
  template: string,
  data: MergeData,
  /** e.g. HTML escaping, for values merged into markup */
  escape: (value: string) => string = (value) => value,
): string {
  const token = new RegExp(TOKEN);
  let out = '';
  let from = 0;
  for (let at = template.indexOf('%'); at !== -1; at = template.indexOf('%', at + 1)) {
    if (at < from) continue;
    token.lastIndex = at;
    const match = token.exec(template);
    const resolve = match ? MERGE_FIELDS[match[1].toLowerCase()] : undefined;
    if (!match || !resolve) continue;
    const value = resolve(data);
    out += template.slice(from, at) + (value ? escape(value) : (match[2] ?? ''));
    from = at + match[0].length;
    at = from - 1;
  }
  return out + template.slice(from);
}
