import type { AuthProvider } from 'react-admin';
import { currentSession, forgetSession, loadSession, signIn, signOut } from './session';

/** react-admin's view of the server session (contract: /work/coord/auth-contract.md). */
export const authProvider: AuthProvider = {
  async login({ email, password }: { email: string; password: string }) {
    await signIn(email, password);
  },
  async logout() {
    await signOut();
    return '/login';
  },
  async checkAuth() {
    const session = await loadSession();
    if (!session) throw { redirectTo: '/login', message: false };
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      forgetSession();
      throw { redirectTo: '/login', message: false };
    }
  },
  async getIdentity() {
    const session = currentSession() ?? (await loadSession());
    if (!session) throw new Error('Not signed in');
    return { id: session.user.id, fullName: session.user.name, email: session.user.email };
  },
  async getPermissions() {
    const session = currentSession() ?? (await loadSession());
    return session?.user.role ?? null;
  },
};
