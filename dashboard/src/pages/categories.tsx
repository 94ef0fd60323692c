import { type FormEvent, Fragment, useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { ListView, NotYours } from '../components/list';
import { useAction } from '../components/mutation';
import { ConfirmButton, Dialog, ErrorAlert, Field, Loading, Pager } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql, type ResultOf } from '../graphql';
import { can, useSession } from '../session';

const CategoryFields = graphql(`
  fragment CategoryRow on Category {
    id name slug description parentId position childCount productCount
  }
`);

/** One level of the tree: the top level (topLevelOnly) or a category's children (parentId), in order. */
const LevelQuery = graphql(
  `
  query CategoryLevel($page: Int, $limit: Int, $parentId: ID, $topLevelOnly: Boolean) {
    categories(page: $page, limit: $limit, parentId: $parentId, topLevelOnly: $topLevelOnly,
        sortBy: position, sortDirection: asc) {
      items { ...CategoryRow }
      pagination { totalResults currentPage lastPage }
    }
  }
`,
  [CategoryFields],
);

/** The parents a form offers, by name (one page of the largest size, as the product form's list). */
const ParentsQuery = graphql(`
  query CategoryParents { categories(limit: 100, sortBy: name, sortDirection: asc) { items { id name } } }
`);

const CreateCategory = graphql(
  `mutation CreateCategory($input: CreateCategoryInput!) { createCategory(input: $input) { ...CategoryRow } }`,
  [CategoryFields],
);
const UpdateCategory = graphql(
  `mutation UpdateCategory($id: ID!, $input: UpdateCategoryInput!) { updateCategory(id: $id, input: $input) { ...CategoryRow } }`,
  [CategoryFields],
);
const MoveCategory = graphql(
  `mutation MoveCategory($id: ID!, $input: MoveCategoryInput!) { moveCategory(id: $id, input: $input) { ...CategoryRow } }`,
  [CategoryFields],
);
const DeleteCategory = graphql(`
  mutation DeleteCategory($id: ID!) { deleteCategory(id: $id) { id deleted } }
`);

type Category = ResultOf<typeof CategoryFields>;
type Parents = ResultOf<typeof ParentsQuery>['categories']['items'];

/** "Last" for the API: a position beyond the last sibling puts it last. */
const LAST = 1_000_000;
const CHILD_PAGE = 50;

interface TreeActions {
  parents: Parents;
  canUpdate: boolean;
  canDelete: boolean;
  /** After a write: every level reads again. */
  changed: () => void;
  version: number;
}

