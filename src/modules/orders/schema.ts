import { builder } from '../../builder';
import { listSize, requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
import { cancelOrderInput, MAX_ORDER_LINES, orderLineInput, orderStatuses, placeOrderInput } from './input';
import { placeOrder } from './place';
import { orderItemOrder, orderRows, orderSortFields } from './service';
import { cancelOrder, fulfillOrder, orderTransitionNames, payOrder, transitionsFrom } from './transitions';

const OrderStatusEnum = builder.enumType('OrderStatus', {
  description: 'pending → paid → fulfilled; pending or paid → cancelled',
  values: orderStatuses,
});
const OrderTransitionEnum = builder.enumType('OrderTransition', {
  description: 'pay (payOrder), fulfill (fulfillOrder), cancel (cancelOrder)',
  values: orderTransitionNames,
});

export const OrderItemRef = builder.prismaObject('OrderItem', {
  description: 'A line of an order: name, sku and unit price as they were when the order was placed',
  fields: (t) => ({
    id: t.exposeID('id'),
    productId: t.exposeString('productId', {
      nullable: true,
      description: 'Null once the product is deleted',
    }),
    name: t.exposeString('name'),
    sku: t.exposeString('sku', { nullable: true }),
    unitAmount: t.exposeInt('unitAmount', { description: 'Minor units' }),
    quantity: t.exposeInt('quantity'),
    totalAmount: t.exposeInt('totalAmount', { description: 'unitAmount × quantity, minor units' }),
  }),
});

/**
 * The customer as an order shows it. A variant of the Customer model, so the customers module stays
 * free to define the primary `Customer` type; it loads through the order's relation in the same query.
 */
export const OrderCustomerRef = builder.prismaObject('Customer', {
  variant: 'OrderCustomer',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
  }),
});

export const OrderRef = builder.prismaObject('Order', {
  extensions: resourceFragment({
    relations: { customer: true, items: true },
    // REST's order is also the order.* events' payload (README "Events"), which holds data, not UI hints.
    omit: ['allowedTransitions'],
  }),
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number', { description: 'Sequential per store, from 1001' }),
    status: t.expose('status', { type: OrderStatusEnum }),
    allowedTransitions: t.field({
      type: [OrderTransitionEnum],
      description: 'What may happen to the order now, from its status: the buttons a client offers',
      select: { status: true },
      resolve: (order) => transitionsFrom(order.status),
    }),
    email: t.exposeString('email'),
    customerId: t.exposeString('customerId', { nullable: true }),
    customer: t.relation('customer', { type: OrderCustomerRef, nullable: true }),
    currency: t.exposeString('currency', { description: "ISO 4217; the store's currency" }),
    subtotalAmount: t.exposeInt('subtotalAmount', { description: 'Sum of the lines, minor units' }),
    discountAmount: t.exposeInt('discountAmount', { description: 'The coupon discount, minor units' }),
    totalAmount: t.exposeInt('totalAmount', { description: 'subtotalAmount − discountAmount, minor units' }),
    couponId: t.exposeString('couponId', { nullable: true, description: 'Null once the coupon is deleted' }),
    couponCode: t.string({
      nullable: true,
      select: { coupon: { select: { code: true } } },
      resolve: (order) => order.coupon?.code ?? null,
    }),
    note: t.exposeString('note', { nullable: true }),
    items: t.relation('items', {
      query: { orderBy: orderItemOrder },
      // An order holds at most this many lines: what the query cost counts a list of them as.
      extensions: listSize(MAX_ORDER_LINES),
    }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
    fulfilledAt: t.expose('fulfilledAt', { type: 'DateTime', nullable: true }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true }),
    cancelReason: t.exposeString('cancelReason', { nullable: true }),
    ...timestamps(t),
  }),
});

storeQueries({
  ref: OrderRef,
  fields: { list: 'orders', item: 'order' },
  scope: requireScope('ORDERS', 'READ'),
  // Only writeStore changes its rows (README "Conditional requests").
  versioned: true,
  descriptions: {
    list: 'Orders of the store, a page at a time, newest first by default. Item selections (lines, customer) load with the page.',
    connection: 'Orders as a Relay connection, for frontends',
  },
  sortFields: orderSortFields,
  filters: (arg) => ({
    q: arg.string({ description: 'Matches the order number (1001 or #1001) or part of the e-mail' }),
    status: arg({ type: OrderStatusEnum }),
    from: arg({ type: 'DateTime', description: 'Created at or after this time (inclusive)' }),
    to: arg({ type: 'DateTime', description: 'Created before this time (exclusive)' }),
    customerId: arg.id({ description: 'Orders of this customer' }),
    couponId: arg.id({ description: 'Orders that used this coupon (its redemptions)' }),
  }),
  rows: orderRows,
});

const PlaceOrderItemInput = inputTypeOf('PlaceOrderItemInput', orderLineInput, {
  types: { productId: 'ID' },
});
const PlaceOrderInput = inputTypeOf('PlaceOrderInput', placeOrderInput, {
  types: { customerId: 'ID', items: [PlaceOrderItemInput] },
});

const CancelOrderInput = inputTypeOf('CancelOrderInput', cancelOrderInput, {
  description: 'The REST body of a cancel; GraphQL clients may pass `reason` as an argument instead',
});

builder.mutationFields((t) => ({
  placeOrder: t.prismaField({
    type: 'Order',
    description:
      'Places an order: reserves stock, applies the coupon, takes the next order number (emits order.placed)',
    authScopes: requireScope('ORDERS', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: PlaceOrderInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => placeOrder(ctx, input),
  }),
  payOrder: t.prismaField({
    type: 'Order',
    description: 'Marks a pending order paid (emits order.paid); otherwise 409 ORDER_NOT_PAYABLE',
    authScopes: requireScope('ORDERS', 'UPDATE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, ctx) => payOrder(ctx, id),
  }),
  fulfillOrder: t.prismaField({
    type: 'Order',
    description: 'Marks a paid order fulfilled (emits order.fulfilled); otherwise 409 ORDER_NOT_FULFILLABLE',
    authScopes: requireScope('ORDERS', 'UPDATE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, ctx) => fulfillOrder(ctx, id),
  }),
  cancelOrder: t.prismaField({
    type: 'Order',
    description:
      'Cancels a pending or paid order, returning its stock and coupon redemption (emits order.cancelled); otherwise 409 ORDER_NOT_CANCELLABLE',
    authScopes: requireScope('ORDERS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      reason: t.arg.string({ description: 'At most 500 characters' }),
      input: t.arg({ type: CancelOrderInput }),
    },
    resolve: (_query, _root, { id, reason, input }, ctx) => cancelOrder(ctx, id, reason, input),
  }),
}));
