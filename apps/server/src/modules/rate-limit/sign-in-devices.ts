import { randomBytes } from 'node:crypto';
import type { Secrets } from '@server/lib/crypto';
import { safeEqual } from '@server/lib/crypto';

/**
 * Device cookies (decision 0026, OWASP's "slow brute force protection using device
 * cookies"): a browser that signed in to an account with the right password gets a token
 * for that account, and its later sign-ins to it are counted on the token's own counter
 * (LIMITS.signIn), not on the account's. Strangers' wrong passwords then lock out strangers
 * only: the owner's known browser is never refused for them, and a stolen token is limited
 * by its own small counter.
 *
 * A token is `<id>.<mac>`: a random id (its counter's key) and an HMAC under the server's
 * secret key over the account's e-mail and that id, so a token cannot be made up, and one
 * made for another account is no token for this one. Nothing is stored: checking a token
 * needs no database, so it is checked before any other work (the hashing pool's lane).
 */
export const DEVICE_COOKIE = 'coffer_device';

/** Sent to the sign-in route only; as long as browsers keep a cookie (at most 400 days). */
export const DEVICE_COOKIE_PATH = '/api/auth';
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

/** Accounts one browser is remembered for (a shared computer), the newest first. */
const MAX_ACCOUNTS = 5;
const TOKEN = /^[A-Za-z0-9_-]{22}\.[0-9a-f]{32}$/;

export function createSignInDevices(secrets: Pick<Secrets, 'keyedHash'>) {
  const macOf = (email: string, id: string) =>
    secrets.keyedHash('sign-in-device', `${email}\0${id}`).slice(0, 32);

  /** The cookie's well-formed tokens; anything else in it is ignored. */
  const tokensOf = (cookie: string | undefined): string[] =>
    (cookie ?? '')
      .split('~')
      .filter((t) => TOKEN.test(t))
      .slice(0, MAX_ACCOUNTS);

  /** The id of the cookie's token for this account, or null (none, forged, another's). */
  function recognise(cookie: string | undefined, email: string): string | null {
    for (const token of tokensOf(cookie)) {
      const [id = '', mac = ''] = token.split('.');
      if (safeEqual(mac, macOf(email, id))) return id;
    }
    return null;
  }

  return {
    recognise,

    /**
     * The cookie after a right sign-in to `email`: its token for the account kept (the
     * same counter), or a new one, first; the other accounts' tokens after it.
     */
    remember(cookie: string | undefined, email: string): string {
      const id = recognise(cookie, email) ?? randomBytes(16).toString('base64url');
      const own = `${id}.${macOf(email, id)}`;
      return [own, ...tokensOf(cookie).filter((t) => t !== own)].slice(0, MAX_ACCOUNTS).join('~');
    },
  };
}

export type SignInDevices = ReturnType<typeof createSignInDevices>;
