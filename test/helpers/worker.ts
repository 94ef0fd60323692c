import type { TaskList } from 'graphile-worker';
import { taskList } from '../../jobs/registry';
import { webhookWorkerOptions } from '../../jobs/worker';
import { loadConfig } from '../../src/config';
import type { Database } from '../../src/db/client';
import { createLogger } from '../../src/logger';
import { createUsageMeter, type UsageMeter } from '../../src/usage/meter';

/**
 * The worker's whole task list over a test database, for tests of the tasks that send nothing out: the
 * webhook options are a test configuration's (test/webhooks/helpers.ts has the ones that reach a
 * receiver). `close` releases their HTTP client and mailer.
 */
export function testTaskList(
  db: Database,
  usageMeter: UsageMeter = createUsageMeter({ redis: null, logger: createLogger('silent') }),
): { taskList: TaskList; close(): Promise<void> } {
  const webhooks = webhookWorkerOptions(loadConfig({ NODE_ENV: 'test' }), createLogger('silent'));
  return {
    taskList: taskList({ prisma: db.prisma, pool: db.pool, usageMeter, webhooks }),
    close: async () => {
      webhooks.mailer.close();
      await webhooks.httpClient.close();
    },
  };
}
