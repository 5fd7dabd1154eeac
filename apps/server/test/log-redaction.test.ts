import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/infra';
import { redactUrl } from '../src/lib/log-redaction';
import {
  call,
  completeTwoFactor,
  createTestApp,
  type SignedInUser,
  sessionCookie,
  signIn,
  signUp,
  type TestApp,
  verificationToken,
} from './helpers';

/** Every line the app logs, parsed, whatever its level. */
const lines: { raw: string; msg?: string; req?: { url?: string } }[] = [];
const destination = {
  write(line: string) {
    lines.push({ raw: line, ...JSON.parse(line) });
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, createLogger('trace', destination));
});
afterAll(async () => {
  await t.close();
});

const secret = () => randomBytes(12).toString('hex');

describe('log lines', () => {
  it('never show a token, code, phrase, cookie or password, from a query or a body', async () => {
    const email = 'logged@example.com';
    const password = `Violet-Anchor-${secret()}`;
    expect((await signUp(t, email, password)).statusCode).toBe(200);
    const token = verificationToken(t, email);

    // The link as the browser opens it, then as the page posts it; both work once only.
    await call(t, { url: `/verify-email?token=${token}` });
    await call(t, { url: `/verify-email/?utm=mail&token=${token}` });
    await call(t, { url: `/api/auth/verify-email?token=${token}` });
    expect(
      (await call(t, { method: 'POST', url: '/api/auth/verify-email', body: { token } }))
        .statusCode,
    ).toBe(200);

    const wrongPassword = `Wrong-${secret()}`;
    expect((await signIn(t, email, wrongPassword)).statusCode).toBe(401);
    const res = await signIn(t, email, password);
    expect(res.statusCode).toBe(200);
    const cookie = sessionCookie(res);
    const user: SignedInUser = {
      email,
      password,
      cookie,
      userId: res.json().session.user.id,
      totpSecret: null,
      backupCodes: [],
      seedPhrase: null,
    };
    const verified = await completeTwoFactor(t, user);

    const inQuery = {
      queryToken: secret(),
      queryCode: secret(),
      queryPassword: secret(),
      queryPhrase: secret(),
    };
    await call(t, {
      url: `/api/session?token=${inQuery.queryToken}&Code=${inQuery.queryCode}&newPassword=${inQuery.queryPassword}&recoveryPhrase=${inQuery.queryPhrase}&page=2`,
      cookie: verified.cookie,
    });
    const phrase = verified.seedPhrase ?? '';
    const newPassword = `Copper-Lantern-${secret()}`;
    expect(
      (
        await call(t, {
          method: 'POST',
          url: '/api/auth/reset-password',
          body: { recoveryPhrase: phrase, newPassword },
        })
      ).statusCode,
    ).toBe(200);

    const secrets = {
      password,
      wrongPassword,
      newPassword,
      cookie: cookie.split('=')[1] ?? '',
      verifiedCookie: verified.cookie.split('=')[1] ?? '',
      totpSecret: verified.totpSecret ?? '',
      backupCode: verified.backupCodes[0] ?? '',
      phrase,
      ...inQuery,
    };
    for (const [what, value] of Object.entries(secrets)) {
      expect(value.length, what).toBeGreaterThan(5);
      expect(
        lines.filter((l) => l.raw.includes(value)).map((l) => l.raw),
        what,
      ).toEqual([]);
    }
    // No line carries the mailed link either; without SMTP the line names the file written.
    expect(lines.filter((l) => l.raw.includes(token)).map((l) => l.msg)).toEqual([]);
    const written = lines.filter((l) => l.msg === 'mail written to outbox');
    expect(written.length).toBeGreaterThan(0);
    for (const line of written) {
      const { file } = JSON.parse(line.raw) as { file?: string };
      expect(file).toMatch(/outbox[/\\][^/\\]+\.eml$/);
      expect(line.raw).not.toMatch(/https?:\/\//);
    }

    // The requests were logged, just without their secrets.
    const urls = lines.map((l) => l.req?.url).filter((u) => u !== undefined);
    expect(urls).toContain('/verify-email?[redacted]');
    expect(urls).toContain('/verify-email/?[redacted]');
    expect(urls).toContain(
      '/api/session?token=[redacted]&Code=[redacted]&newPassword=[redacted]&recoveryPhrase=[redacted]&page=2',
    );
    expect(urls).toContain('/api/auth/sign-in');
  });
});

describe('database errors', () => {
  it('are logged without the values the query was given', async () => {
    const email = `dup-${secret()}@example.com`;
    const from = lines.length;
    // A failed query through the app's own logger, as a job or a request logs one.
    const err = await t.services.db
      .execute(sql`SELECT 1 / 0 AS boom, ${email}::text AS email`)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toContain(email);
    t.services.log.error({ err }, 'a query failed');
    t.services.log.warn({ err: String(err) }, 'a query failed');
    const logged = lines.slice(from).filter((l) => l.msg === 'a query failed');
    expect(logged).toHaveLength(2);
    for (const line of logged) {
      expect(line.raw).not.toContain(email);
      expect(line.raw).toContain('params: [redacted]');
    }
  });
});

describe('URL redaction', () => {
  it.each([
    ['/api/history?page=2&asset=BTC', '/api/history?page=2&asset=BTC'],
    ['/Verify-Email?x=1', '/Verify-Email?[redacted]'],
    ['/freeze?token=abc&lang=en', '/freeze?token=[redacted]&lang=en'],
    ['/x?%74oken=abc', '/x?%74oken=[redacted]'],
    ['/x?password', '/x?password'],
    ['/x?two_factor_code=1&secret_key=2', '/x?two_factor_code=[redacted]&secret_key=[redacted]'],
  ])('shows %s as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
