import type { OAuthClient } from './clients.js';
import { type AuthorizeParams, FORWARDED_PARAMS, plain } from './authorize.request.js';

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

// Inline styles only: the page CSP allows them ('unsafe-inline' styles) and forbids inline scripts.
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1c1f24}
main{max-width:28rem;margin:8vh auto;padding:2rem;background:#fff;border-radius:12px;
box-shadow:0 1px 4px rgba(0,0,0,.12)}h1{font-size:1.4rem;margin:0 0 1rem}
.who{background:#f4f5f7;border-radius:8px;padding:.75rem 1rem;margin:1rem 0}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}button{flex:1;font:inherit;padding:.7rem 1rem;
border-radius:8px;border:1px solid #1d4ed8;cursor:pointer}.allow{background:#1d4ed8;color:#fff}
.deny{background:#fff;color:#1d4ed8}button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
small{color:#4b5563}`;

export function htmlDocument(title: string, body: string, head = ''): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">${head}` +
    `<title>${escapeHtml(title)} · Hearth</title><style>${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

/** The page shown when no redirect is possible or allowed. */
export function errorPage(title: string, description: string, error: string): string {
  return htmlDocument(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(description)}</p><p><code>${escapeHtml(error)}</code></p>`,
  );
}

/** Allow / Deny, posted back with the request's parameters and the session's CSRF token. */
export function consentPage(input: {
  client: OAuthClient;
  user: { name: string; email: string };
  accountName: string;
  params: AuthorizeParams;
  csrfToken: string;
}): string {
  const { client, user, accountName, params, csrfToken } = input;
  const hidden = FORWARDED_PARAMS.map((name) => [name, plain(params, name)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value!)}">`)
    .join('');
  const clientName = escapeHtml(client.name);
  return htmlDocument(
    `Authorize ${client.name}`,
    `<h1>Allow ${clientName} to use your Hearth account?</h1>` +
      `<p><strong>${clientName}</strong> asks to work in Hearth as you, with your access.</p>` +
      `<div class="who"><div>Signed in as <strong>${escapeHtml(user.name)}</strong> ` +
      `(${escapeHtml(user.email)})</div><div>Account: <strong>${escapeHtml(accountName)}</strong></div></div>` +
      `<form method="post" action="/oauth/authorize">${hidden}` +
      `<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">` +
      `<div class="actions"><button class="allow" type="submit" name="decision" value="allow">Allow</button>` +
      `<button class="deny" type="submit" name="decision" value="deny">Deny</button></div></form>` +
      `<p><small>It gets access tokens, never your password.</small></p>`,
  );
}

/**
 * After Allow/Deny the browser goes back to the client by a meta refresh, not a 302: the page CSP
 * `form-action 'self'` also governs where a form submission may be redirected, and the client is
 * on another origin.
 */
export function returnPage(clientName: string, target: string): string {
  const url = escapeHtml(target);
  return htmlDocument(
    `Returning to ${clientName}`,
    `<h1>Returning to ${escapeHtml(clientName)}…</h1><p><a href="${url}">Continue to ${escapeHtml(clientName)}</a></p>`,
    `<meta http-equiv="refresh" content="0;url=${url}">`,
  );
}
