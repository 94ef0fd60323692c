import type { Task } from 'graphile-worker';
import { type KeyNoticeDeps, sendKeyNotices } from '../../src/modules/api-keys/send-notices';

/**
 * Sends the API keys' lifecycle notices now due (README "Key notices"): hourly from the crontab for
 * expiries, and queued by flush_usage (one job key) right after usage reached PostgreSQL.
 */
export const makeSendKeyNotices =
  (deps: KeyNoticeDeps): Task =>
  async (_payload, helpers) => {
    const sent = await sendKeyNotices(deps);
    if (sent > 0) helpers.logger.info(`sent ${sent} API key notices`);
  };
