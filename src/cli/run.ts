import type { AuthTarget } from '../auth/invalidation';
import type { Db } from '../db/client';
import { type CliContext, type Command, commandHelp, parseCommandArgs, UsageError, usageLine } from './args';
import { keyCommands } from './key-commands';
import { describeError, toJson } from './output';
import { productCommands } from './product-commands';
import { staffCommands } from './staff-commands';
import { storeCommands } from './store-commands';
import { webhookCommands } from './webhook-commands';

export interface CliIo {
  db: Db;
  /** One call per block of output; the caller adds the trailing newline. */
  out: (text: string) => void;
  err: (text: string) => void;
  /** The clock for suspendedAt and for judging --expires; defaults to the real time. */
  now?: Date;
  /** Publishes store changes to running API processes (through Redis when REDIS_URL is set). */
  invalidateAuth?: (target: AuthTarget) => Promise<void>;
  /** Replaces a store's read-cache data version after a write (through Redis when REDIS_URL is set). */
  storeChanged?: (storeId: string) => Promise<void>;
  /** One line for an error that means the database cannot be used (src/db/connection-errors.ts). */
  databaseProblem?: (error: unknown) => string | null;
  webhooks?: CliContext['webhooks'];
  interrupted?: CliContext['interrupted'];
}

export const commands: Command[] = [
  ...storeCommands,
  ...staffCommands,
  ...keyCommands,
  ...productCommands,
  ...webhookCommands,
];

export function usage(): string {
  return [
    'Usage: npm run cli -- <command> [options] [--json]',
    '',
    'Commands:',
    ...commands.map((cmd) => `  ${usageLine(cmd)}`),
    '',
    'Every command takes --json for machine-readable output and --help for its options.',
    'Exit status: 0 done, 1 rejected (invalid value, not found, conflict, …), 2 usage error.',
    'DATABASE_URL names the database; unset, the CLI uses the embedded one `npm start` runs (DATA_DIR).',
    'Settings are read from the environment, then from .env (ENV_FILE names another file).',
  ].join('\n');
}

/**
 * The operators' CLI, callable in-process: parses argv (without `node script`), runs one command against
 * io.db and returns the exit status. Never throws.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    (first === undefined ? io.err : io.out)(usage());
    return first === undefined ? 2 : 0;
  }
  const cmd = commands.find((candidate) => candidate.name === `${first} ${second}`);
  if (!cmd) {
    const group = commands.filter((candidate) => candidate.name.startsWith(`${first} `));
    if (group.length && (second === undefined || second === '--help' || second === '-h')) {
      const text = [`Commands of "${first}":`, ...group.map((c) => `  ${usageLine(c)}`)].join('\n');
      (second === undefined ? io.err : io.out)(text);
      return second === undefined ? 2 : 0;
    }
    const what = group.length ? `${first} ${second}` : first;
    return report(io, json, new UsageError(`unknown command "${what}"`, usage()));
  }

  try {
    const input = parseCommandArgs(cmd, argv.slice(2));
    if (input.help) {
      io.out(commandHelp(cmd));
      return 0;
    }
    const result = await cmd.run(
      {
        db: io.db,
        writer: { prisma: io.db, storeChanged: io.storeChanged },
        now: io.now ?? new Date(),
        invalidateAuth: io.invalidateAuth ?? (async () => {}),
        webhooks: io.webhooks,
        progress: io.out,
        interrupted: io.interrupted,
      },
      input,
    );
    io.out(input.json ? toJson(result.json) : result.text.join('\n'));
    return 0;
  } catch (error) {
    if (error instanceof UsageError && !error.usage) {
      return report(io, json, new UsageError(error.message, commandHelp(cmd)));
    }
    return report(io, json, error);
  }
}

function report(io: CliIo, json: boolean, error: unknown): number {
  const problem = io.databaseProblem?.(error);
  if (problem) {
    io.err(
      json ? toJson({ error: { code: 'DATABASE_UNAVAILABLE', message: problem } }) : `Error: ${problem}`,
    );
    return 1;
  }
  const { exitCode, lines, json: body } = describeError(error);
  io.err(json ? toJson(body) : lines.join('\n'));
  return exitCode;
}
