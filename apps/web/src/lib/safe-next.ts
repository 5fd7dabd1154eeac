const DEFAULT_DESTINATION = '/dashboard';

/**
 * Where to go after signing in: the `next` page the gate sent them from, if it is a path
 * on this site; anything else (another origin, `//host`, a `javascript:` URL) is ignored.
 *
 * What comes back is itself checked, not only what went in: the URL parser normalises
 * `/.//evil.example` to the path `//evil.example`, and `/\evil.example` to `//evil.example`,
 * which the router or `location.assign` would then read as another host. A path that starts
 * with `//` or `/\` is never returned, however it was spelled.
 */
export function safeNextPath(next: string | null, origin = currentOrigin()): string {
  if (!next?.startsWith('/') || isHostRelative(next)) return DEFAULT_DESTINATION;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return DEFAULT_DESTINATION;
  }
  if (url.origin !== origin || url.pathname === '/auth') return DEFAULT_DESTINATION;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return isHostRelative(path) ? DEFAULT_DESTINATION : path;
}

/** `//host` or `/\host`: a path in name only, which a browser reads as another site. */
function isHostRelative(path: string): boolean {
  return /^\/[/\\]/.test(path);
}

function currentOrigin(): string {
  return typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
}
