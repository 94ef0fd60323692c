import { ConfigError, configWarnings, loadConfig } from '../../src/config';

describe('SESSION_IDLE_MINUTES', () => {
  test('defaults to 120 minutes and is read in minutes', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).sessionIdleMs).toBe(120 * 60_000);
    expect(loadConfig({ NODE_ENV: 'test', SESSION_IDLE_MINUTES: '15' }).sessionIdleMs).toBe(15 * 60_000);
  });

  test('refuses a value outside 1 to 720 minutes, naming the setting', () => {
    for (const value of ['0', '721', 'soon']) {
      expect(() => loadConfig({ NODE_ENV: 'test', SESSION_IDLE_MINUTES: value })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: 'test', SESSION_IDLE_MINUTES: value })).toThrow(
        /SESSION_IDLE_MINUTES: /,
      );
    }
  });
});

describe('PUBLIC_URL', () => {
  test('defaults to this machine at PORT; a trailing slash is dropped', () => {
    expect(loadConfig({ NODE_ENV: 'test', PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://admin.example.com/' }).publicUrl).toBe(
      'https://admin.example.com',
    );
  });

  test('refuses anything but an http(s) URL, naming the setting', () => {
    for (const value of ['admin.example.com', 'ftp://admin.example.com', 'javascript:alert(1)']) {
      expect(() => loadConfig({ NODE_ENV: 'test', PUBLIC_URL: value })).toThrow(/PUBLIC_URL: /);
    }
  });
});

describe('REDIS_CLUSTER_NODES', () => {
  test('a cluster instead of REDIS_URL: its seed nodes, comma-separated host:port', () => {
    expect(
      loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001,' }).redis,
    ).toEqual({
      clusterNodes: ['10.0.0.1:7000', 'redis-b:7001'],
    });
    expect(loadConfig({ NODE_ENV: 'test', REDIS_URL: 'redis://cache:6379' }).redis).toBe(
      'redis://cache:6379',
    );
    expect(loadConfig({ NODE_ENV: 'test' }).redis).toBeUndefined();
  });

  test('refuses both at once, and a node that is not host:port, in one line naming the setting', () => {
    const both = { NODE_ENV: 'test', REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: 'redis-a:7000' };
    expect(() => loadConfig(both)).toThrow(/REDIS_CLUSTER_NODES: and REDIS_URL are both set/);
    for (const value of ['redis-a', 'redis://redis-a:7000', ' , ', 'redis-a:port']) {
      expect(() => loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: value })).toThrow(
        /REDIS_CLUSTER_NODES: /,
      );
    }
  });
});

/** A valid production environment apart from the settings under test. */
const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgresql://app@db.internal:5432/commerce',
  WEBHOOK_SECRET_KEY: 'a'.repeat(64),
};

