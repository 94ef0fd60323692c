import { type FormEvent, useState } from 'react';
import { useAction } from '../components/mutation';
import { ConfirmButton, ErrorAlert, Field } from '../components/ui';
import { graphql } from '../graphql';
import { useSession } from '../session';

const ChangePassword = graphql(`
  mutation ChangePassword($input: ChangePasswordInput!) { changePassword(input: $input) { signedOutSessions } }
`);
const SignOutOthers = graphql(`mutation SignOutOtherSessions { signOutOtherSessions { signedOutSessions } }`);

const otherSessions = (n: number) => (n === 1 ? '1 other session' : `${n} other sessions`);

/** The signed-in member's own account: who they are, their password, their other sessions. */
export function AccountPage() {
  const { session } = useSession();
  if (!session) return null;
  return (
    <>
      <h1>Account</h1>
      <dl className="facts account-facts">
        <dt>Name</dt>
        <dd>{session.staff.name}</dd>
        <dt>E-mail</dt>
        <dd>{session.staff.email}</dd>
        <dt>Role</dt>
        <dd>{session.staff.role}</dd>
        <dt>Store</dt>
        <dd>{session.store.name}</dd>
      </dl>
      <PasswordForm />
      <OtherSessions />
    </>
  );
}

function PasswordForm() {
  const change = useAction(ChangePassword);
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState<number | null>(null);
  const errors = change.error?.fields ?? {};
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    const form = new FormData(target);
    setDone(null);
    const newPassword = String(form.get('newPassword') ?? '');
    if (newPassword !== String(form.get('repeatPassword') ?? '')) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    const result = await change.run({
      input: { currentPassword: String(form.get('currentPassword') ?? ''), newPassword },
    });
    if (result) {
      target.reset();
      setDone(result.changePassword.signedOutSessions);
    }
  };
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <form onSubmit={submit} noValidate className="narrow">
        <ErrorAlert error={change.error} />
        <Field label="Current password" name="currentPassword" error={errors.currentPassword}>
          {(a) => <input {...a} type="password" autoComplete="current-password" />}
        </Field>
        <Field
          label="New password"
          name="newPassword"
          error={errors.newPassword}
          hint="At least 8 characters"
        >
          {(a) => <input {...a} type="password" autoComplete="new-password" />}
        </Field>
        <Field
          label="Repeat new password"
          name="repeatPassword"
          error={mismatch ? 'does not match the new password' : undefined}
        >
          {(a) => <input {...a} type="password" autoComplete="new-password" />}
        </Field>
        <button type="submit" className="primary" disabled={change.busy}>
          Change password
        </button>
        {done !== null ? (
          <p role="status">Password changed; {otherSessions(done)} signed out. This one stays signed in.</p>
        ) : null}
      </form>
    </section>
  );
}

function OtherSessions() {
  const signOut = useAction(SignOutOthers);
  const [done, setDone] = useState<number | null>(null);
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Other sessions</h2>
      <p>
        Signed in on another browser or device, or left signed in somewhere? End every session but this one.
      </p>
      <ConfirmButton
        label="Sign out other sessions"
        title="Sign out every other session?"
        body="Every other browser and device signed in as you is signed out now; this one stays signed in."
        confirm="Sign out others"
        onConfirm={async () => {
          const result = await signOut.run({});
          if (result) setDone(result.signOutOtherSessions.signedOutSessions);
          return result !== null;
        }}
      >
        <ErrorAlert error={signOut.error} />
      </ConfirmButton>
      {done !== null ? <p role="status">{otherSessions(done)} signed out.</p> : null}
    </section>
  );
}
