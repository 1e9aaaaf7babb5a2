/**
 * Where to go after sign-in (`/login?next=`, also the OAuth sign-in step): a path on this origin,
 * anything else `/`. The value is resolved as the browser would resolve it, since the URL parser
 * drops tabs and line breaks and reads `\` as `/`: `/\t/evil.example` means `//evil.example`.
 */
export function safeNextPath(raw: string | null, origin: string): string {
  if (!raw || !raw.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin) return '/';
  // `/.//evil.example` resolves to the path `//evil.example`, which alone would leave the origin.
  return `${url.pathname.replace(/^\/+/, '/')}${url.search}${url.hash}`;
}
