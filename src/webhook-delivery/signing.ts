import { createHmac, timingSafeEqual } from 'node:crypto';
import { SECRET_PREFIX } from './secret';

const USER_AGENT = 'Service-Webhooks/1.0';

/**
 * The headers of one attempt (docs/design.md "Delivery request"), signed twice over the same bytes:
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

/**
 * What a receiver checks (the README's recipe, and `webhook listen`): the `X-Service-Signature`
 * header is `t=<unix s>,v1=<hex>` over `"<t>.<body>"` with the endpoint's secret, and `t` is within
 * `toleranceSeconds` of now. Answers null when it holds, else why not.
 */
export function signatureProblem(input: {
  secret: string;
  header: string | undefined;
  body: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): string | null {
  const parts = Object.fromEntries(
    (input.header ?? '').split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const timestamp = Number(parts.t);
  if (!input.header || !Number.isSafeInteger(timestamp) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? ''))
    return 'no X-Service-Signature of the form t=<seconds>,v1=<hex>';
  if (Math.abs(input.nowSeconds - timestamp) > (input.toleranceSeconds ?? 300))
    return `timestamp ${timestamp} is more than ${input.toleranceSeconds ?? 300} s from now`;
  const expected = Buffer.from(serviceSignature(input.secret, timestamp, input.body), 'hex');
  const given = Buffer.from(parts.v1 as string, 'hex');
  return timingSafeEqual(expected, given) ? null : 'the signature does not match the endpoint secret';
}
