import {
  call,
  createTestApp,
  errorOf,
  STRONG_PASSWORD,
  type TestApp,
  withoutChange,
} from '@server-test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOwnOrigin } from './csrf';

describe('isOwnOrigin: the scheme counts as much as the host', () => {
  const HTTPS = 'https://coffer.example';
  const HTTP = 'http://localhost:3000';

  it('takes PUBLIC_URL’s own origin', () => {
    expect(isOwnOrigin(HTTPS, 'coffer.example', HTTPS, 'http')).toBe(true);
    expect(isOwnOrigin(HTTP, 'localhost:3000', HTTP, 'http')).toBe(true);
  });

  it('refuses an http:// Origin for an https PUBLIC_URL, whatever the host', () => {
    expect(isOwnOrigin('http://coffer.example', 'coffer.example', HTTPS, 'http')).toBe(false);
    expect(isOwnOrigin('http://coffer.example', 'coffer.example', HTTPS, 'https')).toBe(false);
    expect(isOwnOrigin('http://coffer.example', 'coffer.example', HTTPS)).toBe(false);
  });

  it('takes the host the request was made to only with the request’s own scheme', () => {
    // Reached as 127.0.0.1:3000 while PUBLIC_URL names localhost: the same app.
    expect(isOwnOrigin('http://127.0.0.1:3000', '127.0.0.1:3000', HTTP, 'http')).toBe(true);
    // An https page of that host is another origin for a plain-http request...
    expect(isOwnOrigin('https://127.0.0.1:3000', '127.0.0.1:3000', HTTP, 'http')).toBe(false);
    // ...and a plain-http page is another origin for a request that came over https.
    expect(isOwnOrigin('http://app.example', 'app.example', HTTP, 'https')).toBe(false);
    expect(isOwnOrigin('https://app.example', 'app.example', HTTP, 'https')).toBe(true);
    // With an https PUBLIC_URL another name of the same app still needs https.
    expect(isOwnOrigin('https://www.coffer.example', 'www.coffer.example', HTTPS, 'http')).toBe(
      true,
    );
  });

  it('refuses what is no bare origin of this host', () => {
    for (const origin of [
      undefined,
      'null',
      '',
      'https://evil.example',
      'https://coffer.example.evil.example',
      'http://localhost:3000.evil.example',
      'https://user@coffer.example',
      'https://coffer.example/path',
      'ftp://coffer.example',
      'javascript:alert(1)',
    ]) {
      expect(isOwnOrigin(origin, 'coffer.example', HTTPS, 'https'), String(origin)).toBe(false);
    }
    expect(isOwnOrigin('https://coffer.example', undefined, 'https://other.example')).toBe(false);
  });
});

describe('the CSRF guard of an https installation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://coffer.example' });
  });
  afterAll(async () => {
    await t.close();
  });

  const signUpFrom = (origin: string) =>
    call(t, {
      method: 'POST',
      url: '/api/auth/sign-up',
      origin,
      headers: { host: 'coffer.example' },
      body: { email: 'scheme@example.com', password: STRONG_PASSWORD },
    });

  it('refuses a state-changing request from the http:// page of the same host, changing nothing', async () => {
    const res = await withoutChange(t, () => signUpFrom('http://coffer.example'));
    expect([res.statusCode, errorOf(res)]).toEqual([
      403,
      {
        error: 'FOREIGN_ORIGIN',
        message: 'This request came from another site and was refused.',
      },
    ]);
  });

  it('accepts it from the https:// page', async () => {
    const res = await signUpFrom('https://coffer.example');
    expect(res.statusCode, res.body).toBe(200);
  });
});
