import { useState } from 'react';
import { useQuery } from 'urql';
import { Link, useSearch } from 'wouter';
import { usePagedFilters } from '../components/filters';
import { ListView } from '../components/list';
import { useAction } from '../components/mutation';
import { ConfirmButton, ErrorAlert, Field, Loading, Money, Status, When } from '../components/ui';
import { fromCombined } from '../errors';
import { graphql, type ResultOf } from '../graphql';
import { can, useSession } from '../session';

export const OrderRow = graphql(`
  fragment OrderRow on Order {
    id number status email currency totalAmount createdAt
    customer { id email firstName lastName }
  }
`);

const OrdersQuery = graphql(
  `
  query Orders($page: Int, $q: String, $status: OrderStatus, $from: DateTime, $to: DateTime, $couponId: ID) {
    orders(page: $page, limit: 25, q: $q, status: $status, from: $from, to: $to, couponId: $couponId) {
      items { ...OrderRow }
      pagination { totalResults currentPage lastPage }
    }
  }
`,
  [OrderRow],
);

const CouponCodeQuery = graphql(`query CouponCode($id: ID!) { coupon(id: $id) { id code } }`);

const OrderFields = graphql(`
  fragment OrderDetail on Order {
    id number status email currency subtotalAmount discountAmount totalAmount couponCode note
    allowedTransitions
    customer { id email firstName lastName }
    items { id productId name sku unitAmount quantity totalAmount }
    createdAt paidAt fulfilledAt cancelledAt cancelReason
  }
`);

const OrderQuery = graphql(
  `
  query Order($id: ID!) { order(id: $id) { ...OrderDetail } }
`,
  [OrderFields],
);

const PayOrder = graphql(
  `mutation PayOrder($id: ID!) { payOrder(id: $id) { id status allowedTransitions paidAt } }`,
);
const FulfillOrder = graphql(
  `mutation FulfillOrder($id: ID!) { fulfillOrder(id: $id) { id status allowedTransitions fulfilledAt } }`,
);
const CancelOrder = graphql(`
  mutation CancelOrder($id: ID!, $reason: String) {
    cancelOrder(id: $id, reason: $reason) { id status allowedTransitions cancelledAt cancelReason }
  }
`);

const statuses = ['pending', 'paid', 'fulfilled', 'cancelled'] as const;
type OrderStatus = (typeof statuses)[number];

/** The start of a day in the browser's time zone, as the API's DateTime; `next` the day after. */
const dayStart = (date: string, next = false) => {
  if (!date) return null;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + (next ? 1 : 0)).toISOString();
};

export const customerName = (c: { email: string; firstName: string | null; lastName: string | null }) =>
  [c.firstName, c.lastName].filter(Boolean).join(' ') || c.email;

/**
 * Orders: status filter and a date range (both days included), a page at a time; `?coupon=<id>` (the
 * coupons page's redemptions link) shows the orders that used one coupon.
 */
export function OrdersPage() {
  const { page, setPage, filters, change } = usePagedFilters({
    q: '',
    status: '' as OrderStatus | '',
    from: '',
    to: '',
  });
  const couponId = new URLSearchParams(useSearch()).get('coupon');
  const [result] = useQuery({
    query: OrdersQuery,
    variables: {
      page,
      q: filters.q || null,
      status: filters.status || null,
      from: dayStart(filters.from),
      to: dayStart(filters.to, true),
      couponId,
    },
  });
  return (
    <>
      <h1>Orders</h1>
      {couponId ? <CouponFilter id={couponId} /> : null}
      <form
        className="filters"
        aria-label="Find orders"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          const text = (name: string) => String(form.get(name) ?? '');
          change({
            q: text('q'),
            status: text('status') as OrderStatus | '',
            from: text('from'),
            to: text('to'),
          });
        }}
      >
        <label>
          Search <input name="q" type="search" defaultValue={filters.q} placeholder="#1001 or e-mail" />
        </label>
        <label>
          Status{' '}
          <select name="status" defaultValue={filters.status}>
            <option value="">Any</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          From <input name="from" type="date" defaultValue={filters.from} />
        </label>
        <label>
          To <input name="to" type="date" defaultValue={filters.to} />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <ListView
        what="Orders"
        page={result.data?.orders}
        fetching={result.fetching}
        error={result.error}
        empty="No orders match."
        onPage={setPage}
      >
        {(items) => <OrdersTable orders={items} caption="Orders" />}
      </ListView>
    </>
  );
}

/** "Orders with coupon CODE", and the way back to every order. */
function CouponFilter({ id }: { id: string }) {
  const { session } = useSession();
  const readable = session ? can(session, 'COUPONS', 'READ') : false;
  const [result] = useQuery({ query: CouponCodeQuery, variables: { id }, pause: !readable });
  const code = result.data?.coupon?.code;
  const named = code ?? (!readable ? 'chosen' : result.fetching ? '…' : 'no longer in the store');
  return (
    <p className="notice" role="note">
      Orders with coupon <strong>{named}</strong> <Link href="/orders">Show all orders</Link>
    </p>
  );
}

