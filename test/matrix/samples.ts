import { randomBytes } from 'node:crypto';
import { roleScopes } from '../../src/access/roles';
import { toScopeObjects } from '../../src/access/scopes';
import type { Db } from '../../src/db/client';
import { makeKey } from '../helpers/factories';

/** A valid request for one route: its path parameters and JSON body. */
export interface Sample {
  params: Record<string, string>;
  body?: unknown;
  /**
   * Pairs a caller needs beyond the route's own for the credential rule to let this request through
   * (inviting a STAFF member needs the STAFF role's rights): the scope matrix grants them too.
   */
  needs?: string[];
}

/** A GraphQL request for a root field that no REST route runs. */
export interface GraphqlSample {
  query: string;
  variables?: Record<string, unknown>;
}

/** Fresh records of a store, one call one row, for the samples below. */
function recordsOf(db: Db, storeId: string) {
  const tag = () => randomBytes(4).toString('hex');
  const category = async () =>
    (await db.category.create({ data: { storeId, name: `Cat ${tag()}`, slug: `cat-${tag()}` } })).id;
  const product = async (stock = 5) =>
    (
      await db.product.create({
        data: {
          storeId,
          name: `Prod ${tag()}`,
          slug: `prod-${tag()}`,
          priceAmount: 1000,
          currency: 'USD',
          stock,
        },
      })
    ).id;
  const customer = async () =>
    (await db.customer.create({ data: { storeId, email: `c-${tag()}@example.test` } })).id;
  const coupon = async () =>
    (
      await db.coupon.create({
        data: { storeId, code: `C${tag()}`.toUpperCase(), type: 'percent', value: 10 },
      })
    ).id;
  const review = async () =>
    (await db.review.create({ data: { storeId, productId: await product(), rating: 4, title: 'Fine' } })).id;
  const staff = async () =>
    (
      await db.staffUser.create({
        data: { storeId, email: `s-${tag()}@example.test`, name: 'Sam', role: 'STAFF' },
      })
    ).id;
  /** A member invited without a password, their invitation pending. */
  const invited = async () => {
    const id = await staff();
    await db.staffInvitation.create({
      data: { staffUserId: id, storeId, invitedByName: 'Owner', expiresAt: new Date(Date.now() + 3_600_000) },
    });
    return id;
  };
  /** A key with every scope, or (for the requests the credential rule judges) only the pairs given. */
  const apiKey = async (pairs?: string[]) =>
    (await makeKey(db, storeId, pairs ? { scopes: toScopeObjects(pairs) } : {})).keyId;
  const order = async (status: 'pending' | 'paid' = 'pending') => {
    const store = await db.store.update({
      where: { id: storeId },
      data: { nextOrderNumber: { increment: 1 } },
      select: { nextOrderNumber: true },
    });
    return (
      await db.order.create({
        data: {
          storeId,
          number: store.nextOrderNumber - 1,
          email: `o-${tag()}@example.test`,
          status,
          currency: 'USD',
          subtotalAmount: 1000,
          totalAmount: 1000,
          items: {
            create: [
              { productId: await product(), name: 'Item', unitAmount: 1000, quantity: 1, totalAmount: 1000 },
            ],
          },
        },
      })
    ).id;
  };

  /**
   * A store has at most 5 endpoints, so each sample starts from none. The URL is a public IP literal:
   * creating checks it without DNS, and no worker runs here, so nothing is ever sent to it.
   */
  const webhookUrl = 'https://93.184.216.34/hooks';
  const noEndpoints = () => db.webhookEndpoint.deleteMany({ where: { storeId } });
  const endpoint = async () => {
    await noEndpoints();
    return (
      await db.webhookEndpoint.create({
        data: { storeId, url: webhookUrl, events: ['*'], secretCiphertext: 'not used by these routes' },
      })
    ).id;
  };

  const delivery = async () => {
    const endpointId = await endpoint();
    const event = await db.event.create({ data: { storeId, type: 'order.paid', data: {} } });
    return (
      await db.webhookDelivery.create({
        data: { endpointId, eventId: event.id, storeId, eventType: 'order.paid', payload: '{}' },
      })
    ).id;
  };

  const recovery = async () => {
    const endpointId = await endpoint();
    const since = new Date(Date.now() - 3_600_000);
    return (
      await db.webhookRecovery.create({
        data: { storeId, endpointId, since, until: new Date(), eventTypes: [] },
      })
    ).id;
  };

  return {
    tag,
    category,
    product,
    customer,
    coupon,
    review,
    staff,
    invited,
    apiKey,
    order,
    webhookUrl,
    noEndpoints,
    endpoint,
    delivery,
    recovery,
  };
}

