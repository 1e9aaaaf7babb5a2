import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * SSRF protection: callback URLs must not reach loopback, private, link-local, unique-local,
 * multicast, unspecified or otherwise reserved addresses. Checked on the resolved addresses at
 * registration and again on the address actually connected to at every delivery.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Expands an IPv6 address into its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text =
      text.slice(0, -v4[1].length) +
      `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

function v4FromGroups(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (g.length !== 8 || g.some((n) => Number.isNaN(n))) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((n) => n === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0) && !(g[5] === 0 && g[6] === 0))
    return v4FromGroups(g[6], g[7]); // ::ffff:a.b.c.d, ::a.b.c.d
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0xffff && g[5] === 0)
    return v4FromGroups(g[6], g[7]); // ::ffff:0:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b) return v4FromGroups(g[6], g[7]); // NAT64
  if (g[0] === 0x2002) return v4FromGroups(g[1], g[2]); // 6to4
  return null;
}

/** Why an address may not be called back, or null when it is a public address. */
export function forbiddenAddressReason(address: string): string | null {
  const family = isIP(address);
  if (family === 4)
    return blocked.check(address, 'ipv4')
      ? `${address} is a loopback, private or reserved address`
      : null;
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== null && blocked.check(inner, 'ipv4'))
      return `${address} maps to ${inner}, a loopback, private or reserved address`;
    return blocked.check(address, 'ipv6')
      ? `${address} is a loopback, private or reserved address`
      : null;
  }
  return `${address} is not an IP address`;
}

/** The URL's host without IPv6 brackets; WHATWG parsing already turned 0x7f.1 or 2130706433 into 127.0.0.1. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Checks where a URL's host leads. Returns null when every resolved address is public, or a
 * message naming the refused address.
 */
export async function checkCallbackHost(
  url: URL,
  resolver: Resolver = systemResolver,
): Promise<string | null> {
  const host = hostOf(url);
  if (isIP(host)) return forbiddenAddressReason(host);
  // "localhost" and its subdomains are loopback by definition (RFC 6761), however a resolver answers.
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost'))
    return `host '${host}' is a loopback name`;
  let addresses: { address: string }[];
  try {
    addresses = await resolver(host);
  } catch {
    // A name that does not resolve (yet) points nowhere, so it cannot aim Hearth at an internal
    // address: it is accepted, and every delivery resolves and checks the address again.
    return null;
  }
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason) return `host '${host}' resolves to ${address}, which is not a public address`;
  }
  return null;
}
