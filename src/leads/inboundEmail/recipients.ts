import type { DbOrTrx } from '../../platform/db/database.js';
import { type AddressOwner, resolveLeadAddress } from '../../accounts/users/leadAddresses.js';
import { rawHeader } from './mime.js';

/** At most this many recipients of one message are looked at (SMTP answers 452 beyond). */
export const MAX_RECIPIENTS = 20;

const ADDRESS = /[^\s<>,;:"'()[\]]+@[^\s<>,;:"'()[\]]+/g;

/** The addresses a raw message was sent to, by its envelope headers then To and Cc. */
export function headerRecipients(raw: Buffer): string[] {
  const found = ['delivered-to', 'x-original-to', 'to', 'cc']
    .map((name) => rawHeader(raw, name) ?? '')
    .flatMap((value) => value.match(ADDRESS) ?? []);
  return [...new Set(found.map((a) => a.toLowerCase()))].slice(0, MAX_RECIPIENTS);
}

/** The lead addresses among `addresses`, with their owners. */
export async function leadRecipients(
  db: DbOrTrx,
  domain: string,
  addresses: string[],
): Promise<{ address: string; owner: AddressOwner }[]> {
  const out: { address: string; owner: AddressOwner }[] = [];
  for (const address of addresses.slice(0, MAX_RECIPIENTS)) {
    const owner = await resolveLeadAddress(db, domain, address);
    if (owner) out.push({ address: address.toLowerCase(), owner });
  }
  return out;
}
