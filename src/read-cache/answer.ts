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
  // Memory of its own: a small Buffer.from is a slice of a shared 8 KB pool, which a remembered
  // answer would keep alive whole while the cache counts only the answer's bytes.
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  body.write(text);
  const etag = etagOf?.(body);
  return etag === undefined ? { body } : { body, etag };
}
