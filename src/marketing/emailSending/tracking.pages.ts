import { escapeHtml } from '../../platform/http/html.js';

/**
 * The CSP of a campaign shown in the browser: its own styles and https images, nothing active.
 * `sandbox` gives the page an opaque origin and blocks what runs by itself, <meta> refresh included;
 * links the reader clicks still open, in a new tab too (target=_blank), as ordinary pages.
 */
export const VIEW_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'; " +
  'sandbox allow-popups allow-popups-to-escape-sandbox';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;' +
  'color:#222;line-height:1.5}h1{font-size:1.4rem}button{font-size:1rem;padding:.6rem 1.2rem;' +
  'border:0;border-radius:.3rem;background:#b3261e;color:#fff;cursor:pointer}' +
  '.muted{color:#666;font-size:.9rem}';

/** A plain server-rendered page (no script). */
export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`
  );
}

export function unsubscribePage(email: string, sender: string, action: string): string {
  return page(
    'Unsubscribe',
    `<p>Stop marketing emails from <strong>${escapeHtml(sender)}</strong> to ` +
      `<strong>${escapeHtml(email)}</strong>?</p>` +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<input type="hidden" name="List-Unsubscribe" value="One-Click">` +
      `<button type="submit">Unsubscribe</button></form>` +
      `<p class="muted">You can close this page if you want to keep getting them.</p>`,
  );
}

export function unsubscribedPage(email: string, sender: string): string {
  return page(
    'You are unsubscribed',
    `<p><strong>${escapeHtml(email)}</strong> will get no more marketing emails from ` +
      `<strong>${escapeHtml(sender)}</strong>.</p>`,
  );
}

export const notFoundPage = () =>
  page('Link not found', '<p>This link is not valid, or the email it came from was removed.</p>');

/**
 * A message's <meta> tags do nothing on a page of its own but harm: http-equiv=refresh would take
 * the reader from Hearth's origin to any site. Removed until none is left (`<<meta>meta …>`).
 */
export function withoutMetaTags(html: string): string {
  let previous: string;
  do {
    previous = html;
    html = html.replace(/<meta\b[^>]*>?/gi, '');
  } while (html !== previous);
  return html;
}

/** The merged message on its own page ("view in browser"). */
export function viewPage(subject: string, html: string): string {
  const body = withoutMetaTags(/<body[^>]*>([\s\S]*)<\/body\s*>/i.exec(html)?.[1] ?? html);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(subject)}</title></head>` +
    `<body style="max-width:40rem;margin:1.5rem auto;padding:0 1rem;font-family:system-ui,sans-serif">` +
    `${body}</body></html>`
  );
}

/** The open pixel: a transparent 1×1 GIF. */
export const PIXEL = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  'base64',
);
