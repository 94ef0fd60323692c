import { seedDemoStore } from '../../prisma/seed/demo-store';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';

export { DEMO_OWNER_EMAIL, DEMO_PASSWORD } from '../../prisma/seed/demo-store';

/**
 * The demo store (`npm start`'s data: months of orders, products, customers, a key) with one webhook
 * endpoint and an exhausted delivery of it, two keys under a notice, so every page of the dashboard has something to show. The
 * server must allow 127.0.0.1 as a webhook host (`WEBHOOK_ALLOWED_HOSTS`).
 */
export async function demoStoreWithDelivery(server: TestServer) {
  const seeded = await seedDemoStore(server.prisma);
  const storeId = seeded.storeId;
  const created = await server.send(
    'POST',
    '/api/v1/store/webhooks/endpoints',
    { url: 'https://127.0.0.1:9/hooks', events: ['order.paid'] },
    seeded.apiKey,
  );
  const endpoint = (await created.json()).data.id as string;
  const event = await server.prisma.event.create({ data: { storeId, type: 'order.paid', data: {} } });
  const delivery = await server.prisma.webhookDelivery.create({
    data: {
      storeId,
      endpointId: endpoint,
      eventId: event.id,
      eventType: 'order.paid',
      payload: '{}',
      status: 'exhausted',
    },
  });
  await server.prisma.webhookAttempt.create({
    data: {
      deliveryId: delivery.id,
      endpointId: endpoint,
      number: 1,
      status: 'exhausted',
      httpStatus: 500,
      durationMs: 42,
      responseBody: 'no',
    },
  });
  // Keys under a lifecycle notice (README "Key notices"), so the keys page shows its marks.
  await makeKey(server.prisma, storeId, {
    keyName: 'Ending soon',
    expiresAt: new Date(Date.now() + 3 * 86_400_000),
  });
  const nearLimit = await makeKey(server.prisma, storeId, { keyName: 'Near its limit', usageLimit: 1000 });
  await server.prisma.apiKey.update({ where: { id: nearLimit.keyId }, data: { usageCount: 850 } });
  const order = await server.prisma.order.findFirstOrThrow({ where: { storeId, status: 'pending' } });
  const customer = await server.prisma.customer.findFirstOrThrow({ where: { storeId } });
  const coupon = await server.prisma.coupon.findFirstOrThrow({ where: { storeId, code: 'SAVE15' } });
  return {
    storeId,
    apiKey: seeded.apiKey,
    order: order.id,
    customer: customer.id,
    endpoint,
    delivery: delivery.id,
    coupon: coupon.id,
  };
}
