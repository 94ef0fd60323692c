import { z } from 'zod';
import { SLUG_PATTERN } from '../slug';

const fields = {
  name: z.string().trim().min(1, 'is required').max(200, 'at most 200 characters'),
  slug: z
    .string()
    .regex(SLUG_PATTERN, 'lowercase letters, digits and single dashes')
    .max(100)
    .describe('Unique in the store; derived from the name when a category is created without one')
    .optional(),
  description: z.string().max(5000, 'at most 5000 characters').nullish(),
  parentId: z.string().min(1).describe('Another category of the store').nullish(),
  position: z.number().int('must be an integer').min(0, 'must be at least 0').max(1_000_000).optional(),
};

export const newCategoryInput = z.object(fields).strict();
export const categoryUpdateInput = z.object(fields).partial().strict();
