import { currencyDecimals, formatAmount, formatMoney, parseMoney } from '../../dashboard/src/money';

/**
 * docs/design.md "The dashboard", money: amounts are typed and shown in the store's currency with its
 * decimals, as the browser's locale writes numbers; the API gets integer minor units.
 */

describe('the currency’s decimals come from Intl', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['JPY', 0],
    ['KWD', 3],
  ])('%s has %i', (currency, decimals) => {
    expect(currencyDecimals(currency)).toBe(decimals);
  });
});

describe('formatMoney shows minor units in the currency', () => {
  it.each([
    [1250, 'USD', 'en-US', '$12.50'],
    [1500, 'JPY', 'en-US', '¥1,500'],
    [12345, 'KWD', 'en-US', 'KWD 12.345'],
    [123450, 'EUR', 'de-DE', '1.234,50 €'],
    [1500, 'JPY', 'de-DE', '1.500 ¥'],
    [-500, 'USD', 'en-US', '-$5.00'],
  ])('%i %s in %s is %s', (minor, currency, locale, shown) => {
    expect(formatMoney(minor, currency, locale).replace(/\s/g, ' ')).toBe(shown);
  });

  it('formatAmount gives the text a field is edited with: no symbol, no grouping, every decimal', () => {
    expect(formatAmount(123450, 'USD', 'en-US')).toBe('1234.50');
    expect(formatAmount(123450, 'EUR', 'de-DE')).toBe('1234,50');
    expect(formatAmount(1500, 'JPY', 'en-US')).toBe('1500');
    expect(formatAmount(12000, 'KWD', 'en-US')).toBe('12.000');
  });
});

describe('parseMoney takes amounts as people write them', () => {
  it.each([
    ['12.50', 'USD', 'en-US', 1250],
    ['12.5', 'USD', 'en-US', 1250],
    ['12', 'USD', 'en-US', 1200],
    ['.5', 'USD', 'en-US', 50],
    ['1,234.50', 'USD', 'en-US', 123450],
    ['1,234', 'USD', 'en-US', 123400],
    ['$12.50', 'USD', 'en-US', 1250],
    ['12.50 USD', 'USD', 'en-US', 1250],
    ['usd 12.50', 'USD', 'en-US', 1250],
    ['12,50', 'USD', 'de-DE', 1250],
    ['1.234,50', 'EUR', 'de-DE', 123450],
    ['1.234', 'EUR', 'de-DE', 123400],
    ['12,50 €', 'EUR', 'de-DE', 1250],
    ['1.234,50 EUR', 'EUR', 'de-DE', 123450],
    ['12,50', 'EUR', 'fr-FR', 1250],
    ['1 234,50 €', 'EUR', 'fr-FR', 123450],
    // Both separators: the last is the decimal one, whatever the locale.
    ['1,234.50', 'USD', 'de-DE', 123450],
    ['1500', 'JPY', 'en-US', 1500],
    ['1,500', 'JPY', 'en-US', 1500],
    ['¥1,500', 'JPY', 'en-US', 1500],
    ['1.500', 'JPY', 'de-DE', 1500],
    ['12.345', 'KWD', 'en-US', 12345],
    ['12.3', 'KWD', 'en-US', 12300],
    ['KWD 12.345', 'KWD', 'en-US', 12345],
    ['12,345', 'KWD', 'de-DE', 12345],
    ['0', 'USD', 'en-US', 0],
  ])('%s in %s (%s) is %i minor units', (text, currency, locale, minor) => {
    expect(parseMoney(text, currency, locale)).toEqual({ ok: true, minor });
  });

  it('takes a negative amount only where the field allows one', () => {
    expect(parseMoney('-5.00', 'USD', 'en-US', { negative: true })).toEqual({ ok: true, minor: -500 });
    expect(parseMoney('-$5', 'USD', 'en-US', { negative: true })).toEqual({ ok: true, minor: -500 });
  });
});

describe('parseMoney refuses what is no amount of the currency, saying why', () => {
  it.each([
    ['12.5', 'JPY', 'en-US', 'JPY has no decimals'],
    ['12,5', 'JPY', 'de-DE', 'JPY has no decimals'],
    ['12.3456', 'KWD', 'en-US', 'at most 3 decimals for KWD'],
    ['12,3456', 'KWD', 'de-DE', 'at most 3 decimals for KWD'],
    ['12.505', 'USD', 'en-US', 'at most 2 decimals for USD'],
    ['12,505', 'EUR', 'de-DE', 'at most 2 decimals for EUR'],
    ['-5', 'USD', 'en-US', 'must not be negative'],
    ['-12,50 €', 'EUR', 'de-DE', 'must not be negative'],
    ['abc', 'USD', 'en-US', 'is not an amount in USD, e.g. 12.50'],
    ['12abc', 'USD', 'en-US', 'is not an amount in USD, e.g. 12.50'],
    ['1e5', 'USD', 'en-US', 'is not an amount in USD, e.g. 12.50'],
    ['12..5', 'USD', 'en-US', 'is not an amount in USD, e.g. 12.50'],
    ['1,2,3', 'USD', 'en-US', 'is not an amount in USD, e.g. 12.50'],
    ['1.234,5.0', 'EUR', 'de-DE', 'is not an amount in EUR, e.g. 12,50'],
    ['€12.50', 'USD', 'en-US', 'is not an amount in USD, e.g. 12.50'],
    ['', 'USD', 'en-US', 'enter an amount in USD, e.g. 12.50'],
    ['  ', 'JPY', 'en-US', 'enter an amount in JPY, e.g. 1250'],
    ['', 'KWD', 'en-US', 'enter an amount in KWD, e.g. 12.500'],
    ['99999999999', 'USD', 'en-US', 'must be at most $21,474,836.47'],
  ])('%s in %s (%s): %s', (text, currency, locale, message) => {
    expect(parseMoney(text, currency, locale)).toEqual({ ok: false, message });
  });
});
