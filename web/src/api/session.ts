import { apiFetch, setCsrfToken } from './http';

export type Role = 'Owner' | 'Admin' | 'Agent' | 'Lender';

export interface Session {
  user: { id: number; name: string; email: string; role: Role };
  account: { id: number; name: string };
  csrfToken: string;
}

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

/** A same-origin path to go to after sign-in; anything else (other hosts, //x) becomes `/`. */
export function safeNextPath(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  return raw;
}
