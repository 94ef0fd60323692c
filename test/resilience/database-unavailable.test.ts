import { connect, createServer, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { connectDatabase } from '../../src/db/client';
import { classifyError, isDatabaseUnavailable } from '../../src/errors';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { freePort } from '../helpers/process';

/**
 * The one recognition of "PostgreSQL is away" (src/errors.ts), by code, on errors made by real
 * connections: refused, cut mid-query, terminated by the server; and what it must not swallow.
 */
describe('isDatabaseUnavailable and classifyError', () => {
  let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
  beforeAll(async () => {
    database = await createDatabaseFromTemplate();
  });
  afterAll(() => database.drop());

  const caught = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      return error;
    }
    throw new Error('expected a failure');
  };

  it('a refused connection, through pg and through Prisma, is 503 SERVICE_UNAVAILABLE with a retry hint', async () => {
    const port = await freePort();
    const url = `postgresql://postgres@127.0.0.1:${port}/none`;
    const client = new Client({ connectionString: url });
    expect(isDatabaseUnavailable(await caught(() => client.connect()))).toBe(true);

    const db = connectDatabase(url, { max: 1 });
    try {
      const viaPrisma = await caught(() => db.prisma.store.findFirst());
      const { appError, unexpected } = classifyError(viaPrisma);
      expect(unexpected).toBe(false);
      expect(appError).toEqual(
        expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterSeconds: 5 }),
      );
      const viaTransaction = await caught(() => db.prisma.$transaction(async (tx) => tx.store.count()));
      expect(classifyError(viaTransaction).appError.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await db.close();
    }
  });

  it('a session the server terminates (57P01) and a connection cut mid-query are recognised', async () => {
    const db = connectDatabase(database.url, { max: 2 });
    const admin = connectDatabase(database.url, { max: 1 });
    const proxy = await cuttingProxy(new URL(database.url));
    const cut = connectDatabase(database.url.replace(/:\d+\//, `:${proxy.port}/`), { max: 1 });
    try {
      const sleeping = caught(() => db.prisma.$queryRaw`SELECT pg_sleep(5)`);
      await waitFor(async () => {
        const rows = await admin.prisma.$queryRaw<Array<{ n: number }>>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()`;
        return rows[0]?.n === 1;
      });
      await admin.prisma
        .$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()`;
      expect(classifyError(await sleeping).appError.code).toBe('SERVICE_UNAVAILABLE');

      // pg reports a socket closed under a query without any code; the pool names it 08006.
      const query = caught(() => cut.pool.query('SELECT pg_sleep(5)'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      proxy.cutAll();
      const lost = (await query) as { code?: string };
      expect(lost.code).toBe('08006');
      expect(isDatabaseUnavailable(lost)).toBe(true);
    } finally {
      await Promise.all([db.close(), admin.close(), cut.close()]);
      await proxy.close();
    }
  });

  it('keeps other failures apart: a bad statement and a constraint violation are not outages', async () => {
    const db = connectDatabase(database.url, { max: 1 });
    try {
      const syntax = await caught(() => db.pool.query('SELEC 1'));
      expect(isDatabaseUnavailable(syntax)).toBe(false);
      expect(classifyError(syntax)).toEqual(expect.objectContaining({ unexpected: true }));
      const client = await db.pool.connect();
      try {
        await client.query('CREATE TEMP TABLE once (id int PRIMARY KEY)');
        const duplicate = await caught(() => client.query('INSERT INTO once VALUES (1), (1)'));
        expect((duplicate as { code?: string }).code).toBe('23505');
        expect(isDatabaseUnavailable(duplicate)).toBe(false);
      } finally {
        client.release();
      }
    } finally {
      await db.close();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A TCP proxy to PostgreSQL whose connections the test can cut: a network that drops the database. */
async function cuttingProxy(target: URL): Promise<{ port: number; cutAll(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) socket.on('error', () => {});
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    cutAll: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
