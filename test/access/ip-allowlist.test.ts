import { allowlistEntryError, isAllowedAddress } from '../../src/access/ip-allowlist';

describe('isAllowedAddress', () => {
  it('allows every address, and a missing one, when the allowlist is empty', () => {
    expect(isAllowedAddress([], '203.0.113.7')).toBe(true);
    expect(isAllowedAddress([], '2001:db8::1')).toBe(true);
    expect(isAllowedAddress([], undefined)).toBe(true);
  });

  it('denies a request whose client address is unknown or unparsable once a list is set', () => {
    expect(isAllowedAddress(['0.0.0.0/0'], undefined)).toBe(false);
    expect(isAllowedAddress(['0.0.0.0/0'], '')).toBe(false);
    expect(isAllowedAddress(['0.0.0.0/0'], 'not-an-ip')).toBe(false);
  });

  it('matches an exact IPv4 address and nothing else', () => {
    expect(isAllowedAddress(['10.1.2.3'], '10.1.2.3')).toBe(true);
    expect(isAllowedAddress(['10.1.2.3'], '10.1.2.4')).toBe(false);
    expect(isAllowedAddress(['198.51.100.1', '10.1.2.3'], '10.1.2.3')).toBe(true);
  });

  it('matches an exact IPv6 address whatever the spelling of entry and client', () => {
    const expanded = '2001:0db8:0000:0000:0000:0000:0000:0001';
    expect(isAllowedAddress(['2001:db8::1'], expanded)).toBe(true);
    expect(isAllowedAddress([expanded], '2001:db8::1')).toBe(true);
    expect(isAllowedAddress(['2001:DB8::1'], '2001:db8:0:0::1')).toBe(true);
    expect(isAllowedAddress(['2001:db8::1'], '2001:db8::2')).toBe(false);
  });

  it('matches IPv4 CIDR ranges at their boundaries', () => {
    expect(isAllowedAddress(['10.0.0.0/8'], '10.0.0.0')).toBe(true);
    expect(isAllowedAddress(['10.0.0.0/8'], '10.255.255.255')).toBe(true);
    expect(isAllowedAddress(['10.0.0.0/8'], '11.0.0.0')).toBe(false);
    expect(isAllowedAddress(['192.168.1.0/24'], '192.168.1.77')).toBe(true);
    expect(isAllowedAddress(['192.168.1.0/24'], '192.168.2.1')).toBe(false);
  });

  it('treats /32 as one address and /0 as every IPv4 address', () => {
    expect(isAllowedAddress(['10.1.2.3/32'], '10.1.2.3')).toBe(true);
    expect(isAllowedAddress(['10.1.2.3/32'], '10.1.2.4')).toBe(false);
    expect(isAllowedAddress(['0.0.0.0/0'], '203.0.113.7')).toBe(true);
    expect(isAllowedAddress(['0.0.0.0/0'], '255.255.255.255')).toBe(true);
  });

  it('matches IPv6 CIDR ranges, including /128 and /0', () => {
    expect(isAllowedAddress(['2001:db8::/32'], '2001:db8:ffff::1')).toBe(true);
    expect(isAllowedAddress(['2001:db8::/32'], '2001:db9::1')).toBe(false);
    expect(isAllowedAddress(['2001:db8::1/128'], '2001:db8::1')).toBe(true);
    expect(isAllowedAddress(['2001:db8::1/128'], '2001:db8::2')).toBe(false);
    expect(isAllowedAddress(['::/0'], '2001:db8::1')).toBe(true);
  });

  it('judges an IPv4-mapped client (::ffff:10.1.2.3) as its IPv4 form', () => {
    expect(isAllowedAddress(['10.1.2.3'], '::ffff:10.1.2.3')).toBe(true);
    expect(isAllowedAddress(['10.0.0.0/8'], '::ffff:10.1.2.3')).toBe(true);
    expect(isAllowedAddress(['10.0.0.0/8'], '::ffff:0a01:0203')).toBe(true);
    expect(isAllowedAddress(['10.0.0.0/8'], '::ffff:11.1.2.3')).toBe(false);
  });

  it('judges IPv4-mapped entries as their IPv4 form, so they match plain IPv4 clients', () => {
    expect(isAllowedAddress(['::ffff:10.1.2.3'], '10.1.2.3')).toBe(true);
    expect(isAllowedAddress(['::ffff:10.0.0.0/104'], '10.200.0.1')).toBe(true);
    expect(isAllowedAddress(['::ffff:10.0.0.0/104'], '11.0.0.1')).toBe(false);
  });

  it('never matches an IPv4 entry against an unrelated IPv6 client', () => {
    expect(isAllowedAddress(['0.0.0.0/0'], '2001:db8::1')).toBe(false);
    expect(isAllowedAddress(['10.1.2.3'], '::a01:203')).toBe(false); // IPv4-compatible, not mapped
    expect(isAllowedAddress(['10.1.2.3'], '64:ff9b::a01:203')).toBe(false); // NAT64
    expect(isAllowedAddress(['127.0.0.1'], '::1')).toBe(false);
  });

  it('never matches an IPv6 entry against a plain IPv4 client', () => {
    expect(isAllowedAddress(['::/0'], '10.1.2.3')).toBe(false);
    expect(isAllowedAddress(['::1'], '127.0.0.1')).toBe(false);
  });

  it('ignores invalid entries instead of letting them match', () => {
    expect(isAllowedAddress(['abc', '10.0.0.0/33'], '10.0.0.1')).toBe(false);
    expect(isAllowedAddress(['abc', '10.0.0.1'], '10.0.0.1')).toBe(true);
  });

  it('refuses legacy IPv4 spellings of the client address', () => {
    expect(isAllowedAddress(['127.0.0.1'], '0x7f.1')).toBe(false);
    expect(isAllowedAddress(['127.0.0.1'], '2130706433')).toBe(false);
  });
});

describe('allowlistEntryError', () => {
  it.each([
    '10.1.2.3',
    '0.0.0.0/0',
    '10.0.0.0/8',
    '10.1.2.3/32',
    '2001:db8::1',
    '2001:0db8:0000:0000:0000:0000:0000:0001',
    '2001:db8::/32',
    '::/0',
    '::1/128',
    '::ffff:10.1.2.3',
    '::ffff:10.0.0.0/104',
  ])('accepts %s', (entry) => {
    expect(allowlistEntryError(entry)).toBeNull();
  });

  it.each([
    '10.0.0.0/33',
    '1.2.3',
    '0x7f.1',
    '0177.0.0.1',
    '2130706433',
    '0x7f000001',
    '010.0.0.1',
    'abc',
    '::1/129',
    '10.0.0.1/',
    '/8',
    '10.0.0.0/-1',
    '10.0.0.0/8/8',
    '256.0.0.1',
    ' ',
    '',
  ])('rejects %j with a message naming the entry', (entry) => {
    expect(allowlistEntryError(entry)).toBe(`"${entry}" is not an IPv4/IPv6 address or CIDR range`);
  });
});
