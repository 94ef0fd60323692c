import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { type ApiError, fromEnvelope } from './errors';

export interface Session {
  staff: { id: string; email: string; name: string; role: 'OWNER' | 'ADMIN' | 'STAFF' };
  store: {
    id: string;
    name: string;
    plan: 'FREE' | 'STARTER' | 'PRO' | 'SCALE';
    currency: string;
    timezone: string;
    apiAccess: boolean;
    canAccessWebhooks: boolean;
  };
  expiresAt: string;
  /** The role's rights, from the API (the one table is the server's). */
  rights: Array<{ resource: string; actions: string[] }>;
}

interface SessionState {
  /** undefined while asking the service, null when nobody is signed in. */
  session: Session | null | undefined;
  signIn(email: string, password: string): Promise<ApiError | null>;
  signOut(): Promise<void>;
  /** Reads the session again: after the store's settings changed (the header shows its name), or a sign-in that did not go through signIn (an accepted invitation). */
  reload(): Promise<void>;
  /** The service said the session is over (expired, signed out elsewhere): back to sign-in. */
  expired(): void;
}

const SessionContext = createContext<SessionState | null>(null);

/** A request to `/api/v1/auth/*` (the dashboard's only REST calls): the response and its JSON. */
export async function authRequest(method: string, path: string, body?: unknown) {
  const res = await fetch(`/api/v1${path}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = res.status === 204 ? null : await res.json().catch(() => null);
  return { res, json };
}

/** The signed-in staff member, from `GET /auth/session`; sign-in and sign-out through `/auth/*`. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);

  const load = useCallback(async () => {
    const { res, json } = await authRequest('GET', '/auth/session').catch(() => ({ res: null, json: null }));
    setSession(res?.ok ? (json as { data: Session }).data : null);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const { res, json } = await authRequest('POST', '/auth/login', { email, password });
      if (!res.ok) return fromEnvelope(json, res.status);
      await load();
      return null;
    },
    [load],
  );
  const signOut = useCallback(async () => {
    await authRequest('POST', '/auth/logout').catch(() => {});
    setSession(null);
  }, []);
  const expired = useCallback(() => setSession(null), []);
  const value = useMemo(
    () => ({ session, signIn, signOut, expired, reload: load }),
    [session, signIn, signOut, expired, load],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** Whether the session holds a right, as the API says (`GET /auth/session`'s `rights`). */
export const can = (session: Session, resource: string, action: 'READ' | 'WRITE' | 'UPDATE' | 'DELETE') =>
  session.rights.some((right) => right.resource === resource && right.actions.includes(action));

/** Whether the store's plan includes API keys, as the API says. */
export const apiAccessOf = (session: Session) => session.store.apiAccess;
