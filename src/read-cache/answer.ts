import type { ExecutionResult } from 'graphql';

/**
 * A REST answer's bytes as they go out, with the ETag express makes of them, prepared once per
 * remembered read: a hit sends these bytes as they are (encoding and hashing the body again on
 * every hit showed in a cached read's CPU: bench/BASELINE.md, "Figures the code's comments relied on").
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

/**
 * A read's execution result as the read cache keeps it: the result (frozen: every hit shares it),
 * its JSON text (the body the GraphQL door sends), and the one door rendering a door made of it
 * (a cache key belongs to one door's document, so one rendering is all an entry ever needs).
 */
export class CachedResult {
  readonly result: ExecutionResult;
  readonly text: string;
  private rendered?: CachedAnswer;

  constructor(result: ExecutionResult) {
    const text = JSON.stringify(result);
    const copy = { ...result };
    // graphql-yoga serializes a result with its own `stringify` when it has one: the text made once.
    Object.defineProperty(copy, 'stringify', { value: () => text });
    this.text = text;
    this.result = Object.freeze(copy);
  }

  /** The door's bytes for this result, made on first use. */
  rendering(render: (result: ExecutionResult) => CachedAnswer): CachedAnswer {
    this.rendered ??= render(this.result);
    return this.rendered;
  }

  /** What the entry holds: its text and about as much again for the door's rendering. */
  get size(): number {
    return 2 * Buffer.byteLength(this.text);
  }
}
