/**
 * A read's answer as it goes out, prepared once when it is remembered: the JSON body's bytes and, for
 * the REST door, the ETag express makes of them. A hit sends these bytes as they are; encoding and
 * hashing the body again on every hit was ~5 % of a cached read's CPU.
 */
export interface CachedAnswer {
  readonly body: Buffer;
  readonly etag?: string;
}

export function cachedAnswer(text: string, etagOf?: (body: Buffer) => string | undefined): CachedAnswer {
  const body = Buffer.from(text);
  const etag = etagOf?.(body);
  return etag === undefined ? { body } : { body, etag };
}
