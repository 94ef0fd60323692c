import { type FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { FilterSelect, SearchForm, usePagedFilters } from '../components/filters';
import { ListView } from '../components/list';
import { MoneyField, useMoneyInput } from '../components/money-field';
import { useAction } from '../components/mutation';
import { ConfirmButton, Dialog, ErrorAlert, Field, Money, Status } from '../components/ui';
import { graphql, type ResultOf } from '../graphql';
import { can, useSession } from '../session';

const ProductFields = graphql(`
  fragment ProductRow on Product {
    id name sku slug description priceAmount compareAtAmount currency stock status categoryId
    category { id name }
    updatedAt
  }
`);

const ProductsQuery = graphql(
  `
  query Products($page: Int, $q: String, $status: ProductStatus, $sortBy: ProductSortField, $sortDirection: SortDirection) {
    products(page: $page, limit: 25, q: $q, status: $status, sortBy: $sortBy, sortDirection: $sortDirection) {
      items { ...ProductRow }
      pagination { totalResults currentPage lastPage }
    }
    categories(limit: 100, sortBy: name, sortDirection: asc) { items { id name } }
  }
`,
  [ProductFields],
);

const CreateProduct = graphql(
  `
  mutation CreateProduct($input: CreateProductInput!) { createProduct(input: $input) { ...ProductRow } }
`,
  [ProductFields],
);
const UpdateProduct = graphql(
  `
  mutation UpdateProduct($id: ID!, $input: UpdateProductInput!) { updateProduct(id: $id, input: $input) { ...ProductRow } }
`,
  [ProductFields],
);
const DeleteProduct = graphql(`
  mutation DeleteProduct($id: ID!) { deleteProduct(id: $id) { id deleted } }
`);

type Product = ResultOf<typeof ProductFields>;
type Categories = ResultOf<typeof ProductsQuery>['categories']['items'];
const statuses = ['active', 'draft', 'archived'] as const;
type ProductStatus = (typeof statuses)[number];
const sortFields = ['createdAt', 'name', 'priceAmount', 'stock'] as const;
type SortField = (typeof sortFields)[number];

/** Products: search, status filter, sort, server-side pages; create, edit and delete. */
export function ProductsPage() {
  const { session } = useSession();
  const { page, setPage, filters, change } = usePagedFilters({ q: '', status: '' as ProductStatus | '' });
  const [sort, setSort] = useState<`${SortField} ${'asc' | 'desc'}`>('createdAt desc');
  const [sortBy, sortDirection] = sort.split(' ') as [SortField, 'asc' | 'desc'];
  const [result, refetch] = useQuery({
    query: ProductsQuery,
    variables: { page, q: filters.q || null, status: filters.status || null, sortBy, sortDirection },
  });
  const remove = useAction(DeleteProduct);
  if (!session) return null;
  const categories = result.data?.categories.items ?? [];
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <>
      <h1>Products</h1>
      <SearchForm
        label="Find products"
        placeholder="Name or SKU"
        value={filters.q}
        onSearch={(q) => change({ q })}
      >
        <FilterSelect
          label="Status"
          value={filters.status}
          options={statuses}
          any
          onChange={(status) => change({ status })}
        />
        <label>
          Sort{' '}
          <select value={sort} onChange={(e) => setSort(e.target.value as typeof sort)}>
            <option value="createdAt desc">Newest first</option>
            <option value="createdAt asc">Oldest first</option>
            <option value="name asc">Name A–Z</option>
            <option value="priceAmount asc">Price, low to high</option>
            <option value="priceAmount desc">Price, high to low</option>
            <option value="stock asc">Stock, low to high</option>
          </select>
        </label>
        {can(session, 'PRODUCTS', 'WRITE') ? (
          <ProductForm
            title="New product"
            trigger="New product"
            currency={session.store.currency}
            categories={categories}
            onSaved={reload}
          />
        ) : null}
      </SearchForm>
      <ErrorAlert error={remove.error} />
      <ListView
        what="Products"
        page={result.data?.products}
        fetching={result.fetching}
        error={result.error}
        empty="No products match."
        onPage={setPage}
      >
        {(items) => (
          <table>
            <caption className="sr-only">Products</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">SKU</th>
                <th scope="col">Price</th>
                <th scope="col">Stock</th>
                <th scope="col">Status</th>
                <th scope="col">Category</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {items.map((product) => (
                <tr key={product.id}>
                  <th scope="row">{product.name}</th>
                  <td>{product.sku ?? '—'}</td>
                  <td>
                    <Money amount={product.priceAmount} currency={product.currency} />
                  </td>
                  <td>{product.stock}</td>
                  <td>
                    <Status value={product.status} />
                  </td>
                  <td>{product.category?.name ?? '—'}</td>
                  <td className="actions">
                    {can(session, 'PRODUCTS', 'UPDATE') ? (
                      <ProductForm
                        title={`Edit ${product.name}`}
                        trigger="Edit"
                        label={`Edit ${product.name}`}
                        product={product}
                        currency={product.currency}
                        categories={categories}
                        onSaved={reload}
                      />
                    ) : null}
                    {can(session, 'PRODUCTS', 'DELETE') ? (
                      <ConfirmButton
                        label="Delete"
                        name={`Delete ${product.name}`}
                        danger
                        title={`Delete ${product.name}?`}
                        body="Orders keep their copy of its name, SKU and price."
                        confirm="Delete product"
                        onConfirm={async () => {
                          if (await remove.run({ id: product.id })) reload();
                        }}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

/** The create and edit form: the server validates, and its messages show beside their fields. */
function ProductForm(props: {
  title: string;
  trigger: string;
  /** The button's accessible name when its text alone is ambiguous ("Edit" on every row). */
  label?: string;
  product?: Product;
  /** The store's currency, in which prices are typed. */
  currency: string;
  categories: Categories;
  onSaved: () => void;
}) {
  const [open, setOpen] = useState(false);
  const create = useAction(CreateProduct);
  const update = useAction(UpdateProduct);
  const action = props.product ? update : create;
  const p = props.product;
  const price = useMoneyInput(props.currency, p?.priceAmount, { required: true });
  const compareAt = useMoneyInput(props.currency, p?.compareAtAmount);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const int = (name: string) => (text(name) === '' ? null : Number(text(name)));
    // Never send a wrong number: an amount that does not parse stays in the form with its message.
    const [priceAmount, compareAtAmount] = [price.read(), compareAt.read()];
    if (priceAmount === undefined || compareAtAmount === undefined) return;
    const input = {
      name: text('name'),
      sku: text('sku') || null,
      description: text('description') || null,
      priceAmount: priceAmount as number,
      compareAtAmount,
      stock: int('stock') ?? 0,
      status: text('status') as ProductStatus,
      categoryId: text('categoryId') || null,
    };
    const saved = p
      ? await update.run({ id: p.id, input })
      : await create.run({
          input: {
            ...input,
            sku: input.sku ?? undefined,
            description: input.description ?? undefined,
            compareAtAmount: input.compareAtAmount ?? undefined,
            categoryId: input.categoryId ?? undefined,
          },
        });
    if (saved) {
      setOpen(false);
      props.onSaved();
    }
  };
  const errors = action.error?.fields ?? {};
  return (
    <Dialog
      title={props.title}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        action.clear();
        price.reset(p?.priceAmount);
        compareAt.reset(p?.compareAtAmount);
      }}
      trigger={
        <button type="button" aria-label={props.label}>
          {props.trigger}
        </button>
      }
    >
      <form onSubmit={submit} noValidate>
        <ErrorAlert error={action.error} />
        <Field label="Name" name="name" error={errors.name}>
          {(a) => <input {...a} defaultValue={p?.name ?? ''} />}
        </Field>
        <Field label="SKU" name="sku" error={errors.sku}>
          {(a) => <input {...a} defaultValue={p?.sku ?? ''} />}
        </Field>
        <MoneyField label="Price" name="priceAmount" money={price} error={errors.priceAmount} />
        <MoneyField
          label="Compare-at price"
          name="compareAtAmount"
          money={compareAt}
          error={errors.compareAtAmount}
        />
        <Field label="Stock" name="stock" error={errors.stock}>
          {(a) => <input {...a} inputMode="numeric" defaultValue={p?.stock ?? 0} />}
        </Field>
        <Field label="Status" name="status" error={errors.status}>
          {(a) => (
            <select {...a} defaultValue={p?.status ?? 'active'}>
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Category" name="categoryId" error={errors.categoryId}>
          {(a) => (
            <select {...a} defaultValue={p?.categoryId ?? ''}>
              <option value="">None</option>
              {props.categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Description" name="description" error={errors.description}>
          {(a) => <textarea {...a} defaultValue={p?.description ?? ''} rows={3} />}
        </Field>
        <div className="actions">
          <button type="submit" className="primary" disabled={action.busy}>
            {p ? 'Save product' : 'Create product'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
