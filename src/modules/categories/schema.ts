import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeMutations } from '../../resources/store-resource/mutations';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
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
    ...timestamps(t),
  }),
});

storeQueries({
  ref: CategoryRef,
  fields: { list: 'categories', item: 'category' },
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
