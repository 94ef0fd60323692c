import { type FormEvent, useState } from 'react';
import { ErrorAlert, Field } from '../components/ui';
import type { ApiError } from '../errors';
import { useSession } from '../session';

/** Sign-in with e-mail and password; a wrong one, or the throttle's answer, shows as an alert. */
export function SignInPage() {
  const { signIn } = useSession();
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(await signIn(String(form.get('email')), String(form.get('password'))));
    setBusy(false);
  };
  return (
    <main className="sign-in" id="main">
      <h1>Sign in to your store</h1>
      <form onSubmit={submit} noValidate>
        <ErrorAlert error={error} />
        <Field label="Email" name="email" error={error?.fields.email}>
          {(a) => <input {...a} type="email" autoComplete="username" required />}
        </Field>
        <Field label="Password" name="password" error={error?.fields.password}>
          {(a) => <input {...a} type="password" autoComplete="current-password" required />}
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
