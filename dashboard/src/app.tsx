import { useMemo } from 'react';
import { Provider } from 'urql';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { createClient } from './client';
import { Loading } from './components/ui';
import { AuditPage } from './pages/audit';
import { CouponsPage } from './pages/coupons';
import { CustomerPage, CustomersPage } from './pages/customers';
import { DeliveryPage } from './pages/delivery';
import { EndpointPage } from './pages/endpoint';
import { KeysPage } from './pages/keys';
import { OrderPage, OrdersPage } from './pages/orders';
import { OverviewPage } from './pages/overview';
import { ProductsPage } from './pages/products';
import { SignInPage } from './pages/sign-in';
import { WebhooksPage } from './pages/webhooks';
import { useSession } from './session';

const sections = [
  ['/', 'Overview'],
  ['/products', 'Products'],
  ['/orders', 'Orders'],
  ['/customers', 'Customers'],
  ['/coupons', 'Coupons'],
  ['/keys', 'API keys'],
  ['/webhooks', 'Webhooks'],
  ['/audit', 'Audit log'],
] as const;

/** The dashboard: sign-in until a session exists, then the store's sections (docs/design.md "The dashboard"). */
export function App() {
  const { session, signOut, expired } = useSession();
  const client = useMemo(() => createClient(expired), [expired]);
  const [location] = useLocation();
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
        <span className="store">
          {session.store.name} <span className="plan">{session.store.plan}</span>
        </span>
        <span className="who">
          {session.staff.name} ({session.staff.role})
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <div className="layout">
        <nav aria-label="Sections">
          <ul>
            {sections.map(([href, label]) => {
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
        <main id="main">
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
            <Route path="/audit" component={AuditPage} />
            <Route path="/sign-in">
              <Redirect to="/" />
            </Route>
            <Route>
              <h1>Not found</h1>
              <p>There is no page here.</p>
            </Route>
          </Switch>
        </main>
      </div>
    </Provider>
  );
}
