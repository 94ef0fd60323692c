import { useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { SearchForm, usePagedFilters } from '../components/filters';
import { ListView } from '../components/list';
import { ErrorAlert, Loading, Money, When } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql } from '../graphql';
import { useSession } from '../session';
import { customerName, OrderRow, OrdersTable } from './orders';

const CustomersQuery = graphql(`
  query Customers($page: Int, $q: String) {
    customers(page: $page, limit: 25, q: $q, sortBy: createdAt, sortDirection: desc) {
      items { id email firstName lastName orderCount totalSpentAmount createdAt }
      pagination { totalResults currentPage lastPage }
    }
  }
`);

const CustomerQuery = graphql(
  `
  query Customer($id: ID!, $page: Int) {
    customer(id: $id) { id email firstName lastName phone acceptsMarketing orderCount totalSpentAmount createdAt }
    orders(customerId: $id, page: $page, limit: 25) {
      items { ...OrderRow }
      pagination { totalResults currentPage lastPage }
    }
  }
`,
  [OrderRow],
);

/** Customers with search (every word must match e-mail, first or last name), a page at a time. */
export function CustomersPage() {
  const { page, setPage, filters, change } = usePagedFilters({ q: '' });
  const [result] = useQuery({ query: CustomersQuery, variables: { page, q: filters.q || null } });
  const currency = useSession().session?.store.currency ?? 'USD';
  return (
    <>
      <h1>Customers</h1>
      <SearchForm
        label="Find customers"
        placeholder="Name or e-mail"
        value={filters.q}
        onSearch={(q) => change({ q })}
      />
      <ListView
        what="Customers"
        page={result.data?.customers}
        fetching={result.fetching}
        error={result.error}
        empty="No customers match."
        onPage={setPage}
      >
        {(items) => (
          <table>
            <caption className="sr-only">Customers</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Orders</th>
                <th scope="col">Spent</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {items.map((customer) => (
                <tr key={customer.id}>
                  <th scope="row">
                    <Link href={`/customers/${customer.id}`}>{customerName(customer)}</Link>
                  </th>
                  <td>{customer.email}</td>
                  <td>{customer.orderCount}</td>
                  <td>
                    <Money amount={customer.totalSpentAmount} currency={currency} />
                  </td>
                  <td>
                    <When at={customer.createdAt} />
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

/** A customer: contact, totals, and their orders a page at a time. */
export function CustomerPage({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const [result] = useQuery({ query: CustomerQuery, variables: { id, page } });
  const currency = useSession().session?.store.currency ?? 'USD';
  const customer = result.data?.customer;
  if (!customer) {
    return (
      <>
        <h1>Customer</h1>
        {result.fetching ? <Loading what="the customer" /> : null}
        <ErrorAlert error={result.error ? fromCombined(result.error) : null} />
      </>
    );
  }
  return (
    <>
      <h1>{customerName(customer)}</h1>
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>{customer.email}</dd>
        <dt>Phone</dt>
        <dd>{customer.phone ?? '—'}</dd>
        <dt>Accepts marketing</dt>
        <dd>{customer.acceptsMarketing ? 'Yes' : 'No'}</dd>
        <dt>Orders</dt>
        <dd>{customer.orderCount}</dd>
        <dt>Spent (orders not cancelled)</dt>
        <dd>
          <Money amount={customer.totalSpentAmount} currency={currency} />
        </dd>
        <dt>Customer since</dt>
        <dd>
          <When at={customer.createdAt} />
        </dd>
      </dl>
      <section aria-labelledby="customer-orders">
        <h2 id="customer-orders">Orders</h2>
        <ListView
          what="Orders"
          page={result.data?.orders}
          fetching={result.fetching}
          error={undefined}
          empty="No orders yet."
          onPage={setPage}
        >
          {(items) => <OrdersTable orders={items} caption={`Orders of ${customerName(customer)}`} />}
        </ListView>
      </section>
    </>
  );
}
