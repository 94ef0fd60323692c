import { lookup as dnsLookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import { validationError } from '../errors';
import { nonPublicReason } from './address-policy';

/**
 * Which URLs a webhook endpoint may have (docs/design.md "URL policy"). `parseWebhookUrl` does the syntax and
 * literal checks, `assertWebhookUrl` adds DNS: every address the name resolves to must be public
 * unicast. The HTTP client repeats the address check at connect time (see http-client.ts), which
 * is what actually closes DNS rebinding; the checks here give the user an early, clear error.
 */

export type LookupFn = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export interface UrlPolicyOptions {
  /** Hosts (hostname, IP literal, optionally host:port) exempt from the address policy. Tests only; production refuses to start with it. */
  allowHosts?: readonly string[];
  /** DNS resolution; default: node:dns/promises lookup with { all: true, verbatim: true }. */
  lookup?: LookupFn;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** How long the URL check waits for DNS before refusing the URL. */
export const URL_DNS_TIMEOUT_MS = 5000;

/** The system resolver (getaddrinfo), every address, in the resolver's order. */
export const defaultLookup: LookupFn = async (hostname) => {
  const results = await dnsLookup(hostname, { all: true, verbatim: true });
  return results.map((result) => ({ address: result.address, family: result.family === 6 ? 6 : 4 }));
};

/**
 * Names refused whatever they resolve to: special-use and internal-only suffixes (RFC 6761, 6762,
 * 8375, 9476, ICANN's `.internal`) and the names cloud metadata services answer on. A name equal
 * to a suffix, or ending in "." + suffix, is refused.
 */
const REFUSED_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal', // covers metadata.google.internal, *.ec2.internal, *.compute.internal
  'home.arpa',
  'arpa', // in-addr.arpa / ip6.arpa reverse names
  'test',
  'invalid',
  'example',
  'onion',
  'alt',
  'lan',
  'home',
  'corp',
  'intranet',
] as const;

// LDH labels (plus "_", which some providers use), 1–63 characters, no leading/trailing "-".
const LABEL = /^(?:[a-z0-9_]|[a-z0-9_][a-z0-9_-]{0,61}[a-z0-9_])$/;

// Whitespace (ASCII and Unicode), C0/C1 control characters and DEL, and the backslash that the
// WHATWG parser silently turns into "/" for https URLs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const FORBIDDEN_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f\\]/;

function refuse(message: string): never {
  throw validationError([{ path: 'url', message }]);
}

/** A URL host as the allow-list compares it: lowercase, IPv6 in brackets, IPv4 dotted-quad. */
function normaliseHost(host: string): string | null {
  try {
    return new URL(`https://${host}/`).hostname;
  } catch {
    return null;
  }
}

interface AllowEntry {
  host: string;
  port: string | null;
}

const allowListCache = new WeakMap<readonly string[], AllowEntry[]>();

function parseAllowList(allowHosts: readonly string[]): AllowEntry[] {
  const cached = allowListCache.get(allowHosts);
  if (cached) return cached;
  const entries: AllowEntry[] = [];
  for (const raw of allowHosts) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    let host = entry;
    let port: string | null = null;
    const bracketed = entry.match(/^(\[[^\]]+\])(?::(\d+))?$/);
    const hostPort = entry.match(/^([^:]+):(\d+)$/);
    if (bracketed) {
      host = bracketed[1]!;
      port = bracketed[2] ?? null;
    } else if (hostPort) {
      host = hostPort[1]!;
      port = hostPort[2]!;
    } else if (entry.includes(':')) {
      host = `[${entry}]`; // a bare IPv6 address
    }
    const normalised = normaliseHost(host.replace(/\.$/, ''));
    if (normalised) entries.push({ host: normalised, port: port === null ? null : String(Number(port)) });
  }
  allowListCache.set(allowHosts, entries);
  return entries;
}

/**
 * Whether `hostname` (a WHATWG URL hostname: lowercase, IPv6 in brackets; or a bare IPv6 address)
 * on `port` is on the test allow-list. An entry without a port allows every port.
 */
export function isAllowedHost(
  hostname: string,
  port: string | number,
  allowHosts: readonly string[] | undefined,
): boolean {
  if (!allowHosts || allowHosts.length === 0) return false;
  const host = normaliseHost(
    hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname,
  );
  if (!host) return false;
  const portText = String(port === '' ? 443 : Number(port));
  return parseAllowList(allowHosts).some(
    (entry) => entry.host === host && (entry.port === null || entry.port === portText),
  );
}

