/**
 * Money as people write it. The API speaks integer minor units of the store's currency (cents for
 * USD, yen for JPY, fils for KWD); a person reads and types amounts in the currency with its
 * decimals, in their browser's way of writing numbers (`12.50` in en-US, `12,50` in de-DE).
 */

/** The API's amounts are GraphQL `Int`s. */
const MAX_MINOR = 2_147_483_647;

/** The browser's locale; undefined (the runtime's default) outside a browser. */
export const browserLocale = (): string | undefined =>
  typeof navigator === 'undefined' ? undefined : navigator.language;

/** How many decimals the currency has: USD 2, JPY 0, KWD 3. */
export function currencyDecimals(currency: string): number {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency });
  return format.resolvedOptions().maximumFractionDigits ?? 2;
}

/** Minor units as the currency shows them: `$12.50`, `¥1,500`, `KWD 12.345` (in the browser's locale). */
export function formatMoney(minor: number, currency: string, locale = browserLocale()) {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  return format.format(minor / 10 ** currencyDecimals(currency));
}

/** Minor units as a person types them back into a field: `12.50` (`12,50` in de-DE), no symbol, no grouping. */
export function formatAmount(minor: number, currency: string, locale = browserLocale()) {
  const decimals = currencyDecimals(currency);
  const format = new Intl.NumberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: false,
  });
  return format.format(minor / 10 ** decimals);
}

export type ParsedMoney = { ok: true; minor: number } | { ok: false; message: string };

const refuse = (message: string): ParsedMoney => ({ ok: false, message });

/** The symbols a person may write around an amount of `currency`: `$`, `US$`, `€`, `USD`… */
function currencyMarks(currency: string, locale: string | undefined) {
  const marks = new Set([currency.toUpperCase()]);
  for (const currencyDisplay of ['symbol', 'narrowSymbol'] as const) {
    for (const where of [locale, 'en']) {
      const parts = new Intl.NumberFormat(where, {
        style: 'currency',
        currency,
        currencyDisplay,
      }).formatToParts(1);
      const mark = parts.find((part) => part.type === 'currency')?.value;
      if (mark) marks.add(mark.toUpperCase());
    }
  }
  // Longest first, so `US$` goes before `$`.
  return [...marks].sort((a, b) => b.length - a.length);
}

const decimalOf = (locale: string | undefined) =>
  new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';

/** An example amount in the currency, as the locale writes it: `12.50`, `12,50`, `1250`. */
const exampleOf = (currency: string, locale: string | undefined) =>
  formatAmount(
    currencyDecimals(currency) === 0 ? 1250 : 1250 * 10 ** (currencyDecimals(currency) - 2),
    currency,
    locale,
  );

/** Splits `1,234.50` / `1.234,50` / `12,50` into its whole and fraction digits, or null when it is no number. */
function splitNumber(text: string, locale: string | undefined): { whole: string; fraction: string } | null {
  // Spaces and apostrophes only ever group digits (fr-FR `1 234,50`, de-CH `1'234.50`).
  const compact = text.replace(/(\d)[\s\u00a0\u202f'’](?=\d{3}(\D|$))/g, '$1');
  if (!/^(\d[\d.,]*|[.,]\d+)$/.test(compact)) return null;
  const separators = compact.replace(/\d/g, '');
  let decimal: string | null = null;
  if (separators.includes('.') && separators.includes(',')) {
    // Both: the last one written is the decimal separator (`1,234.50`, `1.234,50`).
    decimal = separators[separators.length - 1] as string;
  } else if (separators.length === 1) {
    // One separator: the locale's decimal separator is one; the other is one too unless it groups
    // exactly three digits (`1,234` in en-US, `1.234` in de-DE).
    decimal = separators === decimalOf(locale) || !/^\d{1,3}[.,]\d{3}$/.test(compact) ? separators : null;
  }
  const [whole = '', fraction = '', ...rest] = decimal ? compact.split(decimal) : [compact];
  if (rest.length > 0) return null;
  const group = decimal === null ? (separators[0] ?? ',') : decimal === ',' ? '.' : ',';
  if (decimal !== null && fraction.includes(group)) return null;
  const groups = whole.split(group);
  if (
    groups.length > 1 &&
    !(/^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((g) => /^\d{3}$/.test(g)))
  )
    return null;
  if (/[.,]/.test(fraction)) return null;
  return { whole: groups.join('') || '0', fraction };
}

/**
 * What a person typed, in minor units of `currency`, or the message saying why it is no amount:
 * `12.50`, `12,50` where the locale writes a decimal comma, grouping (`1,234.50`, `1.234,50`), the
 * currency's symbol or code around it; never more decimals than the currency has; negative only when
 * `options.negative` allows it.
 */
export function parseMoney(
  text: string,
  currency: string,
  locale = browserLocale(),
  options: { negative?: boolean } = {},
): ParsedMoney {
  let rest = text.trim().toUpperCase();
  if (rest === '') return refuse(`enter an amount in ${currency}, e.g. ${exampleOf(currency, locale)}`);
  for (const mark of currencyMarks(currency, locale)) rest = rest.replace(mark, ' ');
  rest = rest.trim();
  const sign = /^[-−]\s*|\s*[-−]$/;
  const negative = sign.test(rest);
  rest = rest.replace(sign, '').trim();
  const number = splitNumber(rest, locale);
  if (!number) return refuse(`is not an amount in ${currency}, e.g. ${exampleOf(currency, locale)}`);
  const decimals = currencyDecimals(currency);
  if (number.fraction.length > decimals) {
    return refuse(
      decimals === 0
        ? `${currency} has no decimals`
        : `at most ${decimals} decimal${decimals === 1 ? '' : 's'} for ${currency}`,
    );
  }
  const minor = Number(number.whole + number.fraction.padEnd(decimals, '0'));
  if (negative && minor !== 0 && !options.negative) return refuse('must not be negative');
  if (minor > MAX_MINOR) return refuse(`must be at most ${formatMoney(MAX_MINOR, currency, locale)}`);
  return { ok: true, minor: negative ? -minor : minor };
}
