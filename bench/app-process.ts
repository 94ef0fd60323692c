// One API process for a benchmark (bench/pipeline-ab.ts): the app of the tree this file stands in,
// on the database and Redis the parent names, listening on a free loopback port that it prints as
// one JSON line. Only APIs that every version of the app has are used, so the same file can be
// copied into an older checkout and run there.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { Client } from 'pg';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { connectDatabase } from '../src/db/client';
import { listen } from '../src/http/server';
import { createLogger } from '../src/logger';
import { connectRedis } from '../src/redis';
import { BATCH_BEGIN, BATCH_COMMIT } from '../src/request-log/recorder';
import { createRuntime } from '../src/runtime';

async function main() {
  const env = JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as Record<string, string>;
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', ...env });
  const logger = createLogger('silent');
  const db = connectDatabase(config.databaseUrl as string, { max: 10 });
  // REDIS_TIMEOUT_MS as src/main.ts passes it: with ioredis' default here (100 ms) a loaded machine's
  // slow command failed whatever the bench asked, and a 304 run got 200s (no version, no tag).
  const redis = connectRedis(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', logger, {
    commandTimeoutMs: config.redisTimeoutMs,
  });
  await new Promise((resolve) => redis.once('ready', resolve));
  if (process.env.BENCH_REQUEST_LOG_UNWRITTEN) divertRequestLog(async () => {}, true);
  if (process.env.BENCH_REQUEST_LOG_SENT_ONLY)
    divertRequestLog(
      (client, text, query) =>
        query.call(client, { text: 'SELECT octet_length($1::text)', values: [text] }) as Promise<unknown>,
      false,
    );
  const prefix = process.env.BENCH_REDIS_PREFIX ?? `bench:${process.pid}:`;
  const runtime = createRuntime({ config, prisma: db.prisma, redis, logger, redisKeyPrefix: prefix });
  await runtime.start();
  const server = await listen(createApp({ config, redis, logger, runtime }), 0, '127.0.0.1');
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  const profiling = env.BENCH_CPU_PROFILE ? profileOnSignal(env.BENCH_CPU_PROFILE) : undefined;
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await profiling?.();
    // Under its own prefix, the process deletes its keys itself (a bench that names one deletes it):
    // the bench shares the developer's Redis. (An older tree, which pipeline-ab.ts copies this file
    // into, may not have redis-keys.ts: it then leaves them.)
    if (!process.env.BENCH_REDIS_PREFIX) {
      await runtime.stop();
      const keys = await import('./redis-keys.js').catch(() => null);
      await keys?.deleteKeysUnder(redis, prefix);
    }
    process.exit(0);
  });
}

type Query = (this: Client, ...args: unknown[]) => unknown;

/**
 * bench/request-log-cost.ts's "unwritten" and "sent only" processes: the request log records every
 * entry and makes each batch's COPY text as ever, but the COPY goes to `take` instead of PostgreSQL.
 * Unwritten (`alone`): nothing reaches PostgreSQL — the batch's BEGIN and COMMIT answer at once too —
 * what the log costs the API process alone. Sent only: the batch's transaction is real and its text
 * reaches PostgreSQL as the parameter of a statement that only measures its length — what the write
 * costs apart from PostgreSQL's insert.
 */
function divertRequestLog(
  take: (client: Client, text: string, query: Query) => Promise<unknown>,
  alone: boolean,
) {
  const query = Client.prototype.query as Query;
  const inBatch = new WeakSet<object>();
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const first = args[0] as { text?: unknown } | string;
    const text = typeof first === 'string' ? first : first?.text;
    if (alone && text === BATCH_BEGIN) {
      inBatch.add(this);
      return Promise.resolve({ rowCount: 0, rows: [] });
    }
    if (alone && inBatch.has(this) && text === BATCH_COMMIT) {
      inBatch.delete(this);
      return Promise.resolve({ rowCount: 0, rows: [] });
    }
    if (typeof text === 'string' && text.startsWith('COPY "RequestLogEntry"')) {
      const copy = first as unknown as Writable;
      const chunks: Buffer[] = [];
      copy._write = (chunk, _encoding, done) => {
        chunks.push(Buffer.from(chunk));
        done();
      };
      (copy as { _writev?: unknown })._writev = undefined;
      copy._final = (done) => {
        take(this, Buffer.concat(chunks).toString(), query).then(() => done(), done);
      };
      // pg-copy-streams' own _destroy waits for PostgreSQL's answer to a COPY never sent: the stream
      // would never close, and the recorder's write (which awaits its close) never end.
      copy._destroy = (error, done) => done(error);
      return copy;
    }
    return query.apply(this, args);
  } as typeof Client.prototype.query;
}

/**
 * bench/profile.ts: V8's sampling profiler from the first SIGUSR2 (after warm-up, so start-up is not
 * in it) until the end; the profile is written to `file` before the process exits.
 */
function profileOnSignal(file: string): () => Promise<void> {
  const session = new Session();
  session.connect();
  let started: Promise<unknown> | undefined;
  process.once('SIGUSR2', () => {
    started = session.post('Profiler.enable').then(() => session.post('Profiler.start'));
  });
  return async () => {
    if (!started) return;
    await started;
    const { profile } = (await session.post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
  };
}

void main();