/** Categories: the tree a level at a time (children indented under their parent, in position order). */
export function CategoriesPage() {
  const { session } = useSession();
  const [page, setPage] = useState(1);
  const [version, setVersion] = useState(0);
  const [top, refetchTop] = useQuery({
    query: LevelQuery,
    variables: { page, limit: 25, topLevelOnly: true },
  });
  const [parents, refetchParents] = useQuery({ query: ParentsQuery });
  if (!session) return null;
  if (!can(session, 'CATEGORIES', 'READ'))
    return (
      <NotYours title="Categories">
        <p>Your role ({session.staff.role}) does not include the store's categories.</p>
      </NotYours>
    );
  const actions: TreeActions = {
    parents: parents.data?.categories.items ?? [],
    canUpdate: can(session, 'CATEGORIES', 'UPDATE'),
    canDelete: can(session, 'CATEGORIES', 'DELETE'),
    version,
    changed: () => {
      refetchTop({ requestPolicy: 'network-only' });
      refetchParents({ requestPolicy: 'network-only' });
      setVersion((v) => v + 1);
    },
  };
  return (
    <>
      <h1>Categories</h1>
      <div className="toolbar">
        <p className="muted">
          Subcategories are indented under their parent, in the order shoppers see them. Open a category to
          see its subcategories.
        </p>
        {can(session, 'CATEGORIES', 'WRITE') ? (
          <CategoryForm
            title="New category"
            trigger="New category"
            parents={actions.parents}
            onSaved={actions.changed}
          />
        ) : null}
      </div>
      <ListView
        what="Categories"
        page={top.data?.categories}
        fetching={top.fetching}
        error={top.error}
        empty="No categories yet."
        onPage={setPage}
      >
        {(items) => (
          <table className="tree stack">
            <caption className="sr-only">Categories</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Products</th>
                <th scope="col">Subcategories</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              <Rows
                items={items}
                depth={0}
                offset={(top.data!.categories.pagination.currentPage - 1) * 25}
                total={top.data!.categories.pagination.totalResults}
                actions={actions}
              />
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

/** A level's rows; an open category's children follow it, one level deeper. */
function Rows(props: {
  items: readonly Category[];
  depth: number;
  offset: number;
  total: number;
  actions: TreeActions;
}) {
  const [open, setOpen] = useState<Record<string, boolean>>({});
  return (
    <>
      {props.items.map((category, index) => (
        <Fragment key={category.id}>
          <CategoryRow
            category={category}
            depth={props.depth}
            place={props.offset + index}
            siblings={props.total}
            open={Boolean(open[category.id])}
            onToggle={() => setOpen((o) => ({ ...o, [category.id]: !o[category.id] }))}
            actions={props.actions}
          />
          {open[category.id] && category.childCount > 0 ? (
            <Children parent={category} depth={props.depth + 1} actions={props.actions} />
          ) : null}
        </Fragment>
      ))}
    </>
  );
}

/** The children of an open category, a page at a time; read again after every write. */
function Children(props: { parent: Category; depth: number; actions: TreeActions }) {
  const [page, setPage] = useState(1);
  const [result, refetch] = useQuery({
    query: LevelQuery,
    variables: { page, limit: CHILD_PAGE, parentId: props.parent.id },
  });
  const { version } = props.actions;
  useEffect(() => {
    if (version > 0) refetch({ requestPolicy: 'network-only' });
  }, [version, refetch]);
  const level = result.data?.categories;
  const indent = { paddingLeft: `${(props.depth + 1) * 1.5}rem` };
  if (!level)
    return (
      <tr>
        <td colSpan={5} style={indent}>
          {result.error ? (
            <ErrorAlert error={fromCombined(result.error)} />
          ) : (
            <Loading what="subcategories" />
          )}
        </td>
      </tr>
    );
  return (
    <>
      <Rows
        items={level.items}
        depth={props.depth}
        offset={(level.pagination.currentPage - 1) * CHILD_PAGE}
        total={level.pagination.totalResults}
        actions={props.actions}
      />
      {level.pagination.lastPage > 1 ? (
        <tr>
          <td colSpan={5} style={indent}>
            <Pager
              label={`Subcategories of ${props.parent.name}`}
              page={level.pagination.currentPage}
              lastPage={level.pagination.lastPage}
              total={level.pagination.totalResults}
              onPage={setPage}
            />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function CategoryRow(props: {
  category: Category;
  depth: number;
  place: number;
  siblings: number;
  open: boolean;
  onToggle: () => void;
  actions: TreeActions;
}) {
  const { category: c, actions } = props;
  const move = useAction(MoveCategory);
  const remove = useAction(DeleteCategory);
  const step = async (by: number) => {
    if (await move.run({ id: c.id, input: { parentId: c.parentId, position: props.place + by } }))
      actions.changed();
  };
  return (
    <tr>
      <th scope="row" className="tree-name" style={{ paddingLeft: `${props.depth * 1.5 + 0.5}rem` }}>
        {c.childCount > 0 ? (
          <button
            type="button"
            className="toggle"
            aria-expanded={props.open}
            aria-label={`${props.open ? 'Hide' : 'Show'} subcategories of ${c.name}`}
            onClick={props.onToggle}
          >
            {props.open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="toggle" aria-hidden="true" />
        )}
        {c.name}
        <ErrorAlert error={move.error ?? remove.error} />
      </th>
      <td data-label="Slug">{c.slug}</td>
      <td data-label="Products">{c.productCount}</td>
      <td data-label="Subcategories">{c.childCount}</td>
      <td className="actions">
        {actions.canUpdate ? (
          <>
            <button
              type="button"
              aria-label={`Move ${c.name} up`}
              disabled={props.place === 0 || move.busy}
              onClick={() => void step(-1)}
            >
              Up
            </button>
            <button
              type="button"
              aria-label={`Move ${c.name} down`}
              disabled={props.place >= props.siblings - 1 || move.busy}
              onClick={() => void step(1)}
            >
              Down
            </button>
            <MoveForm category={c} parents={actions.parents} onSaved={actions.changed} />
            <CategoryForm
              title={`Edit ${c.name}`}
              trigger="Edit"
              label={`Edit ${c.name}`}
              category={c}
              parents={actions.parents}
              onSaved={actions.changed}
            />
          </>
        ) : null}
        {actions.canDelete ? (
          <ConfirmButton
            label="Delete"
            name={`Delete ${c.name}`}
            danger
            title={`Delete ${c.name}?`}
            body={
              <p>
                {c.childCount > 0
                  ? `Its ${c.childCount} ${c.childCount === 1 ? 'subcategory moves' : 'subcategories move'} to the top level.`
                  : 'It has no subcategories.'}{' '}
                {c.productCount > 0
                  ? `Its ${c.productCount} ${c.productCount === 1 ? 'product stays' : 'products stay'} in the store, without a category.`
                  : 'It has no products.'}
              </p>
            }
            confirm="Delete category"
            onConfirm={async () => {
              if (await remove.run({ id: c.id })) actions.changed();
            }}
          />
        ) : null}
      </td>
    </tr>
  );
}

function ParentSelect(props: {
  attributes: { id: string; name: string; 'aria-invalid': boolean; 'aria-describedby'?: string };
  parents: Parents;
  self?: string;
  value: string | null;
}) {
  return (
    <select {...props.attributes} defaultValue={props.value ?? ''}>
      <option value="">Top level</option>
      {props.parents
        .filter((p) => p.id !== props.self)
        .map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
    </select>
  );
}

/** Move: a new parent (or the top level) and a place among its children; a cycle is refused beside Parent. */
function MoveForm(props: { category: Category; parents: Parents; onSaved: () => void }) {
  const [open, setOpen] = useState(false);
  const move = useAction(MoveCategory);
  // The place is counted from 1 here and from 0 in the API, so its rule is said here, in those words.
  const [placeError, setPlaceError] = useState<string>();
  const c = props.category;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const place = String(form.get('position') ?? '').trim();
    const position = place === '' ? LAST : Number(place) - 1;
    if (!Number.isInteger(position) || position < 0 || position > LAST) {
      setPlaceError('must be a whole number, 1 or more');
      return;
    }
    setPlaceError(undefined);
    const saved = await move.run({
      id: c.id,
      input: { parentId: String(form.get('parentId') ?? '') || null, position },
    });
    if (saved) {
      setOpen(false);
      props.onSaved();
    }
  };
  const errors = move.error?.fields ?? {};
  return (
    <Dialog
      title={`Move ${c.name}`}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        move.clear();
        setPlaceError(undefined);
      }}
      trigger={
        <button type="button" aria-label={`Move ${c.name}`}>
          Move…
        </button>
      }
    >
      <form onSubmit={submit} noValidate>
        <ErrorAlert error={move.error} />
        <Field label="Parent" name="parentId" error={errors.parentId}>
          {(a) => <ParentSelect attributes={a} parents={props.parents} self={c.id} value={c.parentId} />}
        </Field>
        <Field
          label="Place among its siblings"
          name="position"
          error={placeError ?? errors.position}
          hint="1 is first; leave empty to put it last."
        >
          {(a) => <input {...a} inputMode="numeric" defaultValue="" />}
        </Field>
        <div className="actions">
          <button type="submit" className="primary" disabled={move.busy}>
            Move category
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * Create and edit: name, slug, description, parent. A new parent on edit is a move to the end of the
 * new parent's children, in the same write (the API renumbers the siblings; a cycle changes nothing).
 */
function CategoryForm(props: {
  title: string;
  trigger: string;
  label?: string;
  category?: Category;
  parents: Parents;
  onSaved: () => void;
}) {
  const [open, setOpen] = useState(false);
  const create = useAction(CreateCategory);
  const update = useAction(UpdateCategory);
  const c = props.category;
  const error = c ? update.error : create.error;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const parentId = text('parentId') || null;
    const saved = c
      ? await update.run({
          id: c.id,
          input: {
            name: text('name'),
            slug: text('slug') || undefined,
            description: text('description') || null,
            parentId,
          },
        })
      : await create.run({
          input: {
            name: text('name'),
            slug: text('slug') || undefined,
            description: text('description') || undefined,
            parentId: parentId ?? undefined,
          },
        });
    if (saved) {
      setOpen(false);
      props.onSaved();
    }
  };
  const errors = error?.fields ?? {};
  return (
    <Dialog
      title={props.title}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        create.clear();
        update.clear();
      }}
      trigger={
        <button type="button" className={c ? undefined : 'primary'} aria-label={props.label}>
          {props.trigger}
        </button>
      }
    >
      <form onSubmit={submit} noValidate>
        <ErrorAlert error={error} />
        <Field label="Name" name="name" error={errors.name}>
          {(a) => <input {...a} defaultValue={c?.name ?? ''} />}
        </Field>
        <Field label="Slug" name="slug" error={errors.slug} hint="Made from the name when left empty.">
          {(a) => <input {...a} defaultValue={c?.slug ?? ''} />}
        </Field>
        <Field label="Parent" name="parentId" error={errors.parentId}>
          {(a) => (
            <ParentSelect attributes={a} parents={props.parents} self={c?.id} value={c?.parentId ?? null} />
          )}
        </Field>
        <Field label="Description" name="description" error={errors.description}>
          {(a) => <textarea {...a} defaultValue={c?.description ?? ''} rows={3} />}
        </Field>
        <div className="actions">
          <button type="submit" className="primary" disabled={create.busy || update.busy}>
            {c ? 'Save category' : 'Create category'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
