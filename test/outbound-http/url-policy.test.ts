import { AppError } from '../../src/errors';
import { isPublicUnicast, nonPublicReason } from '../../src/outbound-http/address-policy';
import {
  assertWebhookUrl,
  isAllowedHost,
  type LookupFn,
  parseWebhookUrl,
} from '../../src/outbound-http/url-policy';

// Nothing here touches the network: every lookup is a stub.
const PUBLIC_V4 = '93.184.216.34';

const stubLookup =
  (...addresses: string[]): LookupFn =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

/** A lookup that must not be reached: the URL has to be refused before DNS. */
const unreachableLookup: LookupFn = async (hostname) => {
  throw new Error(`lookup must not be called (${hostname})`);
};

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.code).toBe('VALIDATION_ERROR');
    expect(appError.details).toEqual([{ path: 'url', message: expect.any(String) }]);
    return appError;
  }
  throw new Error('expected the URL to be refused');
}

async function asyncRefusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the URL to be refused');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('VALIDATION_ERROR');
  expect((error as AppError).details?.[0]?.path).toBe('url');
  return error as AppError;
}

describe('isPublicUnicast', () => {
  test.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255', // just below CGNAT
    '100.128.0.0', // just above CGNAT
    '172.15.255.255',
    '172.32.0.0',
    '192.0.3.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888', // Google DNS: in 2001::/16 but outside 2001::/23
  ])('%s is public', (address) => {
    expect(nonPublicReason(address)).toBeNull();
    expect(isPublicUnicast(address)).toBe(true);
  });

  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved ("this network")'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['100.127.255.255', 'shared address space (CGNAT)'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata service'],
    ['169.254.170.2', 'cloud metadata service'],
    ['100.100.100.200', 'cloud metadata service'],
    ['168.63.129.16', 'cloud metadata service'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped IPv6'], // refused whatever the embedded address
    ['::ffff:0:808:808', 'IPv4-translated IPv6 (SIIT)'],
    ['::8.8.8.8', 'IPv4-compatible IPv6'],
    ['64:ff9b::808:808', 'NAT64 (embeds IPv4)'],
    ['64:ff9b:1::1', 'NAT64 local-use (embeds IPv4)'],
    ['100::1', 'discard-only'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (embeds IPv4)'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['2001:10::1', 'IETF protocol assignments'],
    ['2002:7f00:1::', '6to4 (embeds IPv4)'],
    ['3fff::1', 'documentation'],
    ['fd00:ec2::254', 'cloud metadata service'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'not global unicast (outside 2000::/3)'],
    ['2130706433', 'not an IP address'],
    ['0177.0.0.1', 'not an IP address'],
    ['127.1', 'not an IP address'],
    ['fe80::1%eth0', 'not an IP address'],
    ['example.com', 'not an IP address'],
    ['', 'not an IP address'],
  ])('%s is refused (%s)', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason);
    expect(isPublicUnicast(address)).toBe(false);
  });
});

