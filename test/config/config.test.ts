import { ConfigError, loadConfig } from '../../src/config';

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
