/**
 * A WAL position (an LSN, `16/B374D848`) as a number: the high and low 32-bit halves joined. Exact up
 * to 2^53 bytes of WAL (8 PiB), past any server's lifetime; Redis's Lua compares it as a double too.
 */
export function walPosition(lsn: string | null | undefined): number {
  if (!lsn) return 0;
  const [high, low] = lsn.split('/');
  return Number.parseInt(high ?? '0', 16) * 2 ** 32 + Number.parseInt(low ?? '0', 16);
}