describe('parseWebhookUrl / assertWebhookUrl: hostile URLs', () => {
  // [what it tries, URL]. Each is refused synchronously, before any DNS lookup.
  const hostile: Array<[string, string]> = [
    // scheme
    ['plain http', 'http://hooks.example.com/x'],
    ['no scheme', 'hooks.example.com/x'],
    ['scheme without slashes', 'https:hooks.example.com/x'],
    ['scheme with one slash', 'https:/hooks.example.com/x'],
    ['ftp', 'ftp://hooks.example.com/'],
    ['javascript', 'javascript:alert(1)'],
    ['file', 'file:///etc/passwd'],
    // user-info
    ['user-info', 'https://user@hooks.example.com/'],
    ['user and password', 'https://user:pass@hooks.example.com/'],
    ['good-looking user-info before a loopback host', 'https://good.com@127.0.0.1/'],
    ['empty user-info', 'https://@hooks.example.com/'],
    ['percent-encoded slash in user-info', 'https://127.0.0.1%2f@evil.com/'],
    ['encoded @ in user-info', 'https://evil.com%40127.0.0.1@hooks.example.com/'],
    // raw-string tricks
    ['backslash before @', 'https://evil.com\\@127.0.0.1/'],
    ['backslash as slash', 'https:\\\\127.0.0.1\\'],
    ['space in host', 'https://hooks.example .com/'],
    ['leading space', ' https://hooks.example.com/'],
    ['tab', 'https://hooks.exa\tmple.com/'],
    ['newline', 'https://hooks.example.com/\n'],
    ['carriage return', 'https://127.0.0.1\r.evil.com/'],
    ['NUL', 'https://hooks.example.com\u0000.127.0.0.1/'],
    ['non-breaking space', 'https://hooks.example.com\u00a0/'],
    ['too long', `https://hooks.example.com/${'a'.repeat(2048)}`],
    ['not a URL at all', 'https://'],
    // IPv4 loopback in every spelling (the WHATWG parser normalises them to 127.0.0.1)
    ['loopback', 'https://127.0.0.1/'],
    ['decimal loopback', 'https://2130706433/'],
    ['octal loopback', 'https://0177.0.0.1/'],
    ['hex loopback', 'https://0x7f000001/'],
    ['hex short loopback', 'https://0x7f.1/'],
    ['short loopback', 'https://127.1/'],
    ['trailing-dot loopback', 'https://127.0.0.1./'],
    ['fullwidth-digit loopback', 'https://１２７.０.０.１/'],
    ['percent-encoded loopback host', 'https://%31%32%37.0.0.1/'],
    ['percent-encoded name', 'https://ex%61mple.com/'],
    ['percent-encoded localhost', 'https://%6c%6f%63%61%6c%68%6f%73%74/'],
    ['loopback with port', 'https://127.0.0.1:8443/'],
    // IPv6
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unspecified', 'https://[::]/'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped loopback, hex', 'https://[::ffff:7f00:1]/'],
    ['IPv4-mapped public address', 'https://[::ffff:8.8.8.8]/'],
    ['IPv4-compatible loopback', 'https://[::127.0.0.1]/'],
    ['SIIT', 'https://[::ffff:0:7f00:1]/'],
    ['NAT64 loopback', 'https://[64:ff9b::7f00:1]/'],
    ['NAT64 local-use', 'https://[64:ff9b:1::7f00:1]/'],
    ['6to4 loopback', 'https://[2002:7f00:1::]/'],
    ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv6 link-local with zone', 'https://[fe80::1%25eth0]/'],
    ['IPv6 unique-local', 'https://[fc00::1]/'],
    ['IPv6 site-local', 'https://[fec0::1]/'],
    ['IPv6 multicast', 'https://[ff02::1]/'],
    ['IPv6 documentation', 'https://[2001:db8::1]/'],
    ['IPv6 discard', 'https://[100::1]/'],
    ['IPv6 without brackets', 'https://::1/'],
    // metadata services
    ['AWS/GCP/Azure metadata', 'https://169.254.169.254/latest/meta-data'],
    ['AWS IPv6 metadata', 'https://[fd00:ec2::254]/'],
    ['Alibaba metadata', 'https://100.100.100.200/'],
    ['GCP metadata name', 'https://metadata.google.internal/computeMetadata/v1/'],
    ['bare metadata name', 'https://metadata/'],
    // other non-public IPv4
    ['unspecified', 'https://0.0.0.0/'],
    ['this-network', 'https://0.1.2.3/'],
    ['CGNAT', 'https://100.64.0.1/'],
    ['10/8', 'https://10.0.0.1/'],
    ['172.16/12', 'https://172.16.0.1/'],
    ['172.31 (top of 172.16/12)', 'https://172.31.255.254/'],
    ['192.168/16', 'https://192.168.1.1/'],
    ['link-local', 'https://169.254.1.1/'],
    ['IETF protocol assignments', 'https://192.0.0.1/'],
    ['documentation', 'https://192.0.2.1/'],
    ['documentation 2', 'https://198.51.100.1/'],
    ['documentation 3', 'https://203.0.113.1/'],
    ['benchmarking', 'https://198.18.0.1/'],
    ['multicast', 'https://224.0.0.1/'],
    ['broadcast', 'https://255.255.255.255/'],
    ['reserved', 'https://240.0.0.1/'],
    // names
    ['localhost', 'https://localhost/'],
    ['LOCALHOST with trailing dot', 'https://LOCALHOST./'],
    ['localhost with port', 'https://localhost:3000/'],
    ['*.localhost', 'https://foo.localhost/'],
    ['*.local (mDNS)', 'https://printer.local/'],
    ['*.internal', 'https://db.internal/'],
    ['*.localdomain', 'https://host.localdomain/'],
    ['*.home.arpa', 'https://router.home.arpa/'],
    ['reverse-DNS name', 'https://1.0.0.127.in-addr.arpa/'],
    ['single-label name', 'https://intranet/'],
    ['trailing-dot name', 'https://hooks.example.com./'],
    ['ideographic full stop', 'https://localhost。/'],
    ['invalid DNS label', 'https://a*b.example.com/'],
    ['label with a leading hyphen', 'https://-bad.example.com/'],
    ['port 0', 'https://hooks.example.com:0/'],
  ];

  test('the table is long enough', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(45);
  });

  test.each(hostile)('refuses %s: %s', async (_what, url) => {
    refusal(() => parseWebhookUrl(url));
    await asyncRefusal(assertWebhookUrl(url, { lookup: unreachableLookup }));
  });

  test('the message names the reason', () => {
    expect(refusal(() => parseWebhookUrl('https://2130706433/')).message).toBe(
      'url: host 127.0.0.1 is not allowed (loopback)',
    );
    expect(refusal(() => parseWebhookUrl('http://hooks.example.com/')).details?.[0]?.message).toBe(
      'must be an https:// URL',
    );
    expect(refusal(() => parseWebhookUrl('https://[::ffff:127.0.0.1]/')).details?.[0]?.message).toBe(
      'host [::ffff:7f00:1] is not allowed (IPv4-mapped IPv6)',
    );
    expect(refusal(() => parseWebhookUrl('https://169.254.169.254/')).details?.[0]?.message).toBe(
      'host 169.254.169.254 is not allowed (cloud metadata service)',
    );
  });

  test('refuses what is not a string', () => {
    refusal(() => parseWebhookUrl(undefined as unknown as string));
    refusal(() => parseWebhookUrl(''));
  });
});

