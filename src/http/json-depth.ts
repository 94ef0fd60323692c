import { AppError } from '../errors';

/**
 * How deeply a request body may nest arrays and objects. No input of the API comes near it (an
 * order's lines are 3 deep, a webhook's metadata 2), and every walk of a parsed value downstream
 * (the input boundary, zod, graphql-js' coercion) recurses: a 100,000-deep array overflowed the
 * stack and answered 500.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether JSON text nests deeper than `limit`, read from the text before it is parsed: brackets and
 * braces outside strings, one pass, no recursion, so a hostile body never reaches a recursive walk.
 * Text that is not JSON is JSON.parse's to refuse; this only counts.
 */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (text.length <= limit) return false; // each level takes a character
  // Most bodies hold fewer opening brackets than the limit in all: counted by the native indexOf,
  // that settles it without the character loop below, which is far slower on a large body
  // (bench/BASELINE.md, "Figures the code's comments relied on").
  if (!hasMoreThan(text, OPEN_BRACKET, OPEN_BRACE, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) depth--;
  }
  return false;
}

/** 400 JSON_TOO_DEEP when `text` (what the caller sent as `what`) nests past MAX_JSON_DEPTH. */
export function assertJsonDepth(text: string, what: string): void {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw new AppError(
      'JSON_TOO_DEEP',
      `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
    );
}

/** Whether `text` holds more than `count` of the two characters together. */
function hasMoreThan(text: string, first: number, second: number, count: number): boolean {
  let found = 0;
  for (const char of [String.fromCharCode(first), String.fromCharCode(second)]) {
    for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) {
      if (++found > count) return true;
    }
  }
  return false;
}
