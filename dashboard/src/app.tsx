import { Suspense, useMemo } from 'react';
import { Provider } from 'urql';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { createClient } from './client';
import { useFoldedMenu } from './components/folded-menu';
import { Loading } from './components/ui';
import { lazyPage } from './lazy-page';
import { SignInPage } from './pages/sign-in';
import { can, useSession } from './session';

// Every page but sign-in loads when first opened (lazy-page.ts): one line per page.
const AcceptInvitePage = lazyPage(() => import('./pages/accept-invite'), 'AcceptInvitePage');
const AccountPage = lazyPage(() => import('./pages/account'), 'AccountPage');
const AuditPage = lazyPage(() => import('./pages/audit'), 'AuditPage');
const CategoriesPage = lazyPage(() => import('./pages/categories'), 'CategoriesPage');
const CouponsPage = lazyPage(() => import('./pages/coupons'), 'CouponsPage');
const CustomerPage = lazyPage(() => import('./pages/customers'), 'CustomerPage');
const CustomersPage = lazyPage(() => import('./pages/customers'), 'CustomersPage');
const DeliveryPage = lazyPage(() => import('./pages/delivery'), 'DeliveryPage');
const EndpointPage = lazyPage(() => import('./pages/endpoint'), 'EndpointPage');
const KeysPage = lazyPage(() => import('./pages/keys'), 'KeysPage');
const OrderPage = lazyPage(() => import('./pages/orders'), 'OrderPage');
const OrdersPage = lazyPage(() => import('./pages/orders'), 'OrdersPage');
const OverviewPage = lazyPage(() => import('./pages/overview'), 'OverviewPage');
const ProductsPage = lazyPage(() => import('./pages/products'), 'ProductsPage');
const RequestsPage = lazyPage(() => import('./pages/requests'), 'RequestsPage');
const ReviewsPage = lazyPage(() => import('./pages/reviews'), 'ReviewsPage');
const SettingsPage = lazyPage(() => import('./pages/settings'), 'SettingsPage');
const StaffPage = lazyPage(() => import('./pages/staff'), 'StaffPage');
const WebhooksPage = lazyPage(() => import('./pages/webhooks'), 'WebhooksPage');

const sections = [
  ['/', 'Overview'],
  ['/products', 'Products'],
  ['/categories', 'Categories'],
  ['/orders', 'Orders'],
  ['/customers', 'Customers'],
  ['/coupons', 'Coupons'],
  ['/reviews', 'Reviews'],
  ['/keys', 'API keys'],
  ['/webhooks', 'Webhooks'],
  ['/staff', 'Staff'],
  ['/settings', 'Settings'],
  ['/audit', 'Audit log'],
  ['/requests', 'Requests'],
] as const;

/** Sections shown only to sessions holding the right to read them. */
const sectionRights: Partial<Record<(typeof sections)[number][0], string>> = {
  '/categories': 'CATEGORIES',
  '/coupons': 'COUPONS',
  '/reviews': 'REVIEWS',
  '/settings': 'STORE_SETTINGS',
  '/staff': 'STAFF',
};

/** The dashboard: sign-in until a session exists, then the store's sections (docs/design.md "The dashboard"). */
export function App() {
  const { session, signOut, expired } = useSession();
  const client = useMemo(() => createClient(expired), [expired]);
  const [location] = useLocation();
  const menu = useFoldedMenu('main');
  // An invitation link works whoever is signed in here: accepting signs its invitee in.
  if (location.startsWith('/accept-invite'))
    return (
      <Suspense fallback={<Loading what="the invitation" />}>
        <AcceptInvitePage />
      </Suspense>
    );
  if (session === undefined) return <Loading what="your session" />;
  if (session === null)
    return (
      <Switch>
        <Route path="/sign-in" component={SignInPage} />
        <Route>
          <Redirect to="/sign-in" />
        </Route>
      </Switch>
    );
  return (
    <Provider value={client}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <button {...menu.button}>Menu</button>
        <span className="store">
          {session.store.name} <span className="plan">{session.store.plan}</span>
        </span>
        <span className="who">
          <span>
            <Link href="/account">{session.staff.name}</Link> ({session.staff.role})
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <div className="layout">
        <nav aria-label="Sections" {...menu.nav}>
          <ul>
            {sections.map(([href, label]) => {
              const right = sectionRights[href];
              if (right && !can(session, right, 'READ')) return null;
              const current = href === '/' ? location === '/' : location.startsWith(href);
              return (
                <li key={href}>
                  <Link href={href} aria-current={current ? 'page' : undefined}>
                    {label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Suspense fallback={<Loading what="the page" />}>
            <Switch>
              <Route path="/" component={OverviewPage} />
              <Route path="/products" component={ProductsPage} />
              <Route path="/orders" component={OrdersPage} />
              <Route path="/orders/:id">{(params) => <OrderPage id={params.id} />}</Route>
              <Route path="/customers" component={CustomersPage} />
              <Route path="/customers/:id">{(params) => <CustomerPage id={params.id} />}</Route>
              <Route path="/coupons" component={CouponsPage} />
              <Route path="/keys" component={KeysPage} />
              <Route path="/webhooks" component={WebhooksPage} />
              <Route path="/webhooks/:id">{(params) => <EndpointPage id={params.id} />}</Route>
              <Route path="/webhooks/:id/deliveries/:deliveryId">
                {(params) => <DeliveryPage endpointId={params.id} id={params.deliveryId} />}
              </Route>
              <Route path="/categories" component={CategoriesPage} />
              <Route path="/reviews" component={ReviewsPage} />
              <Route path="/settings" component={SettingsPage} />
              <Route path="/staff" component={StaffPage} />
              <Route path="/account" component={AccountPage} />
              <Route path="/audit" component={AuditPage} />
              <Route path="/requests" component={RequestsPage} />
              <Route path="/sign-in">
                <Redirect to="/" />
              </Route>
              <Route>
                <h1>Not found</h1>
                <p>There is no page here.</p>
              </Route>
            </Switch>
          </Suspense>
        </main>
      </div>
    </Provider>
  );
}
