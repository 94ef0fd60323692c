import pino, { type Logger } from 'pino';

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
