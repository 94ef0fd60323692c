import { useQuery } from 'urql';
import { Link } from 'wouter';
import { FilterSelect, SearchForm, usePagedFilters } from '../components/filters';
import { ListView, NotYours } from '../components/list';
import { useAction } from '../components/mutation';
import { ConfirmButton, ErrorAlert, Money, Status, When } from '../components/ui';
import { graphql } from '../graphql';
import { browserLocale } from '../money';
import { can, type Session, useSession } from '../session';
import { type Coupon, CouponFields, CouponForm } from './coupon-form';

const CouponsQuery = graphql(
  `
  query Coupons($page: Int, $q: String, $isActive: Boolean) {
    coupons(page: $page, limit: 25, q: $q, isActive: $isActive) {
      items { ...CouponRow }
      pagination { totalResults currentPage lastPage }
    }
  }
`,
  [CouponFields],
);

const SetCouponActive = graphql(`
  mutation SetCouponActive($id: ID!, $isActive: Boolean!) {
    updateCoupon(id: $id, input: { isActive: $isActive }) { id isActive }
  }
`);
const DeleteCoupon = graphql(`mutation DeleteCoupon($id: ID!) { deleteCoupon(id: $id) { id deleted } }`);

const activities = [
  ['active', 'Active'],
  ['inactive', 'Inactive'],
] as const;
type Activity = (typeof activities)[number][0] | '';

/** Coupons: search by code, active or not, a page at a time; create, edit, (de)activate, delete; redemptions. */
export function CouponsPage() {
  const { session } = useSession();
  const allowed = session ? can(session, 'COUPONS', 'READ') : false;
  const { page, setPage, filters, change } = usePagedFilters({ q: '', activity: '' as Activity });
  const { q, activity } = filters;
  const [result, refetch] = useQuery({
    query: CouponsQuery,
    variables: { page, q: q || null, isActive: activity === '' ? null : activity === 'active' },
    pause: !allowed,
  });
  if (!session) return null;
  if (!allowed)
    return (
      <NotYours title="Coupons">
        <p>Your role ({session.staff.role}) does not include coupons; ask an owner or admin.</p>
      </NotYours>
    );
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const currency = session.store.currency;
  return (
    <>
      <h1>Coupons</h1>
      <SearchForm label="Find coupons" placeholder="Code" value={q} onSearch={(text) => change({ q: text })}>
        <FilterSelect
          label="Status"
          value={activity}
          options={activities}
          any
          onChange={(value) => change({ activity: value })}
        />
        {can(session, 'COUPONS', 'WRITE') ? (
          <CouponForm title="New coupon" trigger="New coupon" currency={currency} onSaved={reload} />
        ) : null}
      </SearchForm>
      <ListView
        what="Coupons"
        page={result.data?.coupons}
        fetching={result.fetching}
        error={result.error}
        empty="No coupons match."
        onPage={setPage}
      >
        {(items) => (
          <table>
            <caption className="sr-only">Coupons</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Discount</th>
                <th scope="col">Minimum subtotal</th>
                <th scope="col">Redemptions</th>
                <th scope="col">Valid</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {items.map((coupon) => (
                <CouponRow
                  key={coupon.id}
                  coupon={coupon}
                  currency={currency}
                  session={session}
                  onChanged={reload}
                />
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

/** `10%` (`10 %` in de-DE) or the fixed amount in the store's currency. */
const Discount = ({ coupon, currency }: { coupon: Coupon; currency: string }) =>
  coupon.type === 'percent' ? (
    new Intl.NumberFormat(browserLocale(), { style: 'percent' }).format(coupon.value / 100)
  ) : (
    <Money amount={coupon.value} currency={currency} />
  );

function CouponRow(props: { coupon: Coupon; currency: string; session: Session; onChanged: () => void }) {
  const { coupon, currency, session } = props;
  const toggle = useAction(SetCouponActive);
  const remove = useAction(DeleteCoupon);
  const uses = coupon.redemptionCount;
  return (
    <tr>
      <th scope="row">
        <code>{coupon.code}</code>
      </th>
      <td>
        <Discount coupon={coupon} currency={currency} />
      </td>
      <td>
        {coupon.minSubtotalAmount != null ? (
          <Money amount={coupon.minSubtotalAmount} currency={currency} />
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>
        {can(session, 'ORDERS', 'READ') ? (
          <Link href={`/orders?coupon=${coupon.id}`}>
            {uses} {uses === 1 ? 'order' : 'orders'}
          </Link>
        ) : (
          `${uses} ${uses === 1 ? 'order' : 'orders'}`
        )}
        {coupon.maxRedemptions != null ? ` of ${coupon.maxRedemptions}` : ''}
      </td>
      <td>
        {coupon.startsAt || coupon.endsAt ? (
          <>
            {coupon.startsAt ? (
              <>
                from <When at={coupon.startsAt} />{' '}
              </>
            ) : null}
            {coupon.endsAt ? (
              <>
                until <When at={coupon.endsAt} />
              </>
            ) : null}
          </>
        ) : (
          'Always'
        )}
      </td>
      <td>
        <Status value={coupon.isActive ? 'active' : 'inactive'} />
      </td>
      <td className="actions">
        {can(session, 'COUPONS', 'UPDATE') ? (
          <>
            <CouponForm
              title={`Edit ${coupon.code}`}
              trigger="Edit"
              label={`Edit ${coupon.code}`}
              coupon={coupon}
              currency={currency}
              onSaved={props.onChanged}
            />
            <button
              type="button"
              aria-label={`${coupon.isActive ? 'Deactivate' : 'Activate'} ${coupon.code}`}
              disabled={toggle.busy}
              onClick={async () => {
                if (await toggle.run({ id: coupon.id, isActive: !coupon.isActive })) props.onChanged();
              }}
            >
              {coupon.isActive ? 'Deactivate' : 'Activate'}
            </button>
          </>
        ) : null}
        {can(session, 'COUPONS', 'DELETE') ? (
          <ConfirmButton
            label="Delete"
            name={`Delete ${coupon.code}`}
            danger
            title={`Delete ${coupon.code}?`}
            body="Orders that used it keep their discount; the code stops working at checkout."
            confirm="Delete coupon"
            onConfirm={async () => {
              const done = await remove.run({ id: coupon.id });
              if (done) props.onChanged();
              return done !== null;
            }}
          >
            <ErrorAlert error={remove.error} />
          </ConfirmButton>
        ) : null}
        <ErrorAlert error={toggle.error} />
      </td>
    </tr>
  );
}
