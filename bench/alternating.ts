import { readdirSync, readFileSync } from 'node:fs';

/**
 * In-process A/B of a few ways of doing the same work (bench/page-statement.ts, bench/executor.ts): each
 * way runs `calls` times with `inFlight` at once (as on a loaded server), the ways in alternating rounds
 * after two warm-up rounds, so the machine's slow and fast spells fall on all of them alike.
 */
export interface Measured {
  /** This process's CPU per call, ms. */
  cpu: number;
  /** PostgreSQL's CPU per call, ms (the backends of `database` if given, else every postgres process). */
  db: number;
  /** Wall time per call, ms. */
  wall: number;
}

export async function alternatingRounds<Way extends string>(
  ways: Record<Way, () => Promise<unknown>>,
  options: { rounds: number; calls: number; inFlight: number; database?: string },
): Promise<Record<Way, Measured[]>> {
  const names = Object.keys(ways) as Way[];
  const measure = async (way: Way, calls: number): Promise<Measured> => {
    const before = process.cpuUsage();
    const postgresBefore = postgresCpuMs(options.database);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.inFlight }, async () => {
        for (let i = 0; i < calls / options.inFlight; i++) await ways[way]();
      }),
    );
    const used = process.cpuUsage(before);
    return {
      cpu: (used.user + used.system) / 1000 / calls,
      db: cpuSince(postgresBefore, postgresCpuMs(options.database)) / calls,
      wall: (performance.now() - started) / calls,
    };
  };
  for (const way of [...names, ...names]) await measure(way, Math.min(400, options.calls));
  const rounds = Object.fromEntries(names.map((way) => [way, [] as Measured[]])) as Record<Way, Measured[]>;
  for (let round = 0; round < options.rounds; round++)
    for (const way of names) rounds[way].push(await measure(way, options.calls));
  return rounds;
}

export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * CPU time so far of PostgreSQL's processes on this machine, in ms (the server is local): the backends
 * connected to `database` (a backend's process title names its database) — on a machine shared with
 * other work, only this benchmark's — or, without it, every postgres process.
 */
export function postgresCpuMs(database?: string): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      if (database && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `)) continue;
      const fields = stat.split(') ')[1]?.split(' ') ?? [];
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the process ended while we looked
    }
  }
  return ticks;
}

/**
 * The CPU the processes used between two looks, ms: a process that ended in between (the pool closes an
 * idle connection) is left out, not counted as negative.
 */
export function cpuSince(before: Map<string, number>, after: Map<string, number>): number {
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}
