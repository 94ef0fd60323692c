import type { ArgBuilder, EnumRef, ObjectRef } from '@pothos/core';
import type { Types } from '../../builder';

type BuilderTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;

import { builder } from '../../builder';
import type { Page } from './page';

export const SortDirectionEnum = builder.enumType('SortDirection', {
  values: { asc: { value: 'asc' }, desc: { value: 'desc' } } as const,
});

const PaginationRef = builder.objectRef<Page<unknown>>('Pagination').implement({
  description: 'Page position and totals of a list (spec 2.6)',
  fields: (t) => ({
    totalResults: t.exposeInt('totalResults'),
    currentPage: t.exposeInt('currentPage'),
    page: t.int({ description: 'Same as currentPage', resolve: (page) => page.currentPage }),
    limit: t.exposeInt('limit'),
    lastPage: t.exposeInt('lastPage'),
  }),
});

/** The page arguments every list takes, with its own sortBy enum. */
export function pageArgs<SortRef extends EnumRef<BuilderTypes, string>>(
  arg: ArgBuilder<BuilderTypes>,
  sortBy: SortRef,
) {
  return {
    page: arg.int({ description: 'Page to fetch, from 1 (default 1)' }),
    limit: arg.int({ description: 'Items per page, 1 to 100 (default 25)' }),
    sortBy: arg({ type: sortBy, description: 'Field to sort by' }),
    sortDirection: arg({ type: SortDirectionEnum, description: 'asc or desc (default desc)' }),
  };
}

/** The selection of a page's pagination that REST's envelope and MCP's results carry (docs/design.md "Envelopes"). */
export const PAGINATION_SELECTION = 'pagination { totalResults currentPage limit lastPage }';

/** `<Name>Page { items, pagination }`: a page of a list for REST's list envelope. */
export function pageType<T>(name: string, itemRef: ObjectRef<BuilderTypes, T>) {
  return builder.objectRef<Page<T>>(`${name}Page`).implement({
    fields: (t) => ({
      items: t.field({ type: [itemRef], resolve: (page) => page.items }),
      pagination: t.field({ type: PaginationRef, resolve: (page) => page as Page<unknown> }),
    }),
  });
}
