import type { Task } from 'graphile-worker';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { EmailMessage } from '../../src/webhook-delivery/queue';

export interface Mailer {
  /** `secrets`: parts of the text (a one-time link) that a log line shows as [redacted]. */
  send(message: EmailMessage, secrets?: readonly string[]): Promise<void>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise nodemailer's JSON transport, with each message written to the
 * log instead of sent (development, tests without a mail server).
 */
export function createMailer(options: { url?: string; from: string; logger: Logger }): Mailer {
  const transport: Transporter = options.url
    ? nodemailer.createTransport(options.url)
    : nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(message, secrets = []) {
      const info = await transport.sendMail({ from: options.from, ...message });
      const text = secrets.reduce((logged, secret) => logged.replaceAll(secret, '[redacted]'), message.text);
      if (!options.url)
        options.logger.info(
          { email: { to: message.to, subject: message.subject, text } },
          'e-mail (no SMTP_URL: logged, not sent)',
        );
      else
        options.logger.info(
          { email: { to: message.to, subject: message.subject }, messageId: info.messageId },
          'e-mail sent',
        );
    },
    close: () => transport.close(),
  };
}

/** Sends one e-mail; a failure throws, so graphile-worker retries it with its own backoff. */
export const makeSendEmail =
  (mailer: Mailer): Task =>
  async (payload) => {
    await mailer.send(payload as EmailMessage);
  };
