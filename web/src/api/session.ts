import { apiFetch, setCsrfToken } from './http';
import type { Session as ApiSession } from './types';

export type Role = 'Owner' | 'Admin' | 'Agent' | 'Lender';

export type Session = ApiSession;

let current: Session | null = null;
let pending: Promise<Session | null> | null = null;

function remember(session: Session | null): Session | null {
  current = session;
  setCsrfToken(session?.csrfToken ?? null);
  return session;
}

/** The signed-in session (asked of the server once per page load), or null when signed out. */
export function loadSession(): Promise<Session | null> {
  if (current) return Promise.resolve(current);
  pending ??= apiFetch('/auth/session')
    .then((r) => remember(r.json as Session))
    .catch((error: { status?: number }) => {
      if (error.status === 401) return remember(null);
      throw error;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

export function currentSession(): Session | null {
  return current;
}

export async function signIn(email: string, password: string): Promise<Session> {
  const { json } = await apiFetch('/auth/login', { method: 'POST', body: { email, password } });
  return remember(json as Session) as Session;
}

export async function choosePassword(token: string, password: string): Promise<Session> {
  const { json } = await apiFetch('/auth/password', { method: 'POST', body: { token, password } });
  return remember(json as Session) as Session;
}

export async function signOut(): Promise<void> {
  try {
    if (current) await apiFetch('/auth/logout', { method: 'POST' });
  } finally {
    remember(null);
  }
}

/** Forgets the session without asking the server (it already answered 401). */
export function forgetSession(): void {
  remember(null);
}
