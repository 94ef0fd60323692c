import { execFile } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { buildService, freePort, root, startService } from '../helpers/process';

/**
 * Issue 19 item 7, with real processes: the worker role answers its probes on WORKER_HEALTH_PORT,
 * and `npm start` runs the build without ever writing it, refusing one older than the sources.
 */
jest.setTimeout(120_000);

beforeAll(() => buildService());

describe('the worker role', () => {
  it('answers /healthz and /readyz on WORKER_HEALTH_PORT, and stops cleanly on SIGTERM', async () => {
    const database = await createDatabaseFromTemplate();
    const healthPort = await freePort();
    const service = startService(['worker'], {
      DATABASE_URL: database.url,
      WORKER_HEALTH_PORT: String(healthPort),
      HOST: '127.0.0.1',
    });
    try {
      await service.waitFor(/worker health on/);
      expect(service.output()).toMatch(
        new RegExp(
          `Health +http://127\\.0\\.0\\.1:${healthPort}/healthz  http://127\\.0\\.0\\.1:${healthPort}/readyz`,
        ),
      );
      expect(await (await fetch(`http://127.0.0.1:${healthPort}/healthz`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        checks: { postgres: 'ok', redis: 'not configured' },
      });
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      await database.drop();
    }
  });
});

describe('start-up settings', () => {
  it('refuses a webhook lease not longer than the delivery timeout plus a second, in one line', async () => {
    const service = startService(['worker'], {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/unused',
      WEBHOOK_TIMEOUT_MS: '10000',
      WEBHOOK_LEASE_SECONDS: '10',
    });
    expect(await service.exited).toBe(1);
    const errors = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('Error: '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/WEBHOOK_LEASE_SECONDS: must exceed WEBHOOK_TIMEOUT_MS by at least a second/);
  });

  it('refuses production with the demo store or a spoofable client address, in one line naming each setting', async () => {
    const service = startService([], {
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      TRUST_PROXY: 'true',
      WEBHOOK_SECRET_KEY: 'a'.repeat(64),
    });
    expect(await service.exited).toBe(1);
    const errors = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('Error: '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^Error: Invalid configuration: SEED_DEMO: must be false in production .*; DATABASE_URL: is required in production .*; TRUST_PROXY: must name the proxies in production/,
    );
  });
});

describe('npm start (scripts/start.mjs)', () => {
  const main = path.join(root, 'dist', 'src', 'main.js');

  it('refuses a build older than the sources in one line, writing nothing', async () => {
    const builtAt = statSync(main).mtime;
    utimesSync(main, new Date(0), new Date(0));
    try {
      const result = await promisify(execFile)(process.execPath, ['scripts/start.mjs'], { cwd: root }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 1,
        stderr:
          'Error: The build in dist/ is older than the sources: run `npm run build`, or `npm run dev` to run the sources (ALLOW_STALE_BUILD=true runs it anyway)\n',
      });
      expect(statSync(main).mtimeMs).toBe(0);
    } finally {
      utimesSync(main, builtAt, builtAt);
    }
  });

  it('runs a fresh build in its own process: the role argument and the one-line errors pass through', async () => {
    const result = await promisify(execFile)(process.execPath, ['scripts/start.mjs', 'nonsense'], {
      cwd: root,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 1,
      stderr: 'Error: Unknown role "nonsense": use api, worker or nothing for both\n',
    });
  });
});
