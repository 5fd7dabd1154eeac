import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, linkFromMail, sessionCookie, STRONG_PASSWORD, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('sign-up and e-mail verification', () => {
  it('creates an unverified account, mails a link, and the link verifies it', async () => {
    const email = 'new.customer@example.com';
    const up = await call(t, { method: 'POST', url: '/api/auth/sign-up', body: { email: 'New.Customer@Example.com', password: STRONG_PASSWORD } });
    expect(up.statusCode).toBe(200);

    const early = await call(t, { method: 'POST', url: '/api/auth/sign-in', body: { email, password: STRONG_PASSWORD } });
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe('EMAIL_NOT_VERIFIED');

    const mail = t.mails().at(-1) ?? '';
    expect(mail).toContain(`To: ${email}`);
    const token = new URL(linkFromMail(mail)).searchParams.get('token');
    expect((await call(t, { method: 'POST', url: '/api/auth/verify-email', body: { token } })).statusCode).toBe(200);
    // A link works once.
    expect((await call(t, { method: 'POST', url: '/api/auth/verify-email', body: { token } })).statusCode).toBe(404);

    const res = await call(t, { method: 'POST', url: '/api/auth/sign-in', body: { email, password: STRONG_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json().session.twoFactor).toEqual({ required: true, enabled: false, verified: false });
    expect(sessionCookie(res)).toMatch(/^coffer_session=/);
  });

  it('refuses a weak password with the spec message and creates nothing', async () => {
    const res = await call(t, { method: 'POST', url: '/api/auth/sign-up', body: { email: 'weak@example.com', password: 'abcdef' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Password must contain at least one lowercase letter, one uppercase letter, and one number.');
    expect(await t.services.users.findByEmail('weak@example.com')).toBeNull();
  });
});
