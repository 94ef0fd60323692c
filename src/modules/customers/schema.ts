import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeMutations } from '../../resources/store-resource/mutations';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
import { customerUpdateInput, newCustomerInput } from './input';
import { createCustomer, customerRows, customerSortFields, updateCustomer } from './service';
import { loadCustomerStats } from './stats';

export const CustomerRef = builder.prismaObject('Customer', {
  extensions: resourceFragment(),
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
    ...timestamps(t),
  }),
});

storeQueries({
  ref: CustomerRef,
  fields: { list: 'customers', item: 'customer' },
  scope: requireScope('CUSTOMERS', 'READ'),
  // Only writeStore changes its rows (README "Conditional requests").
  versioned: true,
  descriptions: {
    list: 'Customers of the store, a page at a time; each word of `q` matches e-mail, first or last name',
    connection: 'Customers as a Relay connection, for frontends',
  },
  sortFields: customerSortFields,
  filters: (arg) => ({ q: arg.string() }),
  rows: customerRows,
});

const CreateCustomerInput = inputTypeOf('CreateCustomerInput', newCustomerInput);
const UpdateCustomerInput = inputTypeOf('UpdateCustomerInput', customerUpdateInput);

storeMutations({
  name: 'Customer',
  resource: 'CUSTOMERS',
  create: {
    description: 'Create a customer; the e-mail is unique in the store (emits customer.created)',
    input: CreateCustomerInput,
    run: createCustomer,
  },
  update: {
    description: 'Update a customer (emits customer.updated)',
    input: UpdateCustomerInput,
    run: updateCustomer,
  },
});
