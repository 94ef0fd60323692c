import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeQueries } from '../../resources/store-resource/queries';
import { categoryUpdateInput, newCategoryInput } from './input';
import { categoryRows, categorySortFields, createCategory, deleteCategory, updateCategory } from './service';

export const CategoryRef = builder.prismaObject('Category', {
  extensions: resourceFragment(),
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description', { nullable: true }),
    parentId: t.exposeString('parentId', { nullable: true }),
    position: t.exposeInt('position'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

storeQueries({
  ref: CategoryRef,
  name: 'Category',
  fields: { list: 'categories', item: 'category' },
  noun: 'category',
  scope: requireScope('CATEGORIES', 'READ'),
  cacheable: true,
  descriptions: {
    list: 'Categories of the store, a page at a time; `q` matches name or slug',
    connection: 'Categories as a Relay connection, for frontends',
  },
  sortFields: categorySortFields,
  filters: (arg) => ({ q: arg.string() }),
  rows: categoryRows,
});

const CreateCategoryInput = inputTypeOf('CreateCategoryInput', newCategoryInput);
const UpdateCategoryInput = inputTypeOf('UpdateCategoryInput', categoryUpdateInput);

const DeletedCategoryRef = builder.objectRef<{ id: string; deleted: boolean }>('DeletedCategory').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  createCategory: t.prismaField({
    description: 'Create a category (emits category.created)',
    type: 'Category',
    authScopes: requireScope('CATEGORIES', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: CreateCategoryInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => createCategory(ctx, input),
  }),
  updateCategory: t.prismaField({
    description: 'Update a category (emits category.updated)',
    type: 'Category',
    authScopes: requireScope('CATEGORIES', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateCategoryInput, required: true }),
    },
    resolve: (_query, _root, { id, input }, ctx) => updateCategory(ctx, id, input),
  }),
  deleteCategory: t.field({
    description:
      'Delete a category; its products stay, uncategorised, and its children move up to the root (emits category.deleted)',
    type: DeletedCategoryRef,
    authScopes: requireScope('CATEGORIES', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteCategory(ctx, id),
  }),
}));
