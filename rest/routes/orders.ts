import { PAGINATION_SELECTION } from '../../src/modules/pagination/schema';
import { route } from '../route';

const tag = 'Orders';

export const orderRoutes = [
  route({
    method: 'GET',
    path: '/order/vendor',
    tag,
    summary:
      'List orders (q on number or e-mail, status, customerId, from (inclusive) and to (exclusive) on createdAt; sortBy createdAt, number or totalAmount)',
    operation: `query ListOrders($page: Int, $limit: Int, $q: String, $status: OrderStatus, $from: DateTime, $to: DateTime,
        $customerId: ID, $sortBy: OrderSortField, $sortDirection: SortDirection) {
      orders(page: $page, limit: $limit, q: $q, status: $status, from: $from, to: $to, customerId: $customerId, sortBy: $sortBy,
          sortDirection: $sortDirection) {
        items { ...OrderFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'orders' },
  }),
  route({
    method: 'GET',
    path: '/order/details/{orderId}',
    tag,
    summary: 'Get an order with its lines',
    operation: `query GetOrder($orderId: ID!) { order(id: $orderId) { ...OrderFields } }`,
    result: { kind: 'item', field: 'order' },
  }),
  route({
    method: 'POST',
    path: '/order',
    tag,
    summary: 'Place an order: reserves stock, applies a coupon (emits order.placed)',
    operation: `mutation PlaceOrder($input: PlaceOrderInput!) { placeOrder(input: $input) { ...OrderFields } }`,
    body: 'input',
    result: { kind: 'item', field: 'placeOrder' },
    status: 201,
  }),
  route({
    method: 'POST',
    path: '/order/vendor/pay/{orderId}',
    tag,
    summary: 'Mark a pending order paid (emits order.paid)',
    operation: `mutation PayOrder($orderId: ID!) { payOrder(id: $orderId) { ...OrderFields } }`,
    result: { kind: 'item', field: 'payOrder' },
  }),
  route({
    method: 'POST',
    path: '/order/vendor/fulfill/{orderId}',
    tag,
    summary: 'Mark a paid order fulfilled (emits order.fulfilled)',
    operation: `mutation FulfillOrder($orderId: ID!) { fulfillOrder(id: $orderId) { ...OrderFields } }`,
    result: { kind: 'item', field: 'fulfillOrder' },
  }),
  route({
    method: 'POST',
    path: '/order/vendor/cancel/{orderId}',
    tag,
    summary:
      'Cancel a pending or paid order (optional body { reason }); returns its stock and coupon redemption (emits order.cancelled)',
    operation: `mutation CancelOrder($orderId: ID!, $input: CancelOrderInput) {
      cancelOrder(id: $orderId, input: $input) { ...OrderFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'cancelOrder' },
  }),
];
