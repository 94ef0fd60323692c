import { useMemo } from 'react';
import { Provider } from 'urql';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { createClient } from './client';
import { Loading } from './components/ui';
import { AcceptInvitePage } from './pages/accept-invite';
import { AccountPage } from './pages/account';
import { AuditPage } from './pages/audit';
import { CustomerPage, CustomersPage } from './pages/customers';
import { DeliveryPage } from './pages/delivery';
import { EndpointPage } from './pages/endpoint';
import { KeysPage } from './pages/keys';
import { OrderPage, OrdersPage } from './pages/orders';
import { OverviewPage } from './pages/overview';
import { ProductsPage } from './pages/products';
import { SignInPage } from './pages/sign-in';
import { StaffPage } from './pages/staff';
import { WebhooksPage } from './pages/webhooks';
import { can, useSession } from './session';

const sections = [
  ['/', 'Overview'],
  ['/products', 'Products'],
  ['/orders', 'Orders'],
  ['/customers', 'Customers'],
  ['/keys', 'API keys'],
  ['/webhooks', 'Webhooks'],
  ['/staff', 'Staff'],
  ['/audit', 'Audit log'],
] as const;

/** Sections shown only to a session holding the resource's READ right (the page still explains why). */
const sectionResource: Record<string, string> = { '/staff': 'STAFF' };

/** The dashboard: sign-in until a session exists, then the store's sections (docs/design.md "The dashboard"). */
export function App() {
  const { session, signOut, expired } = useSession();
  const client = useMemo(() => createClient(expired), [expired]);
  const [location] = useLocation();
  // An invitation link works whoever is signed in here: accepting signs its invitee in.
  if (location.startsWith('/accept-invite')) return <AcceptInvitePage />;
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
          <span>
            <Link href="/account">{session.staff.name}</Link> ({session.staff.role})
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <div className="layout">
        <nav aria-label="Sections">
          <ul>
            {sections.map(([href, label]) => {
              const resource = sectionResource[href];
              if (resource && !can(session, resource, 'READ')) return null;
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
            <Route path="/keys" component={KeysPage} />
            <Route path="/webhooks" component={WebhooksPage} />
            <Route path="/webhooks/:id">{(params) => <EndpointPage id={params.id} />}</Route>
            <Route path="/webhooks/:id/deliveries/:deliveryId">
              {(params) => <DeliveryPage endpointId={params.id} id={params.deliveryId} />}
            </Route>
            <Route path="/staff" component={StaffPage} />
            <Route path="/account" component={AccountPage} />
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
