import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { createSecretBox } from '../../src/auth/secret-box';
import {
  BASE_DELAY_MS,
  deliveryBackoff,
  JITTER,
  MAX_ATTEMPTS,
  MAX_DELAY_MS,
  nextRetryAt,
} from '../../src/webhook-delivery/backoff';
import type { Envelope } from '../../src/webhook-delivery/envelope';
import { generateWebhookSecret } from '../../src/webhook-delivery/secret';
import { signedHeaders } from '../../src/webhook-delivery/signing';

/** A receiver's own check of X-Service-Signature, written from docs/design.md "Delivery request" alone. */
function verifyServiceSignature(secret: string, header: string, body: string, nowSeconds: number): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300 || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('signing secrets', () => {
  it('are whsec_ + base64 of 32 random bytes, different each time', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('are stored AES-256-GCM encrypted, bound to their endpoint, and refuse tampering', () => {
    const box = createSecretBox(Buffer.alloc(32, 7));
    const secret = generateWebhookSecret();
    const sealed = box.seal(secret, 'whe_a');
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(secret.slice(6, 30));
    expect(box.open(sealed, 'whe_a')).toBe(secret);
    expect(box.seal(secret, 'whe_a')).not.toBe(sealed);
    expect(() => box.open(sealed, 'whe_b')).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, 'whe_a')).toThrow();
    const [v, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data as string, 'base64url');
    flipped[0] = (flipped[0] as number) ^ 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'), 'whe_a')).toThrow();
  });
});

describe('delivery signatures', () => {
  const secret = generateWebhookSecret();
  const envelope: Envelope = {
    id: 'msg_1',
    type: 'order.paid',
    apiVersion: 'v1',
    createdAt: '2026-11-23T10:00:00.000Z',
    storeId: 'str_1',
    data: { object: { id: 'ord_1', total: 1250, note: 'ünïcødé ✓' } },
  };
  const body = JSON.stringify(envelope);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = signedHeaders({ secret, deliveryId: 'msg_1', eventType: 'order.paid', body, timestamp });

  it('carries the delivery request headers, equal to the envelope id and type', () => {
    const envelope = JSON.parse(body);
    expect(envelope).toEqual({
      id: 'msg_1',
      type: 'order.paid',
      apiVersion: 'v1',
      createdAt: '2026-11-23T10:00:00.000Z',
      storeId: 'str_1',
      data: { object: expect.objectContaining({ id: 'ord_1' }) },
    });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Service-Webhooks/1.0');
    expect(headers['x-service-event']).toBe(envelope.type);
    expect(headers['x-service-delivery']).toBe(envelope.id);
    expect(headers['x-service-signature']).toMatch(new RegExp(`^t=${timestamp},v1=[0-9a-f]{64}$`));
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(timestamp));
  });

  it('verifies with a receiver written from the description', () => {
    expect(verifyServiceSignature(secret, headers['x-service-signature'] as string, body, timestamp)).toBe(
      true,
    );
    expect(
      verifyServiceSignature(secret, headers['x-service-signature'] as string, `${body} `, timestamp),
    ).toBe(false);
    expect(
      verifyServiceSignature(
        generateWebhookSecret(),
        headers['x-service-signature'] as string,
        body,
        timestamp,
      ),
    ).toBe(false);
  });

  it('verifies with the standardwebhooks library', () => {
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('1250', '1251'), headers)).toThrow();
  });

  it('verifies with Stripe’s constructEvent, keyed with the whole secret string', () => {
    const header = headers['x-service-signature'] as string;
    expect(Stripe.webhooks.constructEvent(body, header, secret)).toEqual(JSON.parse(body));
    const stripe = new Stripe('sk_test_unused');
    expect(stripe.webhooks.constructEvent(Buffer.from(body), header, secret)).toEqual(JSON.parse(body));
    expect(() => Stripe.webhooks.constructEvent(body, header, generateWebhookSecret())).toThrow();
  });
});

describe('the retry schedule (docs/design.md "Retries")', () => {
  const constant = (value: number) => () => value;

  it('waits exactly 30 s × 4^(n−1) before attempt n without jitter', () => {
    const middle = constant(0.5);
    expect([2, 3, 4, 5].map((n) => deliveryBackoff(n, middle))).toEqual([
      120_000, 480_000, 1_920_000, 7_680_000,
    ]);
    expect(BASE_DELAY_MS).toBe(30_000);
  });

  it('caps every wait at 6 hours (attempts 6 to 8)', () => {
    for (const n of [6, 7, 8]) {
      expect(deliveryBackoff(n, constant(0.5))).toBe(MAX_DELAY_MS);
      expect(deliveryBackoff(n, constant(0.999_999))).toBeLessThanOrEqual(6 * 3_600_000);
      expect(deliveryBackoff(n, constant(0))).toBe(Math.round(MAX_DELAY_MS * 0.85));
    }
  });

  it('stays within ±15 % and reaches both bounds', () => {
    for (const n of [2, 3, 4, 5]) {
      const base = 30_000 * 4 ** (n - 1);
      expect(deliveryBackoff(n, constant(0))).toBe(Math.round(base * 0.85));
      expect(deliveryBackoff(n, constant(0.999_999_999))).toBe(Math.round(base * 1.15));
      for (let i = 0; i < 200; i++) {
        const delay = deliveryBackoff(n);
        expect(delay).toBeGreaterThanOrEqual(base * (1 - JITTER) - 1);
        expect(delay).toBeLessThanOrEqual(base * (1 + JITTER) + 1);
      }
    }
  });

  it('schedules from the injected clock and stops after the 8th attempt', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    expect(nextRetryAt(1, now, constant(0.5))?.toISOString()).toBe('2026-11-23T10:02:00.000Z');
    expect(nextRetryAt(4, now, constant(0.5))?.toISOString()).toBe('2026-11-23T12:08:00.000Z');
    expect(nextRetryAt(7, now, constant(0.5))?.toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(nextRetryAt(MAX_ATTEMPTS, now, constant(0.5))).toBeNull();
    expect(MAX_ATTEMPTS).toBe(8);
    expect(() => deliveryBackoff(1)).toThrow(RangeError);
    expect(() => deliveryBackoff(9)).toThrow(RangeError);
  });
});
