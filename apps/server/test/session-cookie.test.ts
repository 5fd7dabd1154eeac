import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  type SignedInUser,
  sessionWorks,
  signIn,
  signUpAndSignIn,
  type TestApp,
  tableText,
} from './helpers';

/** The attributes of the session cookie as the browser receives them, lower-cased names. */
function cookieAttributes(res: LightMyRequestResponse): {
  token: string;
  attributes: Map<string, string>;
} {
  const header = [res.headers['set-cookie'] ?? []]
    .flat()
    .find((c) => c.startsWith('coffer_session='));
  if (!header) throw new Error(`no session cookie: ${res.statusCode} ${res.body}`);
  const [pair = '', ...rest] = header.split(';').map((part) => part.trim());
  const attributes = new Map(
    rest.map((part) => {
      const [name = '', value = ''] = part.split('=');
      return [name.toLowerCase(), value];
    }),
  );
  return { token: pair.slice('coffer_session='.length), attributes };
}

async function signedInResponse(
  t: TestApp,
): Promise<{ user: SignedInUser; res: LightMyRequestResponse }> {
  const user = await signUpAndSignIn(t);
  const res = await signIn(t, user.email, user.password);
  expect(res.statusCode).toBe(200);
  return { user, res };
}

describe('the session cookie over http', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is HttpOnly, SameSite=Lax, for the whole site, and not Secure', async () => {
    const { res } = await signedInResponse(t);
    const { token, attributes } = cookieAttributes(res);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(attributes.has('httponly')).toBe(true);
    expect(attributes.get('samesite')).toBe('Lax');
    expect(attributes.get('path')).toBe('/');
    // Over plain http a Secure cookie would never come back: local installs must still work.
    expect(attributes.has('secure')).toBe(false);
  });

  it('is stored only as a hash: the token appears nowhere in the sessions table', async () => {
    const { user, res } = await signedInResponse(t);
    const { token } = cookieAttributes(res);
    const sessions = await tableText(t, 'sessions');
    expect(sessions).not.toContain(token);
    expect(sessions).toContain(createHash('sha256').update(token).digest('hex'));
    expect(sessions).toContain(user.userId);
  });

  it('opens nothing once the session has expired', async () => {
    const user = await signUpAndSignIn(t);
    expect(await sessionWorks(t, user.cookie)).toBe(true);
    await t.services.pool.query(
      "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.userId],
    );
    expect(await sessionWorks(t, user.cookie)).toBe(false);
  });
});

describe('the session cookie behind https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://coffer.example' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is Secure as well', async () => {
    expect(t.origin).toBe('https://coffer.example');
    const { res } = await signedInResponse(t);
    const { attributes } = cookieAttributes(res);
    expect(attributes.has('secure')).toBe(true);
    expect(attributes.has('httponly')).toBe(true);
    expect(attributes.get('samesite')).toBe('Lax');
  });
});
