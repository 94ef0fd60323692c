import type { CachedResult } from './answer';

/** One remembered result of a successful read, and what it was made under. */
export interface CachedRead {
  storeId: string;
  version: string;
  answer: CachedResult;
  expiresAt: number;
}

/**
 * This process's remembered results, least recently used first out, bounded by the size of their
 * keys and answers (in bytes); each expires `ttlMs` after it was made whatever happens to its store's
 * version. Timing is the process's real clock: it bounds how old an answer can be, not a request's time.
 */
export class CachedReads {
  private readonly entries = new Map<string, CachedRead>();
  private size = 0;

  constructor(private readonly options: { maxBytes: number; ttlMs: number }) {}

  get(key: string, nowMs: number): CachedRead | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= nowMs) {
      this.size -= sizeOf(key, entry);
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: Omit<CachedRead, 'expiresAt'>, nowMs: number): void {
    if (sizeOf(key, entry) > this.options.maxBytes) return;
    this.remove(key);
    this.entries.set(key, { ...entry, expiresAt: nowMs + this.options.ttlMs });
    this.size += sizeOf(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.size <= this.options.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** Forgets every answer of the store (its version could not be replaced in Redis). */
  forgetStore(storeId: string): void {
    for (const [key, entry] of this.entries) if (entry.storeId === storeId) this.remove(key);
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.size -= sizeOf(key, entry);
  }
}

const sizeOf = (key: string, entry: { answer: { size: number } }) =>
  Buffer.byteLength(key) + entry.answer.size;