/** The port a parsed webhook URL connects to. */
export function effectivePort(url: URL): number {
  return url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
}

/** The reason a hostname that is not an IP literal is refused by name, or null. */
function nameRefusal(hostname: string): string | null {
  if (hostname.endsWith('.')) return `host ${hostname} must not end with a dot`;
  if (hostname.length > 253) return 'host name is too long';
  const labels = hostname.split('.');
  if (!labels.every((label) => LABEL.test(label))) return `host ${hostname} is not a valid DNS name`;
  if (labels.length < 2) return `host ${hostname} is not a fully qualified domain name`;
  if (hostname === 'metadata' || hostname === 'instance-data') return `host ${hostname} is not allowed`;
  for (const suffix of REFUSED_SUFFIXES) {
    if (hostname === suffix || hostname.endsWith(`.${suffix}`)) {
      return `host ${hostname} is not allowed (.${suffix} names are internal or reserved)`;
    }
  }
  return null;
}

/** Synchronous syntax + literal checks only (no DNS). Throws VALIDATION_ERROR (path `url`). */
export function parseWebhookUrl(url: string, options: UrlPolicyOptions = {}): URL {
  if (typeof url !== 'string' || url.length === 0) refuse('must be a URL');
  if (url.length > MAX_WEBHOOK_URL_LENGTH) refuse(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  if (FORBIDDEN_CHARACTERS.test(url)) {
    refuse('must not contain whitespace, control characters or backslashes');
  }
  // http:// only for a host on the test allow-list (checked below, once the host is known)
  const scheme = /^https:\/\//i.test(url) ? 'https://' : /^http:\/\//i.test(url) ? 'http://' : null;
  if (scheme === null) refuse('must be an https:// URL');
  // The authority as written: between the scheme and the first "/", "?" or "#".
  const authority = url.slice(scheme.length).split(/[/?#]/, 1)[0] ?? '';
  if (authority.includes('@')) refuse('must not contain user information (user:password@)');
  if (authority.includes('%')) refuse('must not percent-encode the host');

  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    refuse('must be a valid URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') refuse('must be an https:// URL');
  if (parsed.username !== '' || parsed.password !== '') {
    refuse('must not contain user information (user:password@)');
  }
  const hostname = parsed.hostname;
  if (hostname === '') refuse('must have a host');
  if (parsed.port === '0') refuse('port 0 is not allowed');

  if (isAllowedHost(hostname, effectivePort(parsed), options.allowHosts)) return parsed;
  if (parsed.protocol !== 'https:') refuse('must be an https:// URL');

  if (hostname.startsWith('[')) {
    const address = hostname.slice(1, -1);
    const reason = nonPublicReason(address);
    if (reason !== null) refuse(`host ${hostname} is not allowed (${reason})`);
  } else if (isIPv4(hostname)) {
    // The WHATWG parser has already turned 2130706433, 0177.0.0.1, 0x7f.1, 127.1 into dotted form.
    const reason = nonPublicReason(hostname);
    if (reason !== null) refuse(`host ${hostname} is not allowed (${reason})`);
  } else {
    const refusal = nameRefusal(hostname);
    if (refusal !== null) refuse(refusal);
  }
  return parsed;
}

/** Whether a parsed URL's host is an IP literal (already judged by parseWebhookUrl). */
export function isIpLiteralHost(hostname: string): boolean {
  return hostname.startsWith('[') || isIPv4(hostname);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * parseWebhookUrl, then DNS: the name must resolve, and every address it resolves to must be
 * public unicast. Throws VALIDATION_ERROR (path `url`); resolves when the URL is acceptable.
 */
export async function assertWebhookUrl(url: string, options: UrlPolicyOptions = {}): Promise<void> {
  const parsed = parseWebhookUrl(url, options);
  const hostname = parsed.hostname;
  if (isAllowedHost(hostname, effectivePort(parsed), options.allowHosts)) return;
  if (isIpLiteralHost(hostname)) return;

  const lookup = options.lookup ?? defaultLookup;
  let addresses: Array<{ address: string; family: 4 | 6 }>;
  try {
    addresses = await withTimeout(lookup(hostname), URL_DNS_TIMEOUT_MS, 'timeout');
  } catch {
    refuse(`host ${hostname} could not be resolved`);
  }
  if (!Array.isArray(addresses) || addresses.length === 0) refuse(`host ${hostname} could not be resolved`);
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason !== null) refuse(`host ${hostname} resolves to ${address}, which is not allowed (${reason})`);
  }
}
