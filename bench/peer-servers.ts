// The hand-written peers of bench/peers.ts, one per process, each on a free loopback port that it
// prints as one JSON line; it ends when stdin does. BENCH_PEER names which:
//   bare   node:http answering BENCH_BODY (fixed bytes: the same JSON our REST door answers)
//   page   node:http + pg: the product page (25 with their category, and the total) in one statement
//   order  node:http + pg: an order placed in one transaction, the work placeOrder does
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { taskName } from '../src/task-catalog';

// The bench drops its database when it ends, which ends these connections: nothing to report then.
const pool = () => new Pool({ connectionString: process.env.DATABASE_URL, max: 10 }).on('error', () => {});

const PAGE_SQL = `
SELECT json_build_object(
  'success', true,
  'status', 200,
  'data', coalesce(json_agg(json_build_object(
    'id', x.id, 'name', x.name, 'slug', x.slug, 'sku', x.sku, 'priceAmount', x."priceAmount",
    'compareAtAmount', x."compareAtAmount", 'currency', x.currency, 'stock', x.stock, 'status', x.status,
    'categoryId', x."categoryId", 'category', x.category, 'createdAt', x."createdAt", 'updatedAt', x."updatedAt"
  ) ORDER BY x."createdAt" DESC, x.id DESC), '[]'::json),
  'pagination', json_build_object('totalResults', coalesce(max(x.total), 0), 'currentPage', 1, 'limit', 25)
)::text AS body
FROM (
  SELECT p.*, CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'name', c.name) END AS category,
         count(*) OVER () AS total
  FROM "Product" p LEFT JOIN "Category" c ON c.id = p."categoryId"
  WHERE p."storeId" = $1
  ORDER BY p."createdAt" DESC, p.id DESC
  LIMIT 25
) x`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const send = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

function bare() {
  const body = Buffer.from(process.env.BENCH_BODY ?? '{}');
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  };
}

function page() {
  const db = pool();
  const storeId = process.env.BENCH_STORE_ID as string;
  return (_req: IncomingMessage, res: ServerResponse) => {
    db.query<{ body: string }>({ name: 'page', text: PAGE_SQL, values: [storeId] }).then(
      (result) => send(res, 200, result.rows[0]?.body ?? '{}'),
      (error: Error) => send(res, 500, JSON.stringify({ error: error.message })),
    );
  };
}

interface OrderBody {
  email: string;
  items: { productId: string; quantity: number }[];
}

/** What placeOrder does, as one transaction of plain statements (no coupon, no customer). */
function order() {
  const db = pool();
  const storeId = process.env.BENCH_STORE_ID as string;
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const input = JSON.parse(await readBody(req)) as OrderBody;
      const client = await db.connect();
      try {
        await client.query('BEGIN');
        const store = await client.query<{ currency: string }>({
          name: 'store',
          text: 'SELECT currency FROM "Store" WHERE id = $1',
          values: [storeId],
        });
        const lines = [];
        for (const item of [...input.items].sort((a, b) => (a.productId < b.productId ? -1 : 1))) {
          const reserved = await client.query<{ name: string; sku: string | null; priceAmount: number }>({
            name: 'reserve',
            text: `UPDATE "Product" SET stock = stock - $3, "updatedAt" = now()
                   WHERE id = $1 AND "storeId" = $2 AND status = 'active' AND stock >= $3
                   RETURNING name, sku, "priceAmount"`,
            values: [item.productId, storeId, item.quantity],
          });
          const product = reserved.rows[0];
          if (!product) throw new Error('INSUFFICIENT_STOCK');
          lines.push({ ...item, ...product, total: product.priceAmount * item.quantity });
        }
        const subtotal = lines.reduce((sum, line) => sum + line.total, 0);
        const numbered = await client.query<{ number: number }>({
          name: 'number',
          text: `UPDATE "Store" SET "nextOrderNumber" = "nextOrderNumber" + 1 WHERE id = $1
                 RETURNING "nextOrderNumber" - 1 AS number`,
          values: [storeId],
        });
        const inserted = await client.query<{ id: string }>({
          name: 'order',
          text: `INSERT INTO "Order" ("storeId", number, email, currency, "subtotalAmount", "totalAmount", "createdAt", "updatedAt")
                 VALUES ($1, $2, $3, $4, $5, $5, now(), now()) RETURNING id`,
          values: [storeId, numbered.rows[0]?.number, input.email, store.rows[0]?.currency, subtotal],
        });
        const orderId = inserted.rows[0]?.id;
        for (const line of lines) {
          await client.query({
            name: 'line',
            text: `INSERT INTO "OrderItem" ("orderId", "productId", name, sku, "unitAmount", quantity, "totalAmount")
                   VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            values: [
              orderId,
              line.productId,
              line.name,
              line.sku,
              line.priceAmount,
              line.quantity,
              line.total,
            ],
          });
        }
        const data = JSON.stringify({ object: { id: orderId, number: numbered.rows[0]?.number, lines } });
        const event = await client.query<{ id: string }>({
          name: 'event',
          text: `INSERT INTO "Event" ("storeId", type, data, "createdAt") VALUES ($1, 'order.placed', $2, now()) RETURNING id`,
          values: [storeId, data],
        });
        const eventId = event.rows[0]?.id as string;
        await client.query({
          name: 'job',
          text: `SELECT graphile_worker.add_job('${taskName.fan_out_event}', $1::json, job_key := $2)`,
          values: [JSON.stringify({ eventId }), eventId],
        });
        await client.query('COMMIT');
        send(
          res,
          201,
          JSON.stringify({
            success: true,
            status: 201,
            data: { id: orderId, number: numbered.rows[0]?.number },
          }),
        );
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        send(res, 409, JSON.stringify({ success: false, message: (error as Error).message }));
      } finally {
        client.release();
      }
    })();
  };
}

const handlers = { bare, page, order } as const;
const which = process.env.BENCH_PEER as keyof typeof handlers;
const server = createServer(handlers[which]());
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
