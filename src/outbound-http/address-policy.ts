import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses a webhook may be delivered to (docs/design.md "URL policy", the SSRF defence).
 *
 * Only public unicast addresses are acceptable. The tables below are a deny list checked in order
 * (the most specific entries first, so the reason is the most useful one); IPv6 is, in addition,
 * limited to global unicast 2000::/3, so anything IANA has not allocated for public unicast is
 * refused even when it is not listed. IPv6 forms that embed an IPv4 address (mapped, compatible,
 * SIIT, NAT64, 6to4, Teredo) are refused outright, whatever the embedded address: judging it would
 * mean trusting every translator on the path.
 *
 * Input must be a plain address as `dns.lookup` returns it or as a URL host carries it without the
 * brackets: dotted-quad IPv4 or IPv6. Anything else (the legacy `2130706433`, `0177.0.0.1`, `127.1`
 * spellings, zone ids, garbage) is "not an IP address" and therefore not public.
 */

type Range = { readonly cidr: string; readonly reason: string };

const IPV4_DENY: readonly Range[] = [
  // Cloud metadata services first, so the message names them.
  { cidr: '169.254.169.254/32', reason: 'cloud metadata service' }, // AWS, GCP, Azure, OCI, DigitalOcean…
  { cidr: '169.254.170.2/32', reason: 'cloud metadata service' }, // AWS ECS task metadata
  { cidr: '169.254.170.23/32', reason: 'cloud metadata service' }, // AWS EKS Pod Identity
  { cidr: '100.100.100.200/32', reason: 'cloud metadata service' }, // Alibaba Cloud
  { cidr: '168.63.129.16/32', reason: 'cloud metadata service' }, // Azure WireServer (a public-range address)
  { cidr: '0.0.0.0/32', reason: 'unspecified' },
  { cidr: '255.255.255.255/32', reason: 'broadcast' },
  { cidr: '0.0.0.0/8', reason: 'reserved ("this network")' },
  { cidr: '10.0.0.0/8', reason: 'private' },
  { cidr: '100.64.0.0/10', reason: 'shared address space (CGNAT)' },
  { cidr: '127.0.0.0/8', reason: 'loopback' },
  { cidr: '169.254.0.0/16', reason: 'link-local' },
  { cidr: '172.16.0.0/12', reason: 'private' },
  { cidr: '192.0.0.0/24', reason: 'IETF protocol assignments' },
  { cidr: '192.0.2.0/24', reason: 'documentation' },
  { cidr: '192.88.99.0/24', reason: 'reserved (deprecated 6to4 relay anycast)' },
  { cidr: '192.168.0.0/16', reason: 'private' },
  { cidr: '198.18.0.0/15', reason: 'benchmarking' },
  { cidr: '198.51.100.0/24', reason: 'documentation' },
  { cidr: '203.0.113.0/24', reason: 'documentation' },
  { cidr: '224.0.0.0/4', reason: 'multicast' },
  { cidr: '240.0.0.0/4', reason: 'reserved' },
];

const IPV6_DENY: readonly Range[] = [
  { cidr: '::/128', reason: 'unspecified' },
  { cidr: '::1/128', reason: 'loopback' },
  { cidr: '::ffff:0:0/96', reason: 'IPv4-mapped IPv6' },
  { cidr: '::ffff:0:0:0/96', reason: 'IPv4-translated IPv6 (SIIT)' },
  { cidr: '::/96', reason: 'IPv4-compatible IPv6' },
  { cidr: '64:ff9b::/96', reason: 'NAT64 (embeds IPv4)' },
  { cidr: '64:ff9b:1::/48', reason: 'NAT64 local-use (embeds IPv4)' },
  { cidr: '100::/64', reason: 'discard-only' },
  { cidr: '2001::/32', reason: 'Teredo (embeds IPv4)' },
  { cidr: '2001:2::/48', reason: 'benchmarking' },
  { cidr: '2001:db8::/32', reason: 'documentation' },
  { cidr: '2001::/23', reason: 'IETF protocol assignments' },
  { cidr: '2002::/16', reason: '6to4 (embeds IPv4)' },
  { cidr: '3fff::/20', reason: 'documentation' },
  { cidr: 'fd00:ec2::254/128', reason: 'cloud metadata service' }, // AWS IMDS over IPv6
  { cidr: 'fc00::/7', reason: 'unique-local' },
  { cidr: 'fe80::/10', reason: 'link-local' },
  { cidr: 'fec0::/10', reason: 'site-local (deprecated)' },
  { cidr: 'ff00::/8', reason: 'multicast' },
];

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

const parsedV4 = IPV4_DENY.map((range) => ({
  range: ipaddr.IPv4.parseCIDR(range.cidr),
  reason: range.reason,
}));
const parsedV6 = IPV6_DENY.map((range) => ({
  range: ipaddr.IPv6.parseCIDR(range.cidr),
  reason: range.reason,
}));

/** The reason an address is refused, for messages; null when it is public unicast. */
export function nonPublicReason(address: string): string | null {
  const plain = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(plain);
  if (family === 0 || plain.includes('%')) return 'not an IP address';
  if (family === 4) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(plain)) return 'not an IP address';
    const ip = ipaddr.IPv4.parse(plain);
    for (const { range, reason } of parsedV4) if (ip.match(range)) return reason;
    return null;
  }
  const ip = ipaddr.IPv6.parse(canonicalIPv6(plain));
  for (const { range, reason } of parsedV6) if (ip.match(range)) return reason;
  if (!ip.match(GLOBAL_UNICAST_V6)) return 'not global unicast (outside 2000::/3)';
  return null;
}

/**
 * The WHATWG serialisation (hex groups only). ipaddr.js mis-reads a dotted tail after "::"
 * (`::8.8.8.8` becomes `::ffff:808:808`), so the dotted forms are rewritten first.
 */
function canonicalIPv6(address: string): string {
  if (!address.includes('.')) return address;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** True only for a public unicast address (see the module comment). */
export function isPublicUnicast(address: string): boolean {
  return nonPublicReason(address) === null;
}

/** "address 127.0.0.1 is not allowed (loopback)", or null when the address is public unicast. */
export function addressRefusal(address: string): string | null {
  const reason = nonPublicReason(address);
  return reason === null ? null : `address ${address} is not allowed (${reason})`;
}
