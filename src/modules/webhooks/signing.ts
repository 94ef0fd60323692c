import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from './secret';

const USER_AGENT = 'Service-Webhooks/1.0';

/**
 * The headers of one attempt (spec 6.1 and DESIGN "Webhooks"), signed twice over the same bytes:
 * `X-Service-Signature: t=<unix s>,v1=<hex HMAC-SHA256(key = the whole secret string, "<t>.<body>")>`
 * (what Stripe-style verifiers accept) and the Standard Webhooks trio, keyed with the base64-decoded
 * part after `whsec_`. The timestamp is the attempt's, so a retry hours later is not refused as stale.
 */
export function signedHeaders(input: {
  secret: string;
  deliveryId: string;
  eventType: string;
  body: string;
  timestamp: number;
}): Record<string, string> {
  const { secret, deliveryId, eventType, body, timestamp } = input;
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event': eventType,
    'x-service-delivery': deliveryId,
    'x-service-signature': `t=${timestamp},v1=${serviceSignature(secret, timestamp, body)}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${standardSignature(secret, deliveryId, timestamp, body)}`,
  };
}

function serviceSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}
