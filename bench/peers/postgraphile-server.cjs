// PostGraphile 4 over the service's tables, the peer of bench/peers.ts: the schema `public` as
// PostGraphile makes it by default (queries only), on node:http, on a free loopback port that it
// prints as one JSON line. DATABASE_URL names the database; it ends when stdin does.
// BENCH_WORKERS=N (bench/cluster.ts) runs N node:cluster workers on the one port, as PostGraphile's
// own CLI does with `--cluster-workers N`; the primary prints the port once all of them listen.
const cluster = require('node:cluster');
const http = require('node:http');

const workers = Number(process.env.BENCH_WORKERS ?? 1);

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  let port;
  for (let i = 0; i < workers; i++) {
    cluster.fork().on('message', (message) => {
      port = message.port;
      listening++;
      if (listening === workers) process.stdout.write(`${JSON.stringify({ port })}\n`);
    });
  }
  process.stdin.resume();
  process.stdin.on('end', () => {
    for (const worker of Object.values(cluster.workers)) worker.kill();
    process.exit(0);
  });
} else {
  const { postgraphile } = require('postgraphile');
  const handler = postgraphile(process.env.DATABASE_URL, 'public', {
    disableDefaultMutations: true,
    graphiql: false,
    disableQueryLog: true,
    ignoreRBAC: true,
    dynamicJson: true,
    retryOnInitFail: false,
  });
  const server = http.createServer(handler);
  server.keepAliveTimeout = 65_000;
  // In a cluster worker, port 0 is one port the primary chooses for every worker.
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    if (cluster.isWorker) process.send({ port });
    else process.stdout.write(`${JSON.stringify({ port })}\n`);
  });
  if (cluster.isPrimary) {
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));
  }
}
