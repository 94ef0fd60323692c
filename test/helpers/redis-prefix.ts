import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createLogger } from '../../src/logger';
import { freePort } from './process';

/** A key prefix of its own for each test file, so concurrent files never share Redis keys. */
export const testPrefix = (what: string) => `test:${what}:${randomBytes(6).toString('hex')}:`;

/** Deletes every key under the prefix (SCAN, never KEYS). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** The commands (name and arguments) the connection sends while `body` runs. */
export async function commandsSent(
  connection: Redis,
  body: () => Promise<unknown>,
): Promise<Array<{ name: string; args: unknown[] }>> {
  const sent: Array<{ name: string; args: unknown[] }> = [];
  const original = connection.sendCommand.bind(connection);
  connection.sendCommand = ((command: { name: string; args: unknown[] }, ...rest: unknown[]) => {
    sent.push({ name: command.name, args: command.args });
    return (original as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof connection.sendCommand;
  try {
    await body();
  } finally {
    connection.sendCommand = original;
  }
  return sent;
}

/** Resolves once the connection can take commands (connectRedis does not queue them while connecting). */
export function ready(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => redis.once('ready', () => resolve()));
}

export interface LogLine {
  level: number;
  msg: string;
  component?: string;
  [field: string]: unknown;
}

/** A pino logger whose lines are kept (parsed) for assertions. */
export function captureLogs(level = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger(level, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

/**
 * A connection with src/redis.ts's settings to a port nothing listens on: Redis down. (ioredis keeps
 * a failed socket's disconnect timer, 2 s by default, alive after disconnect(); 0 lets jest exit at once.)
 */
export async function unreachableRedis(): Promise<Redis> {
  const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 100,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    disconnectTimeout: 0,
  });
  redis.on('error', () => {});
  return redis;
}