describe('parseWebhookUrl / assertWebhookUrl: DNS', () => {
  test('a name resolving to loopback is refused', async () => {
    const error = await asyncRefusal(
      assertWebhookUrl('https://hooks.example.com/x', { lookup: stubLookup('127.0.0.1') }),
    );
    expect(error.details?.[0]?.message).toBe(
      'host hooks.example.com resolves to 127.0.0.1, which is not allowed (loopback)',
    );
  });

  test('a name resolving to a public and a private address is refused', async () => {
    await asyncRefusal(
      assertWebhookUrl('https://hooks.example.com/x', { lookup: stubLookup(PUBLIC_V4, '10.0.0.5') }),
    );
    await asyncRefusal(
      assertWebhookUrl('https://hooks.example.com/x', { lookup: stubLookup('2606:4700::1111', 'fd00::1') }),
    );
  });

  test.each([
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['metadata', '169.254.169.254'],
    ['NAT64', '64:ff9b::a9fe:a9fe'],
    ['IPv6 loopback', '::1'],
    ['unspecified', '0.0.0.0'],
  ])('a name resolving to %s is refused', async (_what, address) => {
    await asyncRefusal(assertWebhookUrl('https://hooks.example.com/', { lookup: stubLookup(address) }));
  });

  test('a name that does not resolve is refused', async () => {
    const nxdomain: LookupFn = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const error = await asyncRefusal(assertWebhookUrl('https://hooks.example.com/', { lookup: nxdomain }));
    expect(error.details?.[0]?.message).toBe('host hooks.example.com could not be resolved');
    await asyncRefusal(assertWebhookUrl('https://hooks.example.com/', { lookup: stubLookup() }));
  });

  test('a name resolving only to public addresses is accepted', async () => {
    const lookup = jest.fn(stubLookup(PUBLIC_V4, '2606:2800:220:1:248:1893:25c8:1946'));
    await expect(assertWebhookUrl('https://hooks.example.com/x', { lookup })).resolves.toBeUndefined();
    expect(lookup).toHaveBeenCalledWith('hooks.example.com');
  });
});

