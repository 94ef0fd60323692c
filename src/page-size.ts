/**
 * How many items a page holds (docs/design.md "Pagination"): 25 unless asked, at most 100. A leaf, so
 * that what sizes a page — the pages themselves, the query cost, the OpenAPI document — reads one number.
 */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
