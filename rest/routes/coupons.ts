import { PAGINATION_SELECTION } from '../../src/modules/pagination/schema';
import { route } from '../route';

export const couponRoutes = [
  route({
    method: 'GET',
    path: '/coupon',
    tag: 'Coupons',
    summary:
      'List coupons (filter with q on the code and isActive; sortBy createdAt, code or redemptionCount)',
    operation: `query ListCoupons($page: Int, $limit: Int, $q: String, $isActive: Boolean, $sortBy: CouponSortField, $sortDirection: SortDirection) {
      coupons(page: $page, limit: $limit, q: $q, isActive: $isActive, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...CouponFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'coupons' },
  }),
  route({
    method: 'GET',
    path: '/coupon/{id}',
    tag: 'Coupons',
    summary: 'Get a coupon',
    operation: `query GetCoupon($id: ID!) { coupon(id: $id) { ...CouponFields } }`,
    result: { kind: 'item', field: 'coupon' },
  }),
  route({
    method: 'POST',
    path: '/coupon',
    tag: 'Coupons',
    summary: 'Create a coupon (the code is stored upper-cased and unique in the store)',
    operation: `mutation CreateCoupon($input: CreateCouponInput!) { createCoupon(input: $input) { ...CouponFields } }`,
    body: 'input',
    result: { kind: 'item', field: 'createCoupon' },
    status: 201,
  }),
  route({
    method: 'PATCH',
    path: '/coupon/{id}',
    tag: 'Coupons',
    summary: 'Update a coupon (redemptionCount is read-only)',
    operation: `mutation UpdateCoupon($id: ID!, $input: UpdateCouponInput!) {
      updateCoupon(id: $id, input: $input) { ...CouponFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateCoupon' },
  }),
  route({
    method: 'DELETE',
    path: '/coupon/{id}',
    tag: 'Coupons',
    summary: 'Delete a coupon; orders that used it keep their amounts',
    operation: 'mutation DeleteCoupon($id: ID!) { deleteCoupon(id: $id) { id deleted } }',
    result: { kind: 'empty', field: 'deleteCoupon' },
  }),
];
