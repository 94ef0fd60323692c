import { z } from 'zod';

/** A URL slug from a name: lowercase ASCII letters, digits and single dashes. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The name, slug and description of a catalogue entry (a product, a category): one set of rules. */
export const catalogueTextInput = (entry: 'product' | 'category') => ({
  name: z.string().trim().min(1, 'is required').max(200, 'at most 200 characters'),
  slug: z
    .string()
    .regex(SLUG_PATTERN, 'lowercase letters, digits and single dashes')
    .max(100)
    .describe(`Unique in the store; derived from the name when a ${entry} is created without one`)
    .optional(),
  description: z.string().max(5000, 'at most 5000 characters').nullish(),
});
