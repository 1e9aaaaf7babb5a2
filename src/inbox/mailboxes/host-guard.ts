import { isIP } from 'node:net';
import { forbiddenAddressReason, systemResolver } from '../../accounts/webhooks/address-guard.js';

export class MailHostRefused extends Error {}

/**
 * SSRF protection for mail servers, as for webhook callbacks (accounts/webhooks/address-guard):
 * the host is resolved here and Hearth connects to the checked address (TLS still verifies the
 * name), so a name cannot be re-pointed at an internal address between the check and the call.
 */
export async function mailServerAddress(host: string, allowPrivate: boolean): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const name = bare.toLowerCase().replace(/\.+$/, '');
  if (!allowPrivate && (name === 'localhost' || name.endsWith('.localhost')))
    throw new MailHostRefused(`${host} is a loopback name`);
  let addresses: { address: string }[];
  if (isIP(bare)) addresses = [{ address: bare }];
  else {
    try {
      addresses = await systemResolver(bare);
    } catch {
      throw new MailHostRefused(`The mail server ${host} was not found (check the host name)`);
    }
  }
  if (!addresses.length) throw new MailHostRefused(`The mail server ${host} was not found`);
  if (allowPrivate) return addresses[0].address;
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason)
      throw new MailHostRefused(
        `The mail server ${host} is on a private or loopback address (${address}); Hearth only connects to public mail servers`,
      );
  }
  return addresses[0].address;
}
