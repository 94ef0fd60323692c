import type { ArgBuilder } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder, cacheableRead, requireScope, type Types } from '../../builder';
import { idempotencyArg } from '../idempotency-arg';
import { lookup } from '../lookup';
import { NodeRef } from '../node-interface';
import { pageArgs, pageType, SortDirectionEnum } from '../pagination/schema';
import { productStatuses } from './input';
import {
  countProducts,
  createProduct,
  deleteProduct,
  findProductsForConnection,
  getProduct,
  listProducts,
  type ProductFilter,
  productSortFields,
  updateProduct,
} from './service';

const ProductStatusEnum = builder.enumType('ProductStatus', { values: productStatuses });
const ProductSortFieldEnum = builder.enumType('ProductSortField', { values: productSortFields });

export const ProductRef = builder.prismaObject('Product', {
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description', { nullable: true }),
    sku: t.exposeString('sku', { nullable: true }),
    priceAmount: t.exposeInt('priceAmount', { description: 'Price in minor units of the currency' }),
    compareAtAmount: t.exposeInt('compareAtAmount', {
      nullable: true,
      description: 'The "was" price in minor units, at least priceAmount',
    }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code' }),
    stock: t.exposeInt('stock'),
    status: t.expose('status', { type: ProductStatusEnum }),
    categoryId: t.exposeString('categoryId', { nullable: true }),
    category: t.relation('category', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ProductPage = pageType('Product', ProductRef);

type BuilderTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;

/** The filters `products` and `productsConnection` share. */
const filterArgs = (arg: ArgBuilder<BuilderTypes>) => ({
  q: arg.string({ description: 'Matches name or sku' }),
  status: arg({ type: ProductStatusEnum }),
  categoryId: arg.id(),
  minPrice: arg.int({ description: 'Lowest priceAmount, in minor units' }),
  maxPrice: arg.int({ description: 'Highest priceAmount, in minor units' }),
});

const toFilter = (args: {
  q?: string | null;
  status?: ProductFilter['status'];
  categoryId?: string | number | null;
  minPrice?: number | null;
  maxPrice?: number | null;
}): ProductFilter => ({
  q: args.q,
  status: args.status,
  categoryId: args.categoryId == null ? null : String(args.categoryId),
  minPrice: args.minPrice,
  maxPrice: args.maxPrice,
});

builder.queryFields((t) => ({
  products: t.field({
    type: ProductPage,
    description:
      'Products of the store, a page at a time; `q` matches name or sku. Item selections (category) load with the page.',
    authScopes: requireScope('PRODUCTS', 'READ'),
    extensions: cacheableRead,
    args: { ...pageArgs(t.arg, ProductSortFieldEnum), ...filterArgs(t.arg) },
    resolve: (_root, args, ctx, info) =>
      listProducts(
        ctx,
        {
          page: args.page,
          limit: args.limit,
          sortBy: args.sortBy,
          sortDirection: args.sortDirection,
          ...toFilter(args),
        },
        queryFromInfo({ context: ctx, info, path: ['items'] }),
      ),
  }),
  productsConnection: t.prismaConnection(
    {
      type: 'Product',
      cursor: 'id',
      description: 'Products as a Relay connection, for frontends',
      authScopes: requireScope('PRODUCTS', 'READ'),
      extensions: cacheableRead,
      args: {
        ...filterArgs(t.arg),
        sortBy: t.arg({ type: ProductSortFieldEnum }),
        sortDirection: t.arg({ type: SortDirectionEnum }),
      },
      totalCount: (_parent, args, ctx) => countProducts(ctx, toFilter(args)),
      resolve: (query, _root, args, ctx) =>
        findProductsForConnection(ctx, query, {
          ...toFilter(args),
          sortBy: args.sortBy,
          sortDirection: args.sortDirection,
        }),
    },
    { name: 'ProductConnection' },
    { name: 'ProductEdge' },
  ),
  product: t.prismaField({
    ...lookup('product'),
    type: 'Product',
    authScopes: requireScope('PRODUCTS', 'READ'),
    extensions: cacheableRead,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getProduct(ctx, String(args.id), query),
  }),
}));

const CreateProductInput = builder.inputType('CreateProductInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    slug: t.string({ description: 'Derived from the name when absent; unique in the store' }),
    description: t.string(),
    sku: t.string({ description: 'Unique in the store' }),
    priceAmount: t.int({ required: true, description: 'Minor units, at least 0' }),
    compareAtAmount: t.int({ description: 'Minor units, at least priceAmount' }),
    currency: t.string({ description: "3 uppercase letters; the store's currency when absent" }),
    stock: t.int({ description: 'At least 0 (default 0)' }),
    status: t.field({ type: ProductStatusEnum, description: 'Default active' }),
    categoryId: t.id({ description: 'A category of the store' }),
  }),
});

const UpdateProductInput = builder.inputType('UpdateProductInput', {
  fields: (t) => ({
    name: t.string(),
    slug: t.string(),
    description: t.string(),
    sku: t.string(),
    priceAmount: t.int(),
    compareAtAmount: t.int(),
    currency: t.string(),
    stock: t.int(),
    status: t.field({ type: ProductStatusEnum }),
    categoryId: t.id({ description: 'A category of the store; null removes it' }),
  }),
});

const DeletedProductRef = builder.objectRef<{ id: string; deleted: boolean }>('DeletedProduct').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  createProduct: t.prismaField({
    type: 'Product',
    authScopes: requireScope('PRODUCTS', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: CreateProductInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => createProduct(ctx, input),
  }),
  updateProduct: t.prismaField({
    type: 'Product',
    authScopes: requireScope('PRODUCTS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateProductInput, required: true }),
    },
    resolve: (_query, _root, { id, input }, ctx) => updateProduct(ctx, String(id), input),
  }),
  deleteProduct: t.field({
    type: DeletedProductRef,
    authScopes: requireScope('PRODUCTS', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteProduct(ctx, String(id)),
  }),
}));