export function OrdersTable(props: { orders: readonly ResultOf<typeof OrderRow>[]; caption: string }) {
  return (
    <table>
      <caption className="sr-only">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Status</th>
          <th scope="col">Customer</th>
          <th scope="col">Total</th>
          <th scope="col">Placed</th>
        </tr>
      </thead>
      <tbody>
        {props.orders.map((order) => (
          <tr key={order.id}>
            <th scope="row">
              <Link href={`/orders/${order.id}`}>#{order.number}</Link>
            </th>
            <td>
              <Status value={order.status} />
            </td>
            <td>{order.customer ? customerName(order.customer) : order.email}</td>
            <td>
              <Money amount={order.totalAmount} currency={order.currency} />
            </td>
            <td>
              <When at={order.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One order: lines, totals, customer, history, and buttons for the moves its status allows. */
export function OrderPage({ id }: { id: string }) {
  const { session } = useSession();
  const [result] = useQuery({ query: OrderQuery, variables: { id } });
  const order = result.data?.order;
  if (!order) {
    return (
      <>
        <h1>Order</h1>
        {result.fetching ? <Loading what="the order" /> : null}
        <ErrorAlert error={result.error ? fromCombined(result.error) : null} />
      </>
    );
  }
  const history = [
    ['Placed', order.createdAt],
    ['Paid', order.paidAt],
    ['Fulfilled', order.fulfilledAt],
    ['Cancelled', order.cancelledAt],
  ] as const;
  return (
    <>
      <h1>Order #{order.number}</h1>
      <p>
        <Status value={order.status} />
      </p>
      {session && can(session, 'ORDERS', 'UPDATE') ? <Transitions order={order} /> : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways on a phone takes focus, so the keyboard can scroll it */}
      <section aria-labelledby="lines" tabIndex={0}>
        <h2 id="lines">Lines</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">SKU</th>
              <th scope="col">Unit price</th>
              <th scope="col">Quantity</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.id}>
                <th scope="row">{item.name}</th>
                <td>{item.sku ?? '—'}</td>
                <td>
                  <Money amount={item.unitAmount} currency={order.currency} />
                </td>
                <td>{item.quantity}</td>
                <td>
                  <Money amount={item.totalAmount} currency={order.currency} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="totals">
          <dt>Subtotal</dt>
          <dd>
            <Money amount={order.subtotalAmount} currency={order.currency} />
          </dd>
          <dt>Discount{order.couponCode ? ` (${order.couponCode})` : ''}</dt>
          <dd>
            <Money amount={-order.discountAmount} currency={order.currency} />
          </dd>
          <dt>Total</dt>
          <dd>
            <strong>
              <Money amount={order.totalAmount} currency={order.currency} />
            </strong>
          </dd>
        </dl>
      </section>
      <section aria-labelledby="customer">
        <h2 id="customer">Customer</h2>
        {order.customer ? (
          <p>
            <Link href={`/customers/${order.customer.id}`}>{customerName(order.customer)}</Link> ·{' '}
            {order.customer.email}
          </p>
        ) : (
          <p>{order.email} (no customer record)</p>
        )}
        {order.note ? <p>Note: {order.note}</p> : null}
      </section>
      <section aria-labelledby="history">
        <h2 id="history">History</h2>
        <ol className="history">
          {history
            .filter(([, at]) => at)
            .map(([what, at]) => (
              <li key={what}>
                {what} <When at={at} />
                {what === 'Cancelled' && order.cancelReason ? ` — ${order.cancelReason}` : ''}
              </li>
            ))}
        </ol>
      </section>
    </>
  );
}

type OrderDetail = ResultOf<typeof OrderFields>;

/** The buttons for `allowedTransitions`, the API's answer for this status: only those, never others. */
function Transitions({ order }: { order: OrderDetail }) {
  const pay = useAction(PayOrder);
  const fulfill = useAction(FulfillOrder);
  const cancel = useAction(CancelOrder);
  const [reason, setReason] = useState('');
  const error = pay.error ?? fulfill.error ?? cancel.error;
  if (order.allowedTransitions.length === 0) return null;
  return (
    <section aria-label="Order actions" className="toolbar">
      {order.allowedTransitions.includes('pay') ? (
        <button
          type="button"
          className="primary"
          disabled={pay.busy}
          onClick={() => pay.run({ id: order.id })}
        >
          Mark paid
        </button>
      ) : null}
      {order.allowedTransitions.includes('fulfill') ? (
        <button
          type="button"
          className="primary"
          disabled={fulfill.busy}
          onClick={() => fulfill.run({ id: order.id })}
        >
          Mark fulfilled
        </button>
      ) : null}
      {order.allowedTransitions.includes('cancel') ? (
        <ConfirmButton
          label="Cancel order"
          danger
          title={`Cancel order #${order.number}?`}
          body="Its stock goes back to the products and its coupon use is released. Nothing is refunded."
          confirm="Cancel order"
          onConfirm={async () => (await cancel.run({ id: order.id, reason: reason || null })) !== null}
        >
          <Field label="Reason (optional)" name="reason" error={cancel.error?.fields.reason}>
            {(a) => <input {...a} value={reason} onChange={(e) => setReason(e.target.value)} />}
          </Field>
        </ConfirmButton>
      ) : null}
      <ErrorAlert error={error} />
    </section>
  );
}
