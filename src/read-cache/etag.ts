import { createHash } from 'node:crypto';
import { type DocumentNode, print } from 'graphql';
import type { Principal } from '../access/principal';

/**
 * README "Conditional requests": the ETag of a cacheable read, made from what its answer depends on
 * and nothing read for it — the store's data version (with the read cache's window, below), the
 * caller's visible shape, the door, the operation and its variables — so a matching If-None-Match is
 * answered 304 before anything runs. Weak: it vouches for the data, not for the bytes (another build
 * of the service may render the same data otherwise). A SHA-1 digest, so the tag shows neither the
 * version token nor the variables; the same inputs give the same tag in every API process.
 */
export function readTag(basis: string, principal: Principal, operation: TaggedOperation): string {
  const text = `${basis}\n${shapeOf(principal)}\n${operation.door}\n${documentDigest(operation.document)}\n${operation.operationName ?? ''}\n${operation.variables}`;
  return `W/"${createHash('sha1').update(text).digest('base64url')}"`;
}

/**
 * README "Conditional requests": the ETag of a GraphQL query's answer that no version vouches for
 * (orders, customers, keys… and catalogue reads when the read cache would not trust one), made after
 * it ran from what the answer says — its `data`, as JSON (which the answer then reuses:
 * answer.ts `withDataText`) — with the caller's visible shape and the operation,
 * as `readTag` names them. Not from the answer's bytes: they carry `extensions.cost.budget`, which
 * differs on every request. Weak, as a version tag is (the same data, whatever the bytes); the same
 * data for the same caller and operation gives the same tag in every API process, on either path of
 * the /graphql door, by POST or GET.
 */
export function answerTag(principal: Principal, operation: TaggedOperation, dataText: string): string {
  const digest = createHash('sha1')
    .update(
      `answer\n${shapeOf(principal)}\n${operation.door}\n${documentDigest(operation.document)}\n${operation.operationName ?? ''}\n${operation.variables}\n`,
    )
    .update(dataText)
    .digest('base64url');
  return `W/"${digest}"`;
}

/** The operation a tag names: the door's document, the operation's name, its variables as JSON. */
export interface TaggedOperation {
  door: string;
  document: DocumentNode;
  operationName: string | null | undefined;
  variables: string;
}

const digests = new WeakMap<DocumentNode, string>();

/** The document's text (the same in every process), digested once per parsed document. */
function documentDigest(document: DocumentNode): string {
  let digest = digests.get(document);
  if (digest === undefined) {
    digest = createHash('sha1')
      .update(document.loc?.source.body ?? print(document))
      .digest('base64url');
    digests.set(document, digest);
  }
  return digest;
}

const shapes = new WeakMap<ReadonlySet<string>, string>();

/**
 * What of the caller decides what it may see: its store, its kind and plan, and every pair it holds
 * (a key's scopes, a session's role's). Callers who differ in any of it never share a tag, so a 304
 * never tells one caller that another's view is unchanged.
 */
function shapeOf(principal: Principal): string {
  let pairs = shapes.get(principal.scopes);
  if (pairs === undefined) {
    pairs = [...principal.scopes].sort().join(',');
    shapes.set(principal.scopes, pairs);
  }
  return `${principal.storeId} ${principal.kind} ${principal.plan} ${pairs}`;
}

/**
 * Whether an If-None-Match header names `tag` (weak comparison, RFC 9110 13.1.2; `*` names any):
 * the rule express's `fresh` applies to the answers it tags itself, less its reading of a request's
 * `Cache-Control: no-cache`, which concerns caches on the way, not the origin (RFC 9111 5.2.1.4).
 */
export function namesTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = tag.slice(2);
  for (const entry of ifNoneMatch.split(',')) {
    const candidate = entry.trim();
    if (candidate === opaque || candidate === tag) return true;
  }
  return false;
}

/**
 * The ETag of a REST GET's answer that has no version tag (a read no version vouches for: orders,
 * keys, analytics…), made from its bytes after it ran, in express's own weak form; written here, as
 * express's `etag` would tag every answer, errors and writes included.
 */
export function contentTag(body: string | Buffer): string {
  const digest = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return `W/"${Buffer.byteLength(body).toString(16)}-${digest}"`;
}
