import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeMutations } from '../../resources/store-resource/mutations';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
import { categoryUpdateInput, moveCategoryInput, newCategoryInput } from './input';
import {
  categoryRows,
  categorySortFields,
  createCategory,
  deleteCategory,
  moveCategory,
  updateCategory,
} from './service';

export const CategoryRef = builder.prismaObject('Category', {
  extensions: resourceFragment({ relations: { parent: 'id name' } }),
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description', { nullable: true }),
    parentId: t.exposeString('parentId', { nullable: true }),
    parent: t.relation('parent', {
      nullable: true,
      description: 'The category above; null at the top level',
    }),
    position: t.exposeInt('position', { description: 'The place among its siblings, from 0' }),
    childCount: t.relationCount('children', { description: 'How many categories sit directly under it' }),
    productCount: t.relationCount('products', {
      description: 'How many products are in it (not counting subcategories)',
    }),
    ...timestamps(t),
  }),
});

storeQueries({
  ref: CategoryRef,
  fields: { list: 'categories', item: 'category' },
  scope: requireScope('CATEGORIES', 'READ'),
  cacheable: true,
  descriptions: {
    list: 'Categories of the store, a page at a time; `q` matches name or slug; `parentId` lists the children of a category, `topLevelOnly` those with no parent',
    connection: 'Categories as a Relay connection, for frontends',
  },
  sortFields: categorySortFields,
  filters: (arg) => ({
    q: arg.string(),
    parentId: arg.id({ description: 'Only the categories directly under this one' }),
    topLevelOnly: arg.boolean({ description: 'Only the categories with no parent' }),
  }),
  rows: categoryRows,
});

const MoveCategoryInput = inputTypeOf('MoveCategoryInput', moveCategoryInput);

builder.mutationFields((t) => ({
  moveCategory: t.prismaField({
    description:
      'Move a category under another (or to the top level) at a position among its siblings; both sibling lists are renumbered from 0. Under itself or a subcategory: 409 CATEGORY_CYCLE (emits category.updated)',
    type: 'Category',
    authScopes: requireScope('CATEGORIES', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: MoveCategoryInput, required: true }),
    },
    resolve: (query, _root, { id, input }, ctx) => moveCategory(ctx, id, input, query),
  }),
}));

const CreateCategoryInput = inputTypeOf('CreateCategoryInput', newCategoryInput);
const UpdateCategoryInput = inputTypeOf('UpdateCategoryInput', categoryUpdateInput);

storeMutations({
  name: 'Category',
  resource: 'CATEGORIES',
  create: {
    description: 'Create a category (emits category.created)',
    input: CreateCategoryInput,
    run: createCategory,
  },
  update: {
    description: 'Update a category (emits category.updated)',
    input: UpdateCategoryInput,
    run: updateCategory,
  },
  delete: {
    description:
      'Delete a category; its products stay, uncategorised, and its children move up to the root (emits category.deleted)',
    run: deleteCategory,
  },
});