describe('parseWebhookUrl / assertWebhookUrl: acceptable URLs', () => {
  test.each([
    'https://hooks.example.com/x',
    'https://hooks.example.com/x?store=1&event=order.placed',
    'https://HOOKS.Example.COM/Path',
    'https://hooks.example.com:8443/x',
    'https://bücher.de/hook',
    'https://my_service.example.com/',
  ])('accepts %s (stub DNS: a public address)', async (url) => {
    expect(parseWebhookUrl(url)).toBeInstanceOf(URL);
    await expect(assertWebhookUrl(url, { lookup: stubLookup(PUBLIC_V4) })).resolves.toBeUndefined();
  });

  test.each(['https://93.184.216.34:8443/', 'https://[2606:4700::1111]/'])(
    'accepts the public IP literal %s without DNS',
    async (url) => {
      await expect(assertWebhookUrl(url, { lookup: unreachableLookup })).resolves.toBeUndefined();
    },
  );

  test('the parsed URL is returned normalised', () => {
    const url = parseWebhookUrl('https://HOOKS.example.com:443/a/../b?x=1');
    expect(url.href).toBe('https://hooks.example.com/b?x=1');
    expect(parseWebhookUrl('https://bücher.de/').hostname).toBe('xn--bcher-kva.de');
  });

  test('any port is allowed, except 0', () => {
    expect(parseWebhookUrl('https://93.184.216.34:1/').port).toBe('1');
    expect(parseWebhookUrl('https://93.184.216.34:65535/').port).toBe('65535');
    refusal(() => parseWebhookUrl('https://93.184.216.34:65536/'));
  });
});

describe('allowHosts (tests only)', () => {
  test('exempts the listed hosts from the address and name rules, not from the syntax rules', async () => {
    const options = {
      allowHosts: ['127.0.0.1', 'localhost', '[::1]', 'receiver.test:8443'],
      lookup: unreachableLookup,
    };
    for (const url of [
      'https://127.0.0.1:5000/x',
      'https://localhost/',
      'https://[::1]:9/',
      'https://receiver.test:8443/',
    ]) {
      expect(parseWebhookUrl(url, options)).toBeInstanceOf(URL);
      await expect(assertWebhookUrl(url, options)).resolves.toBeUndefined();
    }
    // Plain http:// only for a listed host (a local receiver in development): `webhook listen`
    expect(parseWebhookUrl('http://127.0.0.1:4000/hooks', options).port).toBe('4000');
    refusal(() => parseWebhookUrl('http://receiver.test/', options)); // listed for 8443 only
    refusal(() => parseWebhookUrl('http://127.0.0.2/', options));
    refusal(() => parseWebhookUrl('http://93.184.216.34/'));
    refusal(() => parseWebhookUrl('ftp://127.0.0.1/', options));
    refusal(() => parseWebhookUrl('https://user@127.0.0.1/', options));
    refusal(() => parseWebhookUrl('http://user@127.0.0.1/', options));
    refusal(() => parseWebhookUrl('https://receiver.test:9443/', options)); // wrong port
    refusal(() => parseWebhookUrl('https://127.0.0.2/', options));
  });

  test('matching is on the normalised host', () => {
    expect(isAllowedHost('127.0.0.1', 443, ['2130706433'])).toBe(true);
    expect(isAllowedHost('::1', '8443', ['::1'])).toBe(true);
    expect(isAllowedHost('[::1]', 8443, ['[::1]:8443'])).toBe(true);
    expect(isAllowedHost('[::1]', 8444, ['[::1]:8443'])).toBe(false);
    expect(isAllowedHost('hooks.example.com', '', ['HOOKS.example.com.'])).toBe(true);
    expect(isAllowedHost('hooks.example.com', 443, [])).toBe(false);
    expect(isAllowedHost('hooks.example.com', 443, undefined)).toBe(false);
    expect(isAllowedHost('evil.hooks.example.com', 443, ['hooks.example.com'])).toBe(false);
  });
});
