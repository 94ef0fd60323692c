import { type ReactNode, useState } from 'react';

/**
 * A paged list's filters and its page: `change` sets some filters and goes back to page 1, the one
 * place that rule is kept (a filtered list starts at its first page).
 */
export function usePagedFilters<F extends object>(initial: F) {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState(initial);
  const change = (next: Partial<F>) => {
    setFilters((now) => ({ ...now, ...next }));
    setPage(1);
  };
  return { page, setPage, filters, change };
}

/** An option of a filter's select: a value shown as it is, or a value and its label. */
export type FilterOption<T extends string> = T | readonly [T, string];

/**
 * A list filter's select, applied as soon as it changes (`onChange` also goes back to page 1 where
 * the list pages). `any` puts "Any" first, whose value is ''.
 */
export function FilterSelect<T extends string>(props: {
  label: string;
  value: T | '';
  options: ReadonlyArray<FilterOption<T>>;
  any?: boolean;
  onChange: (value: T | '') => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value as T | '')}>
        {props.any ? <option value="">Any</option> : null}
        {props.options.map((option) => {
          const [value, text] = typeof option === 'string' ? [option, option] : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/**
 * A list's search form: one text field (`q`) sent by its button, which `onSearch` receives; the
 * list's other filters and actions go in as children, on the same row.
 */
export function SearchForm(props: {
  label: string;
  placeholder: string;
  value: string;
  onSearch: (text: string) => void;
  children?: ReactNode;
}) {
  return (
    <form
      className="filters"
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(String(new FormData(e.currentTarget).get('q') ?? ''));
      }}
    >
      <label>
        Search <input name="q" type="search" defaultValue={props.value} placeholder={props.placeholder} />
      </label>
      <button type="submit">Search</button>
      {props.children}
    </form>
  );
}
