import { itemRoute, listRoute, writeRoute } from '../resource-routes';

const tag = 'Orders';

export const orderRoutes = [
  listRoute({ tag, path: '/order/vendor', field: 'orders' }),
  itemRoute({ tag, path: '/order/details/{orderId}', field: 'order', noun: 'an order with its lines' }),
  writeRoute({ tag, method: 'POST', path: '/order', field: 'placeOrder', status: 201 }),
  writeRoute({ tag, method: 'POST', path: '/order/vendor/pay/{orderId}', field: 'payOrder' }),
  writeRoute({ tag, method: 'POST', path: '/order/vendor/fulfill/{orderId}', field: 'fulfillOrder' }),
  writeRoute({ tag, method: 'POST', path: '/order/vendor/cancel/{orderId}', field: 'cancelOrder' }),
];
