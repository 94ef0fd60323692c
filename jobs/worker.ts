import { type Runner, run, type TaskList, Logger as WorkerLogger } from 'graphile-worker';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { PrismaClient } from '../prisma/generated/client/client';
import type { UsageMeter } from '../src/usage/meter';
import { makeFlushUsage } from './tasks/flush_usage';
import { pruneExpired } from './tasks/prune_expired';

/** Task names are the file names under jobs/tasks (snake_case). */
export const taskList: TaskList = {
  prune_expired: pruneExpired,
};

export const crontab = ['0 * * * * prune_expired ?max=1'].join('\n');

/** Tasks that need this process's own state: flush_usage moves the usage meter's counts, every minute. */
export function processTasks(options: { usageMeter: UsageMeter; prisma: PrismaClient }): {
  taskList: TaskList;
  crontab: string;
} {
  return {
    taskList: { ...taskList, flush_usage: makeFlushUsage(options.usageMeter, options.prisma) },
    crontab: [crontab, '* * * * * flush_usage ?max=1'].join('\n'),
  };
}

/** graphile-worker's log lines, through pino. */
export function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    const method =
      level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'debug' ? 'debug' : 'info';
    logger[method]({ worker: scope, ...meta }, message);
  });
}

/** Runs the queue on the shared pool until stop() — which waits for jobs in flight to finish. */
export function startWorker(options: {
  pgPool: Pool;
  logger: Logger;
  concurrency: number;
  usageMeter: UsageMeter;
  prisma: PrismaClient;
}): Promise<Runner> {
  const tasks = processTasks(options);
  return run({
    pgPool: options.pgPool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: tasks.taskList,
    crontab: tasks.crontab,
    logger: workerLogger(options.logger.child({ role: 'worker' })),
  });
}
