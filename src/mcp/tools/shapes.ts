import { z } from 'zod';

/** What the tools share: date-time arguments (checked before any query runs) and list headlines. */

/** A date (midnight UTC) or a date-time with Z or an offset; the schema's DateTime parses it. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

export const dateTimeInput = (description: string) =>
  z
    .string()
    .regex(ISO_DATE_TIME, 'must be an ISO 8601 date or date-time, e.g. 2026-01-31 or 2026-01-31T09:00:00Z')
    .refine((value) => !Number.isNaN(Date.parse(value)), 'is not a real date')
    .describe(`${description}; ISO 8601 date or date-time, e.g. 2026-01-31 or 2026-01-31T09:00:00Z`);

/** What a list tool's headline reads: the page of its root field. */
interface PageResult {
  items: unknown[];
  pagination: { totalResults: number; currentPage: number; lastPage: number };
}

/** "3 of 57 products (page 1 of 3)." */
export const pageHeadline =
  (noun: string) =>
  (result: PageResult): string => {
    const { totalResults, currentPage, lastPage } = result.pagination;
    return `${result.items.length} of ${totalResults} ${noun} (page ${currentPage} of ${lastPage}).`;
  };
