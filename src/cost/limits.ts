import {
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  Lexer,
  type ParseOptions,
  parse,
  type SelectionSetNode,
  Source,
  TokenKind,
  type ValidationContext,
} from 'graphql';
import { AppError, toGraphQLError } from '../errors';

/** README "Query limits and cost": what one GraphQL document may ask for (configurable). */
export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxCost: number;
  /** The largest answer a query may give, as the length of its data's JSON text. */
  maxResponseBytes: number;
}

export type Measure = 'depth' | 'aliases' | 'directives' | 'tokens' | 'cost' | 'nesting';

/** QUERY_TOO_COMPLEX (400), naming what was measured, the limit and the value found. */
export function tooComplex(measure: Measure, limit: number, value: number): GraphQLError {
  return toGraphQLError(
    new AppError(
      'QUERY_TOO_COMPLEX',
      `The query's ${measure} is ${value}; at most ${limit} is allowed (README "Query limits and cost")`,
    ),
    { measure, limit, value, http: { status: 400 } },
  );
}

/**
 * RESPONSE_TOO_LARGE (400): a query's answer was longer than the cap. Checked after execution, on
 * queries only (a mutation's change is made and must be told), before any door writes the answer.
 */
export function responseTooLarge(limit: number, value: number): GraphQLError {
  return toGraphQLError(
    new AppError(
      'RESPONSE_TOO_LARGE',
      `The answer is ${value} bytes long; at most ${limit} are sent: ask for smaller pages or fewer fields (README "Query limits and cost")`,
    ),
    { measure: 'responseBytes', limit, value, http: { status: 400 } },
  );
}

/**
 * How deeply a document may nest braces, brackets and parentheses. graphql-js's parser recurses once
 * per level, so a list value 2,000 levels deep — 4,000 tokens, within the token limit — overflowed
 * the stack and answered 500. Selections are held to GRAPHQL_MAX_DEPTH (20) by validation anyway; no
 * document a client writes comes near this.
 */
export const MAX_DOCUMENT_NESTING = 64;

/**
 * graphql-js's own parser with its `maxTokens` guard, so a huge document stops being read at the
 * limit, after a pass of its lexer that refuses a document nesting past MAX_DOCUMENT_NESTING before
 * the (recursive) parser sees it. Yoga caches parsed documents by text, so each text pays once. A
 * parse that failed past the limit is told apart from a syntax error by counting the tokens, not by
 * reading the error's message.
 */
export function parseWithin(maxTokens: number) {
  return (source: string | Source, options?: ParseOptions): DocumentNode => {
    const nesting = nestingOf(source, maxTokens);
    if (nesting > MAX_DOCUMENT_NESTING) throw tooComplex('nesting', MAX_DOCUMENT_NESTING, nesting);
    try {
      return parse(source, { ...options, maxTokens });
    } catch (error) {
      const tokens = countTokens(source, maxTokens);
      if (tokens > maxTokens) throw tooComplex('tokens', maxTokens, tokens);
      throw error;
    }
  };
}

/** The deepest nesting of `{ [ (` in a document's first `maxTokens` tokens (strings and comments skipped). */
function nestingOf(source: string | Source, maxTokens: number): number {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let depth = 0;
  let deepest = 0;
  try {
    for (let count = 0; count <= maxTokens; count++) {
      const kind = lexer.advance().kind;
      if (kind === TokenKind.EOF) break;
      if (kind === TokenKind.BRACE_L || kind === TokenKind.BRACKET_L || kind === TokenKind.PAREN_L)
        deepest = Math.max(deepest, ++depth);
      else if (kind === TokenKind.BRACE_R || kind === TokenKind.BRACKET_R || kind === TokenKind.PAREN_R)
        depth--;
    }
  } catch {
    // A lexical error is the parser's to report.
  }
  return deepest;
}

/** Tokens of a document, up to a hundred times the limit (a body is at most BODY_LIMIT_BYTES anyway). */
function countTokens(source: string | Source, maxTokens: number): number {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  const stopAt = maxTokens * 100;
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF && count < stopAt) count++;
  } catch {
    // A lexical error past the limit: the count so far is what matters.
  }
  return count;
}

interface Shape {
  depth: number;
  aliases: number;
  directives: number;
}

/**
 * One pass over each operation, fragments expanded once each (a spread counts its fragment's
 * aliases and directives again, as executing it would): depth, aliases and directives against
 * their limits. Fragment cycles count once here and are refused by graphql-js's own rule.
 */
export function queryShapeRule(limits: QueryLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, Shape>();
    const visiting = new Set<string>();

    const measure = (set: SelectionSetNode | undefined): Shape => {
      const shape: Shape = { depth: 0, aliases: 0, directives: 0 };
      for (const selection of set?.selections ?? []) {
        shape.directives += selection.directives?.length ?? 0;
        let inner: Shape;
        if (selection.kind === 'Field') {
          if (selection.alias) shape.aliases++;
          inner = measure(selection.selectionSet);
          inner = { ...inner, depth: inner.depth + 1 };
        } else if (selection.kind === 'InlineFragment') {
          inner = measure(selection.selectionSet);
        } else {
          inner = fragmentShape(context.getFragment(selection.name.value));
        }
        shape.depth = Math.max(shape.depth, inner.depth);
        shape.aliases += inner.aliases;
        shape.directives += inner.directives;
      }
      return shape;
    };
    const fragmentShape = (fragment: FragmentDefinitionNode | null | undefined): Shape => {
      if (!fragment) return { depth: 0, aliases: 0, directives: 0 };
      const name = fragment.name.value;
      const known = fragments.get(name);
      if (known) return known;
      if (visiting.has(name)) return { depth: 0, aliases: 0, directives: 0 };
      visiting.add(name);
      const shape = measure(fragment.selectionSet);
      shape.directives += fragment.directives?.length ?? 0;
      visiting.delete(name);
      fragments.set(name, shape);
      return shape;
    };

    return {
      OperationDefinition(operation) {
        const shape = measure(operation.selectionSet);
        shape.directives += operation.directives?.length ?? 0;
        const measured: Array<[Measure, number, number]> = [
          ['depth', limits.maxDepth, shape.depth],
          ['aliases', limits.maxAliases, shape.aliases],
          ['directives', limits.maxDirectives, shape.directives],
        ];
        const over = measured.find(([, limit, value]) => value > limit);
        if (over) context.reportError(tooComplex(over[0], over[1], over[2]));
        return false;
      },
    };
  };
}
