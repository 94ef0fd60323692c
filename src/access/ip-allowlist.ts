import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as its IPv4 form. */
function normalize(address: Address): Address {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

export function parseAddress(value: string): Address | null {
  const trimmed = value.trim().replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(trimmed)) return null;
  // ipaddr.js accepts legacy IPv4 spellings (octal, hex, short and one-part forms such as "2130706433");
  // allowlists take only the four-part form.
  if (!trimmed.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return null;
  return normalize(ipaddr.parse(trimmed));
}

type Entry = { kind: 'address'; address: Address } | { kind: 'range'; range: [Address, number] };

function parseEntry(value: string): Entry | null {
  if (value.includes('/')) {
    const parts = value.trim().split('/');
    if (parts.length !== 2) return null;
    const [base, bits] = parts;
    if (!base || !bits || !/^\d{1,3}$/.test(bits)) return null;
    const address = parseAddress(base);
    if (!address) return null;
    let prefix = Number(bits);
    // A mapped IPv6 range (::ffff:10.0.0.0/104) becomes the IPv4 range it covers.
    if (address.kind() === 'ipv4' && base.includes(':')) prefix -= 96;
    const max = address.kind() === 'ipv4' ? 32 : 128;
    if (prefix < 0 || prefix > max) return null;
    return { kind: 'range', range: [address, prefix] };
  }
  const address = parseAddress(value);
  return address ? { kind: 'address', address } : null;
}

/** Returns an error message for an entry that is neither an IP address nor a CIDR range, else null. */
export function allowlistEntryError(value: string): string | null {
  return parseEntry(value) ? null : `"${value}" is not an IPv4/IPv6 address or CIDR range`;
}

/** True when the client address matches an entry. An empty allowlist allows every address. */
export function isAllowedAddress(allowlist: readonly string[], clientAddress: string | undefined): boolean {
  if (allowlist.length === 0) return true;
  const client = clientAddress ? parseAddress(clientAddress) : null;
  if (!client) return false;
  return allowlist.some((value) => {
    const entry = parseEntry(value);
    if (!entry) return false;
    if (entry.kind === 'address')
      return entry.address.kind() === client.kind() && entry.address.toString() === client.toString();
    const [base] = entry.range;
    return base.kind() === client.kind() && client.match(entry.range as never);
  });
}

/** An entry as the range of addresses it admits (an address is a range of one). */
function rangeOf(value: string): [Address, number] | null {
  const entry = parseEntry(value);
  if (!entry) return null;
  if (entry.kind === 'range') return entry.range;
  return [entry.address, entry.address.kind() === 'ipv4' ? 32 : 128];
}

/**
 * The entries of `inner` that admit an address none of `outer`'s entries admits: empty when every
 * address `inner` lets in, `outer` lets in too. (Both lists non-empty; an empty list admits all.)
 */
export function uncoveredEntries(outer: readonly string[], inner: readonly string[]): string[] {
  const outerRanges = outer.map(rangeOf).filter((range) => range !== null);
  return inner.filter((value) => {
    const range = rangeOf(value);
    if (!range) return true;
    const [base, bits] = range;
    return !outerRanges.some(
      ([outerBase, outerBits]) =>
        outerBase.kind() === base.kind() && outerBits <= bits && base.match([outerBase, outerBits] as never),
    );
  });
}
