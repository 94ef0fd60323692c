import type { PrismaClient } from '../../prisma/generated/client/client';
import type { ApiKeyEnvironment, ApiKeyStatus, Plan, StoreStatus } from '../../prisma/generated/client/enums';
import { isAllowedAddress } from '../access/ip-allowlist';
import { planFeatures } from '../access/plans';
import type { ApiKeyPrincipal } from '../access/principal';
import { AppError } from '../errors';
import type { AddressFailures } from './address-failures';
import { API_KEY_PATTERN, hashSecret } from './api-key-secret';

interface SecretRecord {
  graceEndsAt: Date | null;
  apiKey: {
    id: string;
    storeId: string;
    status: ApiKeyStatus;
    revokedAt: Date | null;
    expiresAt: Date | null;
    ipAllowlist: string[];
    scopes: string[];
    environment: ApiKeyEnvironment;
    usageLimit: number | null;
    usageCount: bigint;
    canChangeOwner: boolean;
    store: { status: StoreStatus; plan: Plan };
  };
}

type SecretRow = Omit<SecretRecord['apiKey'], 'store' | 'ipAllowlist' | 'scopes'> & {
  ipAllowlist: string | null;
  scopes: string | null;
  graceEndsAt: Date | null;
  storeStatus: StoreStatus;
  plan: Plan;
};

/** The secret, its key and the key's store in one statement (each cache miss pays for it). */
async function findSecret(prisma: PrismaClient, hash: string): Promise<SecretRecord | null> {
  const [row] = await prisma.$queryRaw<SecretRow[]>`
    SELECT s."graceEndsAt", k.id, k."storeId", k.status::text AS status, k."revokedAt", k."expiresAt",
           array_to_json(k."ipAllowlist")::text AS "ipAllowlist", array_to_json(k.scopes)::text AS scopes,
           k.environment::text AS environment, k."usageLimit", k."usageCount", k."canChangeOwner",
           st.status::text AS "storeStatus", st.plan::text AS plan
      FROM "ApiKeySecret" s
      JOIN "ApiKey" k ON k.id = s."apiKeyId"
      JOIN "Store" st ON st.id = k."storeId"
     WHERE s.hash = ${hash}`;
  if (!row) return null;
  const { graceEndsAt, storeStatus, plan, ipAllowlist, scopes, ...apiKey } = row;
  return {
    graceEndsAt,
    apiKey: {
      ...apiKey,
      ipAllowlist: jsonList(ipAllowlist),
      scopes: jsonList(scopes),
      store: { status: storeStatus, plan },
    },
  };
}

/**
 * The two arrays come as JSON text: JSON.parse is native, while the driver's parser of PostgreSQL's
 * array literals showed in a cached read's CPU profile, at one refresh per key every
 * AUTH_CACHE_TTL_MS (bench/BASELINE.md, "Figures the code's comments relied on").
 * A NULL column (only SQL behind the API can make one) reads as the empty list, the columns' default.
 */
function jsonList(text: string | null): string[] {
  return text === null ? [] : (JSON.parse(text) as string[]);
}

/**
 * A found secret, and what a request it verifies gets: made once per lookup and shared by the
 * requests until the next, as nothing changes a principal (building its scope set per request showed
 * in a cached read's CPU profile: bench/BASELINE.md, "Figures the code's comments relied on").
 */
interface FoundKey {
  record: SecretRecord;
  verified: VerifiedKey;
}

function verifiedKey({ apiKey: key }: SecretRecord): VerifiedKey {
  return {
    principal: Object.freeze({
      kind: 'apiKey',
      keyId: key.id,
      storeId: key.storeId,
      plan: key.store.plan,
      environment: key.environment,
      scopes: new Set(key.scopes),
      canChangeOwner: key.canChangeOwner,
      ipAllowlist: Object.freeze(key.ipAllowlist),
      expiresAt: key.expiresAt,
      usageLimit: key.usageLimit,
    }),
    usage: Object.freeze({
      id: key.id,
      storeId: key.storeId,
      usageLimit: key.usageLimit,
      usageCount: key.usageCount,
    }),
  };
}

export interface VerifiedKey {
  principal: ApiKeyPrincipal;
  /** What usage metering needs from the key. */
  usage: { id: string; storeId: string; usageLimit: number | null; usageCount: bigint };
}

export interface KeyVerifierOptions {
  /** How long a found key is reused (AUTH_CACHE_TTL_MS), and how many are kept (oldest out). */
  ttlMs: number;
  maxEntries: number;
  /** How long a hash found nowhere is remembered as unknown (as many are kept as found keys). */
  unknownTtlMs?: number;
  /** Failed lookups per client address: counted, and a blocked address refused before any query. */
  failures?: AddressFailures | null;
}

/** A hash never presented can become valid only as a new random secret: an unknown one stays so. */
const UNKNOWN_TTL_MS = 30_000;

/**
 * Verifies presented API keys in the check order of docs/design.md "API keys" (the first failure wins). Found records are
 * cached in this process for a few seconds, and unknown hashes for a little longer; the checks
 * themselves always run against the current clock, and invalidate() (fed by the Redis invalidation
 * channel) drops a key's or a store's entries the moment they change anywhere.
 *
 * A lookup in flight while its key or store is invalidated answers with what it read, but caches
 * nothing: it may have read the row before the change committed (revocation wins the race). Each
 * invalidation takes the next generation; a lookup notes the generation it started at and caches
 * its record only if neither its key nor its store (nor everything, clear()) was invalidated since.
 */
