import { ConfigError, loadConfig } from '../../src/config';

// A valid production environment apart from the variable under test.
const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgresql://app@db.internal:5432/commerce',
  WEBHOOK_SECRET_KEY: 'a'.repeat(64),
};

describe('WEBHOOK_ALLOWED_HOSTS', () => {
  test('defaults to an empty list; empty means unset', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).webhook.allowedHosts).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOWED_HOSTS: '' }).webhook.allowedHosts).toEqual([]);
  });

  test('is a comma-separated list, blanks ignored', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      WEBHOOK_ALLOWED_HOSTS: ' 127.0.0.1, localhost:8443,,[::1] ',
    });
    expect(config.webhook.allowedHosts).toEqual(['127.0.0.1', 'localhost:8443', '[::1]']);
  });

  test('production refuses to start with a non-empty list', () => {
    expect(() => loadConfig({ ...production, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' })).toThrow(
      /WEBHOOK_ALLOWED_HOSTS: must be empty in production/,
    );
  });

  test('production starts without it', () => {
    expect(loadConfig({ ...production }).webhook.allowedHosts).toEqual([]);
    expect(loadConfig({ ...production, WEBHOOK_ALLOWED_HOSTS: '' }).webhook.allowedHosts).toEqual([]);
  });
});
