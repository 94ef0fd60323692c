import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

/** Structured logs. Headers that carry secrets are redacted wherever they appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'commerce' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["tt-api-key"]',
          'req.headers.cookie',
          'headers.authorization',
          'headers["tt-api-key"]',
          'secret',
          '*.secret',
          'password',
          '*.password',
        ],
        censor: '[redacted]',
      },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}

/**
 * Readable lines (pino-pretty) when a person watches: stdout is a terminal, outside production.
 * Otherwise undefined: JSON lines on stdout, for log collectors.
 */
export function terminalLogDestination(env: string): pino.DestinationStream | undefined {
  if (env === 'production' || !process.stdout.isTTY) return undefined;
  return pretty({
    colorize: true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service',
    singleLine: true,
  });
}
