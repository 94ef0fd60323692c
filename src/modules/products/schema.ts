import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeMutations } from '../../resources/store-resource/mutations';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
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
    ...timestamps(t),
  }),
});

storeQueries({
  ref: ProductRef,
  fields: { list: 'products', item: 'product' },
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

storeMutations({
  name: 'Product',
  resource: 'PRODUCTS',
  create: {
    description: 'Create a product (emits product.created)',
    input: CreateProductInput,
    run: createProduct,
  },
  update: {
    description: 'Update a product (emits product.updated)',
    input: UpdateProductInput,
    run: updateProduct,
  },
  delete: {
    description: 'Delete a product; order items keep their copy (emits product.deleted)',
    run: deleteProduct,
  },
});