/**
 * A valid request for every route, made against a store's own records. Targets that a request
 * changes or removes are created fresh for each call, so every sample can run any number of times.
 * A route added to the table without a sample here fails the matrices until it gets one.
 */
export function samplesFor(db: Db, storeId: string): Record<string, () => Promise<Sample>> {
  const {
    tag,
    category,
    product,
    customer,
    coupon,
    review,
    staff,
    invited,
    apiKey,
    order,
    webhookUrl,
    noEndpoints,
    endpoint,
    delivery,
    recovery,
  } = recordsOf(db, storeId);
  const none = async (): Promise<Sample> => ({ params: {} });

  const withId =
    (make: () => Promise<string>, name = 'id', body?: () => unknown) =>
    async (): Promise<Sample> => ({
      params: { [name]: await make() },
      ...(body ? { body: body() } : {}),
    });
  const withBody = (body: () => unknown | Promise<unknown>) => async (): Promise<Sample> => ({
    params: {},
    body: await body(),
  });

  return {
    'GET /analytics/summary': none,
    'GET /api-key': none,
    'GET /api-key/stats': none,
    'GET /api-key/{keyId}': withId(() => apiKey(), 'keyId'),
    'GET /request-log': none,
    'POST /api-key': withBody(() => ({
      keyName: `made ${tag()}`,
      environment: 'production',
      scopes: [{ resource: 'API_KEYS', actions: ['WRITE'] }],
    })),
    // Changing or rotating a key needs every right it holds (README "Security model"): these targets
    // hold only the route's own pair. Revoking and deleting take rights away: their targets hold all.
    'PATCH /api-key/{keyId}': withId(
      () => apiKey(['API_KEYS:UPDATE']),
      'keyId',
      () => ({ keyName: 'renamed' }),
    ),
    'POST /api-key/{keyId}/revoke': withId(
      () => apiKey(),
      'keyId',
      () => ({}),
    ),
    'POST /api-key/{keyId}/rotate': withId(
      () => apiKey(['API_KEYS:WRITE']),
      'keyId',
      () => ({}),
    ),
    'DELETE /api-key/{keyId}': withId(() => apiKey(), 'keyId'),
    'GET /audit-log': none,
    'GET /category': none,
    'GET /category/{id}': withId(category),
    'POST /category': withBody(() => ({ name: `New ${tag()}` })),
    'PATCH /category/{id}': withId(category, 'id', () => ({ name: `Renamed ${tag()}` })),
    'POST /category/{id}/move': withId(category, 'id', () => ({ parentId: null, position: 0 })),
    'DELETE /category/{id}': withId(category),
    'GET /product': none,
    'GET /product/{id}': withId(product),
    'POST /product': withBody(() => ({ name: `New ${tag()}`, priceAmount: 1500 })),
    'PATCH /product/{id}': withId(product, 'id', () => ({ priceAmount: 1200 })),
    'DELETE /product/{id}': withId(product),
    'GET /customer': none,
    'GET /customer/{id}': withId(customer),
    'POST /customer': withBody(() => ({ email: `new-${tag()}@example.test` })),
    'PATCH /customer/{id}': withId(customer, 'id', () => ({ firstName: 'Ada' })),
    'GET /order/vendor': none,
    'GET /order/details/{orderId}': withId(() => order(), 'orderId'),
    'POST /order': withBody(async () => ({
      email: `buyer-${tag()}@example.test`,
      items: [{ productId: await product(), quantity: 1 }],
    })),
    'POST /order/vendor/pay/{orderId}': withId(() => order('pending'), 'orderId'),
    'POST /order/vendor/fulfill/{orderId}': withId(() => order('paid'), 'orderId'),
    'POST /order/vendor/cancel/{orderId}': withId(() => order('pending'), 'orderId'),
    'GET /coupon': none,
    'GET /coupon/{id}': withId(coupon),
    'POST /coupon': withBody(() => ({ code: `NEW${tag()}`.toUpperCase(), type: 'fixed', value: 500 })),
    'PATCH /coupon/{id}': withId(coupon, 'id', () => ({ value: 15 })),
    'DELETE /coupon/{id}': withId(coupon),
    'GET /review': none,
    'PATCH /review/{id}': withId(review, 'id', () => ({ status: 'approved' })),
    'DELETE /review/{id}': withId(review),
    'GET /staff': none,
    'GET /staff/{id}': withId(staff),
    'POST /staff': async () => ({
      params: {},
      body: { email: `new-${tag()}@example.test`, name: 'Nell', role: 'STAFF' },
      needs: [...roleScopes('STAFF')],
    }),
    'PATCH /staff/{id}': withId(staff, 'id', () => ({ name: 'Renamed' })),
    'DELETE /staff/{id}': withId(staff),
    // Resending or revoking a STAFF member's invitation asks what inviting one asks.
    'POST /staff/{id}/invitation/resend': async () => ({
      ...(await withId(invited)()),
      needs: [...roleScopes('STAFF')],
    }),
    'DELETE /staff/{id}/invitation': async () => ({
      ...(await withId(invited)()),
      needs: [...roleScopes('STAFF')],
    }),
    'GET /store/webhooks/event-types': none,
    'GET /store/webhooks/endpoints': none,
    'POST /store/webhooks/endpoints': withBody(async () => {
      await noEndpoints();
      // The test ping routes no store data, so STORE_SETTINGS:WRITE alone may subscribe to it
      // (order.placed also needs ORDERS:READ: test/webhooks/read-rights.test.ts).
      return { url: webhookUrl, events: ['webhook.test'] };
    }),
    'GET /store/webhooks/endpoints/{id}': withId(endpoint),
    'PATCH /store/webhooks/endpoints/{id}': withId(endpoint, 'id', () => ({ description: 'Renamed' })),
    'DELETE /store/webhooks/endpoints/{id}': withId(endpoint),
    'GET /store/webhooks/endpoints/{id}/logs': withId(endpoint),
    'GET /store/webhooks/endpoints/{id}/health': withId(endpoint),
    'POST /store/webhooks/endpoints/{id}/rotate-secret': withId(endpoint),
    'POST /store/webhooks/endpoints/{id}/replay-exhausted': withId(endpoint),
    'POST /store/webhooks/endpoints/{id}/test': withId(endpoint),
    'POST /store/webhooks/endpoints/{id}/recover': withId(endpoint, 'id', () => ({
      since: new Date(Date.now() - 3_600_000).toISOString(),
    })),
    'GET /store/webhooks/endpoints/{id}/recoveries': withId(endpoint),
    'GET /store/webhooks/recoveries/{recoveryId}': withId(recovery, 'recoveryId'),
    'GET /store/webhooks/deliveries/{deliveryId}': withId(delivery, 'deliveryId'),
    'POST /store/webhooks/deliveries/{deliveryId}/resend': withId(delivery, 'deliveryId'),
    'GET /store/settings': none,
    'PATCH /store/settings': withBody(() => ({ name: `Store ${tag()}` })),
  };
}

/**
 * A valid GraphQL request for each root field that no REST route runs (the Relay connections are
 * made from their name), so the GraphQL matrices reach every scoped root field.
 */
export function graphqlOnlySamplesFor(db: Db, storeId: string): Record<string, () => Promise<GraphqlSample>> {
  const { review, delivery } = recordsOf(db, storeId);
  return {
    review: async () => ({
      query: 'query($id: ID!) { review(id: $id) { id } }',
      variables: { id: await review() },
    }),
    webhookEndpointLimit: async () => ({ query: '{ webhookEndpointLimit }' }),
    webhookDelivery: async () => ({
      query: 'query($id: ID!) { webhookDelivery(id: $id) { id status } }',
      variables: { id: await delivery() },
    }),
  };
}

/** A first page of a Relay connection. */
export const connectionSample = (field: string): GraphqlSample => ({
  query: `{ ${field}(first: 2) { edges { cursor node { __typename } } pageInfo { hasNextPage } } }`,
});
