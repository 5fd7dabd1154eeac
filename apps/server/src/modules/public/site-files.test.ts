import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  withoutChange,
} from '@server-test/helpers';
import { putSettings, saveSettings } from '@server-test/settings-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityTxt } from './site-files';

let t: TestApp;
let admin: SignedInUser;
/** A second staff member: every setting but a money stop is approved by another. */
let approver: SignedInUser;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://wallet.example.org' });
  admin = await verifiedAdmin(t);
  approver = await verifiedAdmin(t);
});
afterAll(async () => {
  await t.close();
});

/** The `Name: value` fields of a line-based file, in order. */
function fields(text: string): [string, string][] {
  return text
    .split('\n')
    .filter((line) => line.includes(': '))
    .map((line) => {
      const at = line.indexOf(': ');
      return [line.slice(0, at), line.slice(at + 2)];
    });
}

describe('robots.txt', () => {
  it('lets crawlers read the public pages, keeps them out of the app and the API, and names the sitemap', async () => {
    const res = await call(t, { url: '/robots.txt', origin: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = fields(res.body);
    expect(lines[0]).toEqual(['User-agent', '*']);
    expect(lines).toContainEqual(['Allow', '/']);
    const disallowed = lines.filter(([name]) => name === 'Disallow').map(([, path]) => path);
    for (const path of ['/dashboard', '/admin', '/api/', '/kyc', '/reset-password', '/freeze'])
      expect(disallowed, path).toContain(path);
    for (const path of ['/', '/about', '/auth', '/welcome'])
      expect(disallowed.some((prefix) => path.startsWith(prefix))).toBe(false);
    expect(lines.at(-1)).toEqual(['Sitemap', 'https://wallet.example.org/sitemap.xml']);
  });
});

describe('sitemap.xml', () => {
  it('lists the public pages with absolute addresses from PUBLIC_URL', async () => {
    const res = await call(t, { url: '/sitemap.xml', origin: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(res.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      'https://wallet.example.org/',
      'https://wallet.example.org/about',
      'https://wallet.example.org/welcome',
      'https://wallet.example.org/auth',
    ]);
  });
});

describe('/.well-known/security.txt', () => {
  it('is not there while no security contact is set', async () => {
    const res = await call(t, { url: '/.well-known/security.txt', origin: null });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).error).toBe('NOT_FOUND');
  });

  it('names the contact an admin set, expires within a year and says where it lives', async () => {
    await saveSettings(t, admin, approver, { security_contact: 'security@wallet.example.org' });
    const res = await call(t, { url: '/.well-known/security.txt', origin: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = new Map(fields(res.body));
    expect(lines.get('Contact')).toBe('mailto:security@wallet.example.org');
    expect(lines.get('Canonical')).toBe('https://wallet.example.org/.well-known/security.txt');
    const expires = Date.parse(lines.get('Expires') ?? '');
    const days = (expires - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(300);
    expect(days).toBeLessThan(365);

    // A web page as the contact is given as it is.
    await saveSettings(t, admin, approver, {
      security_contact: 'https://wallet.example.org/security',
    });
    const page = await call(t, { url: '/.well-known/security.txt', origin: null });
    expect(new Map(fields(page.body)).get('Contact')).toBe('https://wallet.example.org/security');
  });

  it('works out Expires when asked, a whole day under a year ahead', () => {
    const text = securityTxt(
      'a@b.example',
      'https://wallet.example.org/',
      new Date('2026-03-01T15:30:00Z'),
    );
    expect(new Map(fields(text)).get('Expires')).toBe('2027-02-28T00:00:00Z');
    expect(new Map(fields(text)).get('Canonical')).toBe(
      'https://wallet.example.org/.well-known/security.txt',
    );
  });

  it.each([
    ['a line break that would add a field', 'a@b.example\nContact: mailto:evil@x.example'],
    ['a plain-http page', 'http://wallet.example.org/security'],
    ['words', 'write to the CEO'],
  ])('refuses a contact with %s and changes nothing', async (_what, value) => {
    const res = await withoutChange(t, () => putSettings(t, admin, { security_contact: value }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toMatch(
      /^Security contact must be|contains a character that is not allowed/,
    );
  });
});
