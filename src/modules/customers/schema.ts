import { builder, requireScope } from '../../builder';
import { idempotencyArg } from '../idempotency-arg';
import { lookup } from '../lookup';
import { NodeRef } from '../node-interface';
import { pageArgs, pageType, SortDirectionEnum } from '../pagination/schema';
import {
  countCustomers,
  createCustomer,
  customerSortFields,
  findCustomersForConnection,
  getCustomer,
  listCustomers,
  updateCustomer,
} from './service';
import { loadCustomerStats } from './stats';

export const CustomerRef = builder.prismaObject('Customer', {
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email', { description: 'Lower-case; unique in the store' }),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    phone: t.exposeString('phone', { nullable: true }),
    acceptsMarketing: t.exposeBoolean('acceptsMarketing'),
    orderCount: t.int({
      description: 'Orders of the customer, whatever their status',
      resolve: async (customer, _args, ctx) => (await loadCustomerStats(ctx, customer.id)).orderCount,
    }),
    totalSpentAmount: t.field({
      type: 'Long',
      description: 'Sum of totalAmount of the customer’s orders that are not cancelled, in minor units',
      resolve: async (customer, _args, ctx) => (await loadCustomerStats(ctx, customer.id)).totalSpentAmount,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CustomerSortFieldEnum = builder.enumType('CustomerSortField', { values: customerSortFields });
const CustomerPage = pageType('Customer', CustomerRef);

builder.queryFields((t) => ({
  customers: t.field({
    type: CustomerPage,
    description:
      'Customers of the store, a page at a time; each word of `q` matches e-mail, first or last name',
    authScopes: requireScope('CUSTOMERS', 'READ'),
    args: { ...pageArgs(t.arg, CustomerSortFieldEnum), q: t.arg.string() },
    resolve: (_root, args, ctx) => listCustomers(ctx, args),
  }),
  customersConnection: t.prismaConnection(
    {
      type: 'Customer',
      cursor: 'id',
      description: 'Customers as a Relay connection, for frontends',
      authScopes: requireScope('CUSTOMERS', 'READ'),
      args: {
        q: t.arg.string(),
        sortBy: t.arg({ type: CustomerSortFieldEnum }),
        sortDirection: t.arg({ type: SortDirectionEnum }),
      },
      totalCount: (_parent, args, ctx) => countCustomers(ctx, args),
      resolve: (query, _root, args, ctx) => findCustomersForConnection(ctx, query, args),
    },
    { name: 'CustomerConnection' },
    { name: 'CustomerEdge' },
  ),
  customer: t.prismaField({
    ...lookup('customer'),
    type: 'Customer',
    authScopes: requireScope('CUSTOMERS', 'READ'),
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getCustomer(ctx, String(args.id), query),
  }),
}));

const CreateCustomerInput = builder.inputType('CreateCustomerInput', {
  fields: (t) => ({
    email: t.string({ required: true, description: 'Stored trimmed and lower-cased; unique in the store' }),
    firstName: t.string(),
    lastName: t.string(),
    phone: t.string({ description: "Digits, spaces and '+ ( ) . -', 3 to 32 characters" }),
    acceptsMarketing: t.boolean({ description: 'Default false' }),
  }),
});

const UpdateCustomerInput = builder.inputType('UpdateCustomerInput', {
  fields: (t) => ({
    email: t.string({ description: 'Stored trimmed and lower-cased; unique in the store' }),
    firstName: t.string({ description: 'null clears it' }),
    lastName: t.string({ description: 'null clears it' }),
    phone: t.string({ description: 'null clears it' }),
    acceptsMarketing: t.boolean(),
  }),
});

builder.mutationFields((t) => ({
  createCustomer: t.prismaField({
    type: 'Customer',
    authScopes: requireScope('CUSTOMERS', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: CreateCustomerInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => createCustomer(ctx, input),
  }),
  updateCustomer: t.prismaField({
    type: 'Customer',
    authScopes: requireScope('CUSTOMERS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateCustomerInput, required: true }),
    },
    resolve: (_query, _root, { id, input }, ctx) => updateCustomer(ctx, String(id), input),
  }),
}));
