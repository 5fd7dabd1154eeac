import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers';

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
});
