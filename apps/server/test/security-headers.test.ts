import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, verifiedCustomer } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The Content-Security-Policy of a response, directive name to its sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  if (typeof header !== 'string') throw new Error('no Content-Security-Policy header');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

describe('security headers', () => {
  it.each([
    ['a page', '/dashboard'],
    ['an API answer', '/api/session'],
    ['a refusal', '/api/2fa/status'],
  ])('come with %s', async (_what, url) => {
    const res = await call(t, { url });
    const policy = csp(res);
    // No inline or injected script can run: scripts only from this origin.
    const scripts = policy.get('script-src') ?? policy.get('default-src');
    expect(scripts).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    // An injected <base> cannot move relative URLs to another site.
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never allow inline scripts or eval anywhere in the policy', async () => {
    const res = await call(t, { url: '/api/session' });
    for (const [name, sources] of csp(res)) {
      if (name === 'style-src') continue;
      expect(sources, name).not.toContain("'unsafe-inline'");
      expect(sources, name).not.toContain("'unsafe-eval'");
    }
  });

  it('forbid keeping a copy of any API answer: secrets, refusals and unknown routes alike', async () => {
    const user = await verifiedCustomer(t);
    await call(t, {
      method: 'POST',
      url: '/api/recovery-phrase/unlock',
      cookie: user.cookie,
      body: { password: user.password },
    });
    const answers = [
      await call(t, { url: '/api/session', cookie: user.cookie }),
      await call(t, { url: '/api/recovery-phrase', cookie: user.cookie }),
      await call(t, { url: '/api/bank-details', cookie: user.cookie }),
      await call(t, { method: 'POST', url: '/api/2fa/setup', cookie: user.cookie }),
      await call(t, { url: '/api/bank-details' }),
      await call(t, { method: 'POST', url: '/api/auth/sign-in', body: { email: 'x' } }),
      await call(t, { url: '/api/no-such-route' }),
      await call(t, { url: '/api/%zz' }),
    ];
    // What each answer was, so the list above covers a success, a refusal and a 404.
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 409, 401, 400, 404, 400]);
    expect(answers[1]?.json().phrase.split(' ')).toHaveLength(12);
    for (const res of answers) {
      expect(res.headers['cache-control'], res.raw.req.url).toBe('no-store');
      // The other security headers come with every one of them too.
      expect(csp(res).get('frame-ancestors'), res.raw.req.url).toEqual(["'none'"]);
    }
  });
});