export class KeyVerifier {
  private readonly cache = new Map<string, { found: FoundKey; until: number }>();
  private readonly unknown = new Map<string, number>();
  private generation = 0;
  private lookupsInFlight = 0;
  /** The generation of each key's (`k:…`) and store's (`s:…`) last invalidation, kept only while lookups run. */
  private readonly invalidatedAt = new Map<string, number>();
  private clearedAt = 0;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: KeyVerifierOptions = { ttlMs: 5000, maxEntries: 10_000 },
  ) {}

  async verify(
    presented: string | undefined,
    clientAddress: string | undefined,
    now: Date,
  ): Promise<VerifiedKey> {
    if (presented === undefined) {
      throw new AppError(
        'API_KEY_REQUIRED',
        'An API key is required in the tt-api-key or Authorization header',
      );
    }
    if (!API_KEY_PATTERN.test(presented)) {
      throw new AppError(
        'INVALID_API_KEY_FORMAT',
        'API keys are "tt_" followed by 64 hexadecimal characters',
      );
    }
    const found = await this.lookup(hashSecret(presented), clientAddress);
    if (!found) throw new AppError('INVALID_API_KEY', 'The API key is not valid');
    const { record: secret } = found;
    const key = secret.apiKey;
    if (secret.graceEndsAt && now >= secret.graceEndsAt) {
      throw new AppError(
        'API_KEY_GRACE_PERIOD_EXPIRED',
        'This secret was rotated and its grace period has ended',
      );
    }
    if (key.status === 'revoked' && (!key.revokedAt || now >= key.revokedAt)) {
      throw new AppError('API_KEY_REVOKED', 'The API key has been revoked');
    }
    if (key.status === 'inactive') throw new AppError('API_KEY_INACTIVE', 'The API key is deactivated');
    if (key.expiresAt && now >= key.expiresAt)
      throw new AppError('API_KEY_EXPIRED', 'The API key has expired');
    if (key.store.status === 'SUSPENDED') throw new AppError('STORE_SUSPENDED', 'The store is suspended');
    if (!planFeatures[key.store.plan].apiAccess) {
      throw new AppError('PLAN_NOT_ELIGIBLE', `API access is not included in the ${key.store.plan} plan`);
    }
    if (!isAllowedAddress(key.ipAllowlist, clientAddress)) {
      throw new AppError(
        'IP_NOT_WHITELISTED',
        'Requests from this IP address are not allowed for this API key',
      );
    }
    return found.verified;
  }

  /** Drops cached entries of one key, or of every key of a store (suspension, plan change). */
  invalidate(target: { keyId?: string; storeId?: string }): void {
    this.generation++;
    if (this.lookupsInFlight > 0) {
      if (target.keyId !== undefined) this.invalidatedAt.set(`k:${target.keyId}`, this.generation);
      if (target.storeId !== undefined) this.invalidatedAt.set(`s:${target.storeId}`, this.generation);
    }
    for (const [hash, entry] of this.cache) {
      const key = entry.found.record.apiKey;
      if (key.id === target.keyId || key.storeId === target.storeId) this.cache.delete(hash);
    }
  }

  clear(): void {
    this.clearedAt = ++this.generation;
    this.cache.clear();
    this.unknown.clear();
  }

  private async lookup(hash: string, clientAddress: string | undefined): Promise<FoundKey | null> {
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) return cached.found;
    if (this.isKnownUnknown(hash)) return null;
    this.options.failures?.check(clientAddress);
    const startedAt = this.generation;
    this.lookupsInFlight++;
    let record: SecretRecord | null;
    let cacheable: boolean;
    try {
      record = await findSecret(this.prisma, hash);
      cacheable = record !== null && this.unchangedSince(startedAt, record.apiKey);
    } finally {
      if (--this.lookupsInFlight === 0) this.invalidatedAt.clear();
    }
    if (!record) {
      this.cache.delete(hash);
      this.remember(this.unknown, hash, Date.now() + (this.options.unknownTtlMs ?? UNKNOWN_TTL_MS));
      await this.options.failures?.count(clientAddress);
      return null;
    }
    const found = { record, verified: verifiedKey(record) };
    if (cacheable) this.remember(this.cache, hash, { found, until: Date.now() + this.options.ttlMs });
    return found;
  }

  private isKnownUnknown(hash: string): boolean {
    const until = this.unknown.get(hash);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.unknown.delete(hash);
    return false;
  }

  /** Whether no invalidation of the key, its store or everything came after generation `startedAt`. */
  private unchangedSince(startedAt: number, key: { id: string; storeId: string }): boolean {
    return (
      this.clearedAt <= startedAt &&
      (this.invalidatedAt.get(`k:${key.id}`) ?? 0) <= startedAt &&
      (this.invalidatedAt.get(`s:${key.storeId}`) ?? 0) <= startedAt
    );
  }

  /** Sets an entry, the oldest out when the map is full. */
  private remember<V>(map: Map<string, V>, hash: string, value: V): void {
    map.delete(hash);
    if (map.size >= this.options.maxEntries) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(hash, value);
  }
}
