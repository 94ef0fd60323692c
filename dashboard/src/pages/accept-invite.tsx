import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ErrorAlert, Field, Loading } from '../components/ui';
import { type ApiError, fromEnvelope } from '../errors';
import { authRequest, useSession } from '../session';

interface Invitation {
  storeName: string;
  email: string;
  name: string;
  role: 'OWNER' | 'ADMIN' | 'STAFF';
  expiresAt: string;
}

type Lookup =
  | { state: 'loading' }
  | { state: 'open'; invitation: Invitation }
  | { state: 'refused'; error: ApiError };

/**
 * The page an invitation e-mail links to (outside the signed-in app): greets the invitee with the
 * store and their e-mail, takes the new password twice, accepts (the API signs them in) and opens the
 * dashboard. An unknown, used or expired link says so and what to do.
 */
export function AcceptInvitePage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [lookup, setLookup] = useState<Lookup>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    void authRequest('GET', `/auth/invitation?token=${encodeURIComponent(token)}`)
      .then(({ res, json }) => {
        if (!live) return;
        if (res.ok) setLookup({ state: 'open', invitation: (json as { data: Invitation }).data });
        else setLookup({ state: 'refused', error: fromEnvelope(json, res.status) });
      })
      .catch(() => {
        if (live)
          setLookup({
            state: 'refused',
            error: {
              code: 'NETWORK_ERROR',
              message: 'The service could not be reached; try again',
              fields: {},
            },
          });
      });
    return () => {
      live = false;
    };
  }, [token]);
  return (
    <main className="sign-in accept-invite" id="main">
      {lookup.state === 'loading' ? <Loading what="your invitation" /> : null}
      {lookup.state === 'refused' ? <Refused error={lookup.error} /> : null}
      {lookup.state === 'open' ? <AcceptForm token={token} invitation={lookup.invitation} /> : null}
    </main>
  );
}

function Refused({ error }: { error: ApiError }) {
  if (error.code !== 'INVITATION_INVALID')
    return (
      <>
        <h1>Your invitation</h1>
        <ErrorAlert error={error} />
      </>
    );
  return (
    <>
      <h1>This invitation link does not work</h1>
      <p>
        It has expired (a link works for 72 hours), was already used, or a newer invitation replaced it. Ask
        the person who invited you to send the invitation again; the new e-mail has a fresh link.
      </p>
      <p>
        Already set your password? <Link href="/sign-in">Sign in</Link>.
      </p>
    </>
  );
}

function AcceptForm({ token, invitation }: { token: string; invitation: Invitation }) {
  const { reload } = useSession();
  const [, navigate] = useLocation();
  const [error, setError] = useState<ApiError | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    setMismatch(password !== String(form.get('repeatPassword') ?? ''));
    if (password !== String(form.get('repeatPassword') ?? '')) return;
    setBusy(true);
    const { res, json } = await authRequest('POST', '/auth/accept-invite', {
      token,
      password,
      name: String(form.get('name') ?? '').trim() || undefined,
    });
    setBusy(false);
    if (!res.ok) {
      setError(fromEnvelope(json, res.status));
      return;
    }
    await reload();
    navigate('/', { replace: true });
  };
  if (error?.code === 'INVITATION_INVALID') return <Refused error={error} />;
  return (
    <>
      <h1>Join {invitation.storeName}</h1>
      <p>
        You are invited as <strong>{invitation.role}</strong> with the e-mail{' '}
        <strong>{invitation.email}</strong>. Choose a password to finish; the link works until{' '}
        {new Date(invitation.expiresAt).toLocaleString()}.
      </p>
      <form onSubmit={submit} noValidate>
        <ErrorAlert error={error} />
        <Field label="Your name" name="name" error={error?.fields.name}>
          {(a) => <input {...a} defaultValue={invitation.name} autoComplete="name" />}
        </Field>
        <Field
          label="New password"
          name="password"
          error={error?.fields.password}
          hint="At least 8 characters"
        >
          {(a) => <input {...a} type="password" autoComplete="new-password" />}
        </Field>
        <Field
          label="Repeat password"
          name="repeatPassword"
          error={mismatch ? 'does not match the new password' : undefined}
        >
          {(a) => <input {...a} type="password" autoComplete="new-password" />}
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          Accept and sign in
        </button>
      </form>
    </>
  );
}
