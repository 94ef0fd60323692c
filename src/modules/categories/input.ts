import { z } from 'zod';
import { catalogueTextInput } from '../../resources/slug';

const fields = {
  ...catalogueTextInput('category'),
  parentId: z.string().min(1).describe('Another category of the store').nullish(),
  position: z.number().int('must be an integer').min(0, 'must be at least 0').max(1_000_000).optional(),
};

export const newCategoryInput = z.object(fields).strict();
export const categoryUpdateInput = z.object(fields).partial().strict();
