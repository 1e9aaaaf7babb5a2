import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'hearth_session';

/** The value of one cookie from the Cookie header, or null. */
export function cookieValue(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** HttpOnly (no script reads it), Secure (HTTPS only), SameSite=Lax (not sent on cross-site posts). */
export function setSessionCookie(reply: FastifyReply, sessionId: string, maxAgeSeconds: number) {
  reply.header(
    'Set-Cookie',
    `${SESSION_COOKIE}=${sessionId}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`,
  );
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.header(
    'Set-Cookie',
    `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`,
  );
}
