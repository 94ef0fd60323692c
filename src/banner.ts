import type { SeedResult } from '../prisma/seed/demo-store';
import type { Config } from './config';

/**
 * What `npm start` (and the api and worker roles) print once running: where everything is, who can
 * sign in, where the data lives, whether Redis is used, and how to get an API key. Plain text for a
 * person at a terminal, on stdout beside the logs.
 */
export function banner(options: {
  config: Config;
  role: 'all' | 'api' | 'worker';
  databaseUrl: string;
  /** Set when the database is the embedded one. */
  embeddedDir?: string;
  demo: SeedResult | null;
}): string {
  const { config, role, demo } = options;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  const rows: Array<[string, string]> = [];
  if (role !== 'worker') {
    rows.push(
      ['Dashboard', `${base}/${demo ? `   sign in as ${demo.ownerEmail}` : ''}`],
      ['GraphQL', `${base}/graphql${config.graphiql ? '   (GraphiQL in a browser)' : ''}`],
      ['REST', `${base}/api/v1   reference: ${base}/docs`],
      ['MCP', `${base}/mcp`],
      ['Health', `${base}/healthz  ${base}/readyz`],
    );
  }
  rows.push(
    [
      'Database',
      options.embeddedDir
        ? `embedded PostgreSQL, data in ${options.embeddedDir} (127.0.0.1:${config.embeddedPgPort})`
        : describeUrl(options.databaseUrl),
    ],
    [
      'Redis',
      typeof config.redis === 'object'
        ? `Redis Cluster, seed nodes ${config.redis.clusterNodes.join(', ')}`
        : config.redis
          ? describeUrl(config.redis)
          : 'not configured: rate limits and usage counts are kept in this process',
    ],
    [
      'Worker',
      role === 'api'
        ? 'not in this process (run the worker role)'
        : `in this process (concurrency ${config.workerConcurrency})`,
    ],
  );
  if (role === 'worker' && config.workerHealthPort !== undefined) {
    const health = `http://${host.includes(':') ? `[${host}]` : host}:${config.workerHealthPort}`;
    rows.push(['Health', `${health}/healthz  ${health}/readyz`]);
  }
  if (demo && !demo.created) {
    rows.push([
      'API key',
      `the demo key was printed on the first start; a new one: npm run cli -- key create --store ${demo.storeId} --name "My key" --env development --all-scopes`,
    ]);
  } else if (!demo) {
    rows.push([
      'API key',
      'npm run cli -- store list, then: npm run cli -- key create --store <id> --name "My key" --env development --all-scopes',
    ]);
  }
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const title = `Commerce service ${role === 'all' ? '(API and worker)' : `(${role})`} is running`;
  return (
    ['', title, ...rows.map(([label, value]) => `  ${label.padEnd(width)}${value}`), ''].join('\n') + '\n'
  );
}

/** scheme://host:port/path of a URL, never its user or password. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(set)';
  }
}
