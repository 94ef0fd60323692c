import { resourceRoutes } from '../resource-routes';

/** No DELETE: the schema has no deleteCustomer (customers stay with their orders). */
export const customerRoutes = resourceRoutes({
  tag: 'Customers',
  path: '/customer',
  type: 'Customer',
  noun: 'a customer, with its order count and total spent',
});
