import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  STRONG_PASSWORD,
  sessionWorks,
  signUpAndSignIn,
  type TestApp,
  withoutChange,
} from './helpers';

let t: TestApp;
let user: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUpAndSignIn(t);
});
afterAll(async () => {
  await t.close();
});

const signUpFrom = (origin: string | null) =>
  call(t, {
    method: 'POST',
    url: '/api/auth/sign-up',
    origin,
    body: { email: 'csrf-victim@example.com', password: STRONG_PASSWORD },
  });

const FOREIGN = {
  error: 'FOREIGN_ORIGIN',
  message: 'This request came from another site and was refused.',
};

describe('cross-site requests', () => {
  it.each([
    ['another site', 'https://evil.example'],
    ['a look-alike of this one', 'http://localhost:3000.evil.example'],
    ['an opaque origin', 'null'],
    ['no Origin at all', null],
  ])('refuses a state-changing request from %s, and changes nothing', async (_from, origin) => {
    const res = await withoutChange(t, () => signUpFrom(origin));
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toEqual(FOREIGN);
  });

  it('refuses to sign a user out from another site: the session lives on', async () => {
    const res = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/auth/sign-out',
        cookie: user.cookie,
        origin: 'https://evil.example',
      }),
    );
    expect(errorOf(res)).toEqual(FOREIGN);
    expect(await sessionWorks(t, user.cookie)).toBe(true);
  });

  it('accepts the same request from the app itself (Origin equal to PUBLIC_URL)', async () => {
    expect(t.origin).toBe('http://localhost:3000');
    expect((await signUpFrom(t.origin)).statusCode).toBe(200);
    expect(await t.services.users.findByEmail('csrf-victim@example.com')).not.toBeNull();
  });

  it('lets reads through without an Origin: a browser sends none on a plain GET', async () => {
    const res = await call(t, { url: '/api/session', cookie: user.cookie, origin: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().session.user.id).toBe(user.userId);
  });
});
