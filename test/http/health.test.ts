import { createLogger } from '../../src/logger';
import { connectRedis } from '../../src/redis';
import { redisUrl } from '../helpers/databases';
import { freePort } from '../helpers/process';
import { startTestServer } from '../helpers/server';

describe('health', () => {
  it('/healthz answers while the process is up; /readyz checks PostgreSQL and Redis', async () => {
    const redis = connectRedis(redisUrl, createLogger('silent'));
    const server = await startTestServer({}, { redis });
    try {
      expect(await (await server.request('/healthz')).json()).toEqual({ status: 'ok' });
      if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
      const ready = await server.request('/readyz');
      expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
      expect(ready.status).toBe(200);
    } finally {
      redis.disconnect();
      await server.close();
    }
  });

  it('/readyz stays 200 but says degraded, naming Redis, when only Redis does not answer', async () => {
    const redis = connectRedis(`redis://127.0.0.1:${await freePort()}`, createLogger('silent'));
    const server = await startTestServer({}, { redis });
    try {
      const started = Date.now();
      const ready = await server.request('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'degraded',
        checks: { postgres: 'ok', redis: 'unreachable' },
      });
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await server.request('/healthz')).status).toBe(200);
    } finally {
      redis.disconnect();
      await server.close();
    }
  });
});

describe('GraphiQL', () => {
  const asBrowser = { headers: { accept: 'text/html' } };

  it('is served outside production without a key', async () => {
    const server = await startTestServer({ NODE_ENV: 'development' });
    try {
      const res = await server.request('/graphql', asBrowser);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      const html = await res.text();
      expect(html).toMatch(/GraphiQL/i);
      // Offline: no script, style, font or image is fetched from anywhere (everything is inline).
      expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?(https?:)?\/\//i);
      expect(html).not.toMatch(/@import\s+url\(\s*["']?https?:/i);
      expect(html).not.toMatch(/unpkg\.com|jsdelivr\.net|fonts\.googleapis/i);
      // The key's header is there to fill in.
      expect(html).toContain('tt-api-key');
    } finally {
      await server.close();
    }
  });

  it('is not served in production', async () => {
    const server = await startTestServer({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: 'ab'.repeat(32) });
    try {
      const res = await server.request('/graphql', asBrowser);
      // No page to negotiate: a browser asking for HTML gets 406 (GraphQL over HTTP), never GraphiQL.
      expect(res.status).toBe(406);
      expect(await res.text()).not.toMatch(/GraphiQL/i);
    } finally {
      await server.close();
    }
  });
});