describe('production refuses unsafe defaults (issue 28 item 6), each naming the setting to change', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  };

  test('a valid production configuration starts', () => {
    expect(loadConfig(production).isProduction).toBe(true);
  });

  test('SEED_DEMO=true: the demo accounts have a published password', () => {
    expect(refusal({ ...production, SEED_DEMO: 'true' })).toBe(
      "Invalid configuration: SEED_DEMO: must be false in production (the demo store's staff sign in with the published password `demo-password`)",
    );
    expect(loadConfig({ ...production, SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  test('no DATABASE_URL: the embedded PostgreSQL is seeded with the demo accounts', () => {
    const { DATABASE_URL: _, ...embedded } = production;
    expect(refusal(embedded)).toBe(
      'Invalid configuration: DATABASE_URL: is required in production (without it the embedded PostgreSQL is seeded with demo accounts whose password is `demo-password`)',
    );
  });

  test('TRUST_PROXY=true, or a range of every address: says to name the hop count or the proxies', () => {
    for (const value of ['true', '0.0.0.0/0', '10.0.0.1, ::/0']) {
      expect(refusal({ ...production, TRUST_PROXY: value })).toBe(
        "Invalid configuration: TRUST_PROXY: must name the proxies in production, not trust every X-Forwarded-For hop (any client could then pick its own address past IP allowlists and the sign-in throttle): set the hop count (1 behind one proxy) or the proxies' addresses or CIDRs",
      );
    }
    for (const value of ['1', '10.0.0.0/8, 192.168.1.7', 'loopback', 'false'])
      expect(() => loadConfig({ ...production, TRUST_PROXY: value })).not.toThrow();
  });

  test('several at once: one line naming each', () => {
    const { DATABASE_URL: _, ...embedded } = production;
    const message = refusal({ ...embedded, SEED_DEMO: 'true', TRUST_PROXY: 'true' });
    expect(message.split('\n')).toHaveLength(1);
    expect(message.match(/(SEED_DEMO|DATABASE_URL|TRUST_PROXY): /g)).toEqual([
      'SEED_DEMO: ',
      'DATABASE_URL: ',
      'TRUST_PROXY: ',
    ]);
  });

  test('outside production all three are allowed (npm start with no settings seeds the demo)', () => {
    const config = loadConfig({ NODE_ENV: 'development', SEED_DEMO: 'true', TRUST_PROXY: 'true' });
    expect([config.databaseUrl, config.seedDemo, config.trustProxy]).toEqual([undefined, true, true]);
  });
});

describe('start-up warnings (configWarnings), one line each naming the setting', () => {
  const api = { api: true };
  const worker = { api: false };

  test('production without METRICS_TOKEN: /metrics is closed', () => {
    expect(configWarnings(loadConfig(production), api)).toEqual([
      '/metrics answers 404 in production without a token: set METRICS_TOKEN to scrape /metrics',
    ]);
    expect(loadConfig(production).metrics).toEqual({ token: undefined, closed: true });
    const withToken = loadConfig({ ...production, METRICS_TOKEN: 'scrape-token-0123456789' });
    expect(configWarnings(withToken, api)).toEqual([]);
    expect(withToken.metrics).toEqual({ token: 'scrape-token-0123456789', closed: false });
    // Outside production /metrics stays open without a token, as before.
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOK_SECRET_KEY: 'a'.repeat(64) }).metrics.closed).toBe(false);
  });

  test('TRUST_PROXY=true outside production is allowed with a warning', () => {
    const config = loadConfig({
      NODE_ENV: 'development',
      TRUST_PROXY: 'true',
      WEBHOOK_SECRET_KEY: 'a'.repeat(64),
    });
    expect(configWarnings(config, api)).toEqual([
      "TRUST_PROXY trusts every X-Forwarded-For hop: any client can pick its own address past IP allowlists and the sign-in throttle; set the hop count (1) or the proxies' addresses (production refuses it)",
    ]);
  });

  test('the worker role, which serves no API, is not warned about the API', () => {
    expect(configWarnings(loadConfig(production), worker)).toEqual([]);
    expect(configWarnings(loadConfig({ NODE_ENV: 'development', TRUST_PROXY: 'true' }), worker)).toEqual([
      'no WEBHOOK_SECRET_KEY: webhook secrets are encrypted with the fixed development key',
    ]);
  });
});

describe('DATABASE_URL behind PgBouncer, DATABASE_DIRECT_URL, DATABASE_REPLICA_URL', () => {
  const pooled = 'postgresql://app@bouncer:6432/commerce?pgbouncer=true&sslmode=disable';
  const direct = 'postgresql://app@primary:5432/commerce';

  test('?pgbouncer=true marks the URL pooled and is taken off before pg sees it', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct });
    expect(config.databasePooled).toBe(true);
    expect(new URL(config.databaseUrl!).searchParams.has('pgbouncer')).toBe(false);
    expect(new URL(config.databaseUrl!).searchParams.get('sslmode')).toBe('disable');
    expect(config.databaseDirectUrl).toBe(direct);
  });

  test('without the marker the URL is direct, and DATABASE_DIRECT_URL defaults to it', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: direct });
    expect(config).toEqual(
      expect.objectContaining({ databaseUrl: direct, databasePooled: false, databaseDirectUrl: direct }),
    );
    expect(config.replica).toBeUndefined();
  });

  test('refuses PgBouncer without a direct URL, in one line naming DATABASE_DIRECT_URL', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_URL: pooled })).toThrow(
      /DATABASE_DIRECT_URL: is required/,
    );
  });

  test('warns that the statement timeout is not sent through PgBouncer', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct });
    expect(configWarnings(config, { api: true }).join('\n')).toMatch(
      /DB_STATEMENT_TIMEOUT_MS is not sent through PgBouncer/,
    );
  });

  test('a replica comes with its lag bound (default 2000 ms)', () => {
    const replica = 'postgresql://app@replica:5432/commerce';
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_REPLICA_URL: replica }).replica).toEqual({
      url: replica,
      maxLagMs: 2000,
    });
    expect(
      loadConfig({ NODE_ENV: 'test', DATABASE_REPLICA_URL: replica, REPLICA_MAX_LAG_MS: '500' }).replica
        ?.maxLagMs,
    ).toBe(500);
    expect(() => loadConfig({ NODE_ENV: 'test', REPLICA_MAX_LAG_MS: 'soon' })).toThrow(
      /REPLICA_MAX_LAG_MS: /,
    );
  });
});
