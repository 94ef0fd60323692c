import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../modules/pagination/page';

/** Inputs and outputs the tools share. Bounds match DESIGN "Pagination"; the schema checks again. */

export const id = (what: string) => z.string().min(1).max(100).describe(`The ${what} id`);

/** A date (midnight UTC) or a date-time with Z or an offset; the schema's DateTime parses it. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

export const dateTimeInput = (description: string) =>
  z
    .string()
    .regex(ISO_DATE_TIME, 'must be an ISO 8601 date or date-time, e.g. 2026-01-31 or 2026-01-31T09:00:00Z')
    .refine((value) => !Number.isNaN(Date.parse(value)), 'is not a real date')
    .describe(`${description}; ISO 8601 date or date-time, e.g. 2026-01-31 or 2026-01-31T09:00:00Z`);

export const pageInput = {
  page: z.number().int().min(1).optional().describe('Page to fetch, from 1 (default 1)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .describe(`Items per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`),
  sortDirection: z.enum(['asc', 'desc']).optional().describe('asc or desc (default desc)'),
};

export const sortBy = <const T extends readonly [string, ...string[]]>(fields: T) =>
  z
    .enum(fields)
    .optional()
    .describe(`Field to sort by: ${fields.join(', ')} (default createdAt)`);

/** Output date-times: `format` rather than zod's long ISO pattern, which would bloat tools/list. */
export const dateTime = z.string().meta({ format: 'date-time', description: 'ISO 8601, UTC' });
export const amount = z.number().int().describe('Minor units of the currency (cents)');

export const pagination = z
  .object({
    totalResults: z.number().int(),
    currentPage: z.number().int(),
    limit: z.number().int(),
    lastPage: z.number().int(),
  })
  .strict();

/** The page selection every list operation asks for, matching `pagination` above. */
export const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), pagination }).strict();

/** "3 of 57 products (page 1 of 3)". */
export function pageHeadline(noun: string, result: z.output<ReturnType<typeof page>>): string {
  const { totalResults, currentPage, lastPage } = result.pagination;
  return `${result.items.length} of ${totalResults} ${noun} (page ${currentPage} of ${lastPage}).`;
}
