import { z } from 'zod';
import { catalogueTextInput } from '../../resources/slug';

const parentId = z.string().min(1).describe('Another category of the store').nullish();
const position = z.number().int('must be an integer').min(0, 'must be at least 0').max(1_000_000);

const fields = {
  ...catalogueTextInput('category'),
  parentId,
  position: position
    .describe('The place among its siblings; a category created without one goes after its last sibling')
    .optional(),
};

export const newCategoryInput = z.object(fields).strict();
export const categoryUpdateInput = z.object(fields).partial().strict();

/** Where a category goes: under another category (or the top level, null) at a place among its siblings. */
export const moveCategoryInput = z
  .object({
    parentId: parentId.describe(
      'The new parent, another category of the store; null or absent: the top level',
    ),
    position: position.describe(
      'The place among the new siblings, from 0; beyond the last sibling it goes last. Siblings are renumbered 0, 1, 2…',
    ),
  })
  .strict();
