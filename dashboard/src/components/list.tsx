import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { fromCombined } from '../errors';
import { Empty, ErrorAlert, Loading, Pager } from './ui';

/** A page of a list as every list query of the API answers it. */
export interface PageOf<T> {
  items: readonly T[];
  pagination: { totalResults: number; currentPage: number; lastPage: number };
}

/**
 * One page of a server-side list with its states: loading, the API's error, empty, or the rows and
 * the pager. Lists never load more than the page they show.
 */
export function ListView<T>(props: {
  what: string;
  page: PageOf<T> | undefined;
  fetching: boolean;
  error: CombinedError | undefined;
  empty: ReactNode;
  onPage: (page: number) => void;
  children: (items: readonly T[]) => ReactNode;
}) {
  const { page } = props;
  return (
    <>
      <ErrorAlert error={props.error ? fromCombined(props.error) : null} />
      {!page && props.fetching ? <Loading what={props.what.toLowerCase()} /> : null}
      {page && page.items.length === 0 ? <Empty>{props.empty}</Empty> : null}
      {page && page.items.length > 0 ? (
        <>
          <div className="table-wrap">{props.children(page.items)}</div>
          <Pager
            label={props.what}
            page={page.pagination.currentPage}
            lastPage={Math.max(1, page.pagination.lastPage)}
            total={page.pagination.totalResults}
            onPage={props.onPage}
          />
        </>
      ) : null}
    </>
  );
}

/** A section the API refused for this session's role or the store's plan: the reason, not a blank page. */
export function NotYours({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <h1>{title}</h1>
      <div className="notice" role="note">
        {children}
      </div>
    </>
  );
}
