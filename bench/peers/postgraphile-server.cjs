// PostGraphile 4 over the service's tables, the peer of bench/peers.ts: the schema `public` as
// PostGraphile makes it by default (queries only), on node:http, on a free loopback port that it
// prints as one JSON line. DATABASE_URL names the database; it ends when stdin does.
const http = require('node:http');
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
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
