import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** The API processes a primary runs on its one port, and how to stop them. */
export interface ApiProcesses {
  /** Every API process drains (in-flight requests finish) and exits; false when one did not exit 0. */
  stop(signal: NodeJS.Signals): Promise<boolean>;
  /** Set when an API process died before it listened: the primary stops, as one process would. */
  readonly failed: Promise<void>;
}

/**
 * README "API processes": API_PROCESSES above 1 runs that many full API processes with node:cluster,
 * which shares the one listening port between them (the primary accepts and hands connections round
 * robin). Each is started as `api` with the primary's settings (DATABASE_URL the primary's, the
 * embedded one included). One that dies after it listened is replaced, with a log line; one that
 * dies before it listened stops the whole service with exit 1 (a bad setting or a port in use would
 * kill every replacement too). Resolves once all of them listen.
 */
export async function startApiProcesses(options: {
  count: number;
  env: Record<string, string>;
  logger: Logger;
}): Promise<ApiProcesses> {
  const { logger } = options;
  let stopping = false;
  let clean = true;
  let fail: () => void = () => {};
  const failed = new Promise<void>((resolve) => {
    fail = resolve;
  });
  const exits = new Set<Promise<void>>();

  const fork = (): Promise<Worker> => {
    const worker = cluster.fork(options.env);
    let listening = false;
    const exited = new Promise<void>((resolve) => {
      worker.once('exit', (code, signal) => {
        exits.delete(exited);
        resolve();
        if (stopping) {
          // One still starting has no handler yet: the signal ends it, with nothing in flight.
          if (code !== 0 && signal !== 'SIGTERM') clean = false;
          return;
        }
        if (!listening) {
          logger.error(
            { pid: worker.process.pid, exit: signal ?? code },
            'API process exited before it listened: stopping',
          );
          fail();
          return;
        }
        logger.error(
          { pid: worker.process.pid, exit: signal ?? code },
          'API process exited: starting another',
        );
        fork().catch(() => {});
      });
    });
    exits.add(exited);
    return new Promise((resolve, reject) => {
      worker.once('listening', () => {
        listening = true;
        resolve(worker);
      });
      void exited.then(() => {
        if (!listening) reject(new Error('an API process exited before it listened'));
      });
    });
  };

  const started = Promise.all(Array.from({ length: options.count }, fork));
  const stop = async (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    while (exits.size > 0) await Promise.all([...exits]);
    return clean;
  };
  const failure = failed.then(() => {
    throw new Error('an API process could not start (its error is above)');
  });
  failure.catch(() => {});
  try {
    await Promise.race([started, failure]);
  } catch (error) {
    await stop('SIGTERM');
    throw error;
  }
  logger.info('%d API processes listening', options.count);
  return { stop, failed };
}
