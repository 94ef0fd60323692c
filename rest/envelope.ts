import type { RouteResult } from './route';

interface ListPayload {
  items: unknown[];
  pagination: { totalResults: number; currentPage: number; limit: number; lastPage: number };
}

/** The list and single-item envelopes (docs/design.md "Envelopes"). */
export function successEnvelope(result: RouteResult, data: Record<string, unknown>) {
  const value = data[result.field];
  if (result.kind === 'list') {
    const { items, pagination } = value as ListPayload;
    return {
      success: true,
      data: items,
      pagination: {
        results: [],
        totalResults: pagination.totalResults,
        currentPage: pagination.currentPage,
        page: pagination.currentPage,
        limit: pagination.limit,
        lastPage: pagination.lastPage,
      },
    };
  }
  return { success: true, data: value };
}
