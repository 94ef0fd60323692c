import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeQueries } from '../../resources/store-resource/queries';
import { newProductInput, productStatuses, productUpdateInput } from './input';
import { createProduct, deleteProduct, productRows, productSortFields, updateProduct } from './service';

const ProductStatusEnum = builder.enumType('ProductStatus', { values: productStatuses });

export const ProductRef = builder.prismaObject('Product', {
  extensions: resourceFragment({ relations: { category: 'id name' } }),
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

storeQueries({
  ref: ProductRef,
  name: 'Product',
  fields: { list: 'products', item: 'product' },
  noun: 'product',
  scope: requireScope('PRODUCTS', 'READ'),
  cacheable: true,
  descriptions: {
    list: 'Products of the store, a page at a time; `q` matches name or sku. Item selections (category) load with the page.',
    connection: 'Products as a Relay connection, for frontends',
  },
  sortFields: productSortFields,
  filters: (arg) => ({
    q: arg.string({ description: 'Matches name or sku' }),
    status: arg({ type: ProductStatusEnum }),
    categoryId: arg.id(),
    minPrice: arg.int({ description: 'Lowest priceAmount, in minor units' }),
    maxPrice: arg.int({ description: 'Highest priceAmount, in minor units' }),
  }),
  rows: productRows,
});

const productInputTypes = { status: ProductStatusEnum, categoryId: 'ID' };
const CreateProductInput = inputTypeOf('CreateProductInput', newProductInput, { types: productInputTypes });
const UpdateProductInput = inputTypeOf('UpdateProductInput', productUpdateInput, {
  types: productInputTypes,
});

const DeletedProductRef = builder.objectRef<{ id: string; deleted: boolean }>('DeletedProduct').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  createProduct: t.prismaField({
    description: 'Create a product (emits product.created)',
    type: 'Product',
    authScopes: requireScope('PRODUCTS', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: CreateProductInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => createProduct(ctx, input),
  }),
  updateProduct: t.prismaField({
    description: 'Update a product (emits product.updated)',
    type: 'Product',
    authScopes: requireScope('PRODUCTS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateProductInput, required: true }),
    },
    resolve: (_query, _root, { id, input }, ctx) => updateProduct(ctx, id, input),
  }),
  deleteProduct: t.field({
    description: 'Delete a product; order items keep their copy (emits product.deleted)',
    type: DeletedProductRef,
    authScopes: requireScope('PRODUCTS', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteProduct(ctx, id),
  }),
}));
