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

/**
 * A query's result whose `data` was already written as JSON (for the tag of its data,
 * src/read-cache/etag.ts `answerTag`): graphql-yoga writes a result with its own `stringify` when it
 * has one, so the answer — on either path of /graphql, whatever the plugins add to it later (their
 * copies keep the function, which JSON skips) — reuses the text instead of writing the data again.
 */
export function withDataText(result: ExecutionResult, text: string): ExecutionResult {
  const data = result.data;
  if (data == null) return result;
  const stringify = (answer: ExecutionResult) => answerText(answer, data, text);
  return { ...result, stringify } as ExecutionResult;
}

/** JSON.stringify(answer), with `text` for its data when that is still `data`. */
export function answerText(answer: ExecutionResult, data: unknown, text: string): string {
  let out = '';
  for (const key of Object.keys(answer)) {
    const value = (answer as Record<string, unknown>)[key];
    const json = key === 'data' && value === data ? text : JSON.stringify(value);
    if (json === undefined) continue;
    out += `${out ? ',' : '{'}${JSON.stringify(key)}:${json}`;
  }
  return out ? `${out}}` : '{}';
}
