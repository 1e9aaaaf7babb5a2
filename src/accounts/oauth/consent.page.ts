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
small{color:#4b5563}
@media (max-width:600px){main{margin:0;min-height:100vh;box-sizing:border-box;border-radius:0;
box-shadow:none;padding:1.25rem 1.25rem 0;display:flex;flex-direction:column}
main>form{flex:1;display:flex;flex-direction:column}main>form>*{margin:0 0 1rem}
h1{font-size:1.25rem}
.actions{position:sticky;bottom:0;margin:auto -1.25rem 0;padding:.75rem 1.25rem;background:#fff;
box-shadow:0 -1px 4px rgba(0,0,0,.12)}}`;

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

/** What an AI assistant connected through MCP may do: the tools, within the user's role. */
function assistantScope(client: Pick<OAuthClient, 'dynamic'>, role: string, redirectUri: string) {
  const host = escapeHtml(new URL(redirectUri).host || redirectUri);
  const unverified = client.dynamic
    ? `<p><small>This assistant registered itself: Hearth has not verified its name. ` +
      `After your answer you return to <strong>${host}</strong>.</small></p>`
    : '';
  return (
    `<p>As an AI assistant it may, with your access as ${escapeHtml(role)}:</p><ul>` +
    `<li>find and read the people you can see, with their notes, calls, tasks and deals, ` +
    `and run the reports you can see</li>` +
    `<li>create and update people, add notes, log calls, create and complete tasks, ` +
    `send leads and move deals</li></ul>` +
    `<p><small>Every action it takes is recorded with its name, and your account’s owner can ` +
    `disconnect it.</small></p>${unverified}`
  );
}

/** Allow / Deny, posted back with the request's parameters and the session's CSRF token. */
export function consentPage(input: {
  client: Pick<OAuthClient, 'name' | 'dynamic'>;
  user: { name: string; email: string; role: string };
  accountName: string;
  params: AuthorizeParams;
  csrfToken: string;
  /** An AI assistant (a token for /mcp, or a self-registered client): say what it may do. */
  assistant: { redirectUri: string } | null;
}): string {
  const { client, user, accountName, params, csrfToken, assistant } = input;
  const hidden = FORWARDED_PARAMS.map((name) => [name, plain(params, name)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value!)}">`)
    .join('');
  const clientName = escapeHtml(client.name);
  // The form holds the whole text so that on a phone its Allow / Deny bar stays on screen
  // (sticky) while the user reads: a decision below the fold is one a user can miss.
  return htmlDocument(
    `Authorize ${client.name}`,
    `<form method="post" action="/oauth/authorize">${hidden}` +
      `<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">` +
      `<h1>Allow ${clientName} to use your Hearth account?</h1>` +
      `<p><strong>${clientName}</strong> asks to work in Hearth as you, with your access.</p>` +
      (assistant ? assistantScope(client, user.role, assistant.redirectUri) : '') +
      `<div class="who"><div>Signed in as <strong>${escapeHtml(user.name)}</strong> ` +
      `(${escapeHtml(user.email)})</div><div>Account: <strong>${escapeHtml(accountName)}</strong></div></div>` +
      `<p><small>It gets access tokens, never your password.</small></p>` +
      `<div class="actions"><button class="allow" type="submit" name="decision" value="allow">Allow</button>` +
      `<button class="deny" type="submit" name="decision" value="deny">Deny</button></div></form>`,
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
