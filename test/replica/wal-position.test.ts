import fc from 'fast-check';
import { walPosition } from '../../src/replica/wal-position';

const lsn = (high: number, low: number) =>
  `${high.toString(16).toUpperCase()}/${low.toString(16).toUpperCase()}`;
const half = fc.integer({ min: 0, max: 0xffffffff });
const high = fc.integer({ min: 0, max: 0x1fffff });

describe('a WAL position as a number', () => {
  test('orders LSNs as PostgreSQL does (high half first, then low)', () => {
    fc.assert(
      fc.property(high, half, high, half, (h1, l1, h2, l2) => {
        const expected = h1 === h2 ? Math.sign(l1 - l2) : Math.sign(h1 - h2);
        expect(Math.sign(walPosition(lsn(h1, l1)) - walPosition(lsn(h2, l2)))).toBe(expected);
      }),
    );
  });

  test('no position (a primary, or a replica before it replays) is the start', () => {
    expect(walPosition(null)).toBe(0);
    expect(walPosition('0/0')).toBe(0);
  });
});
