const DEFAULT_DESTINATION = '/dashboard';

/**
 * Where to go after signing in: the `next` page the gate sent them from, if it is a path
 * on this site; anything else (another origin, `//host`, a `javascript:` URL) is ignored.
 */
export function safeNextPath(next: string | null): string {
  if (!next?.startsWith('/')) return DEFAULT_DESTINATION;
  let url: URL;
  try {
    url = new URL(next, window.location.origin);
  } catch {
    return DEFAULT_DESTINATION;
  }
  if (url.origin !== window.location.origin || url.pathname === '/auth') return DEFAULT_DESTINATION;
  return `${url.pathname}${url.search}${url.hash}`;
}
