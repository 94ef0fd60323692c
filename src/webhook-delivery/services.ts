import { createSecretBox, type SecretBox } from '../auth/secret-box';
import type { Config } from '../config';
import type { UrlPolicyOptions } from '../outbound-http/url-policy';

/** What the webhook service needs from the process: the secret box and the URL policy's options. */
export interface WebhookServices {
  secrets: SecretBox;
  urlPolicy: UrlPolicyOptions;
}

export function webhookServicesFrom(config: Config): WebhookServices {
  return {
    secrets: createSecretBox(config.webhook.secretKey),
    // WEBHOOK_ALLOWED_HOSTS: test-only hosts exempt from the address policy (production refuses it).
    urlPolicy: { allowHosts: config.webhook.allowedHosts },
  };
}
