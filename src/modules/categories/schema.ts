import { builder, cacheableRead, requireScope } from '../../builder';
import { idempotencyArg } from '../idempotency-arg';
import { lookup } from '../lookup';
import { NodeRef } from '../node-interface';
import { pageArgs, pageType, SortDirectionEnum } from '../pagination/schema';
import {
  categorySortFields,
  countCategories,
  createCategory,
  deleteCategory,
  findCategoriesForConnection,
  getCategory,
  listCategories,
  updateCategory,
} from './service';

export const CategoryRef = builder.prismaObject('Category', {
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

const CategorySortFieldEnum = builder.enumType('CategorySortField', { values: categorySortFields });
const CategoryPage = pageType('Category', CategoryRef);

builder.queryFields((t) => ({
  categories: t.field({
    type: CategoryPage,
    description: 'Categories of the store, a page at a time; `q` matches name or slug',
    authScopes: requireScope('CATEGORIES', 'READ'),
    extensions: cacheableRead,
    args: { ...pageArgs(t.arg, CategorySortFieldEnum), q: t.arg.string() },
    resolve: (_root, args, ctx) => listCategories(ctx, args),
  }),
  categoriesConnection: t.prismaConnection(
    {
      type: 'Category',
      cursor: 'id',
      description: 'Categories as a Relay connection, for frontends',
      authScopes: requireScope('CATEGORIES', 'READ'),
      extensions: cacheableRead,
      args: {
        q: t.arg.string(),
        sortBy: t.arg({ type: CategorySortFieldEnum }),
        sortDirection: t.arg({ type: SortDirectionEnum }),
      },
      totalCount: (_parent, args, ctx) => countCategories(ctx, args),
      resolve: (query, _root, args, ctx) => findCategoriesForConnection(ctx, query, args),
    },
    { name: 'CategoryConnection' },
    { name: 'CategoryEdge' },
  ),
  category: t.prismaField({
    ...lookup('category'),
    type: 'Category',
    authScopes: requireScope('CATEGORIES', 'READ'),
    extensions: cacheableRead,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getCategory(ctx, String(args.id), query),
  }),
}));

const CreateCategoryInput = builder.inputType('CreateCategoryInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    slug: t.string({ description: 'Derived from the name when absent; unique in the store' }),
    description: t.string(),
    parentId: t.string({ description: 'Another category of the store' }),
    position: t.int(),
  }),
});

const UpdateCategoryInput = builder.inputType('UpdateCategoryInput', {
  fields: (t) => ({
    name: t.string(),
    slug: t.string(),
    description: t.string(),
    parentId: t.string(),
    position: t.int(),
  }),
});

const DeletedCategoryRef = builder.objectRef<{ id: string; deleted: boolean }>('DeletedCategory').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  createCategory: t.prismaField({
    type: 'Category',
    authScopes: requireScope('CATEGORIES', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: CreateCategoryInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => createCategory(ctx, input),
  }),
  updateCategory: t.prismaField({
    type: 'Category',
    authScopes: requireScope('CATEGORIES', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateCategoryInput, required: true }),
    },
    resolve: (_query, _root, { id, input }, ctx) => updateCategory(ctx, String(id), input),
  }),
  deleteCategory: t.field({
    type: DeletedCategoryRef,
    authScopes: requireScope('CATEGORIES', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteCategory(ctx, String(id)),
  }),
}));
