import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ownAddress } from './support/app';
import {
  approveThroughApi,
  saveSettingsWithStepUp,
  signInNewAdminAccount,
  toasts,
} from './support/flows';
import { snap } from './support/shots';

// What a browser receives besides the screens: the app's files compressed as the browser
// asks, and the files crawlers and security researchers look for.

/** The build the suite's server serves. */
const DIST = path.resolve(import.meta.dirname, '../apps/web/dist');

test('the landing page arrives compressed with brotli, and shows as before', async ({ page }) => {
  const files: { file: string; encoding: string | undefined }[] = [];
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (url.pathname === '/' || /\.(js|css)$/.test(url.pathname)) {
      const headers = await res.allHeaders();
      // The landing page is prerendered at build time: its own file, not the app's shell.
      const file = url.pathname === '/' ? 'prerendered/home.html' : url.pathname.slice(1);
      files.push({ file, encoding: headers['content-encoding'] });
    }
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'About Us' }).first()).toBeVisible();
  // The app's scripts start after the prerendered page's first paint: all of them counted.
  await page.waitForLoadState('networkidle');
  // The page, its scripts and its stylesheet: each file the build compressed (all but the
  // few under 1 KB) arrives in its brotli copy, the others as they are.
  const compressed = files.filter((f) => fs.existsSync(path.join(DIST, `${f.file}.br`)));
  expect(compressed.length).toBeGreaterThan(5);
  expect(compressed.map((f) => f.file)).toContain('prerendered/home.html');
  expect(compressed.filter((f) => f.encoding !== 'br')).toEqual([]);
  expect(files.filter((f) => !compressed.includes(f) && f.encoding !== undefined)).toEqual([]);
});

test('robots.txt keeps crawlers out of the app and points them at the sitemap of the public pages', async ({
  page,
  baseURL,
}) => {
  const robots = await page.goto('/robots.txt');
  expect(robots?.headers()['content-type']).toBe('text/plain; charset=utf-8');
  const text = (await page.locator('body').innerText()).split('\n');
  expect(text).toContain('Disallow: /dashboard');
  expect(text).toContain('Disallow: /admin');
  expect(text).toContain('Disallow: /api/');
  expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`);

  const sitemap = await page.request.get('/sitemap.xml');
  expect(sitemap.headers()['content-type']).toBe('application/xml; charset=utf-8');
  const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect(locs).toContain(`${baseURL}/`);
  expect(locs).toContain(`${baseURL}/about`);
});

test('an admin names a security contact in App Settings, and security.txt publishes it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  await ownAddress(context);
  const admin = await context.newPage();
  const account = await signInNewAdminAccount(admin, 'security-contact');
  // Every setting but a money stop is proposed: a second staff member approves it.
  const approverContext = await browser.newContext();
  await ownAddress(approverContext);
  const approverPage = await approverContext.newPage();
  const approver = await signInNewAdminAccount(approverPage, 'security-contact-approver');
  await admin.goto('/dashboard/admin/settings');
  const contact = admin.getByLabel('Security contact');
  await expect(contact).toBeVisible();

  // A contact that is neither an e-mail address nor an https:// page is refused on the spot.
  await contact.fill('call the office');
  await expect(
    admin.getByText(
      'Security contact must be an e-mail address or a web address starting with https://, or empty for none.',
    ),
  ).toBeVisible();

  await contact.fill('security@coffer.example');
  await contact.scrollIntoViewIfNeeded();
  await snap(admin, 'admin-settings-security-contact');
  await saveSettingsWithStepUp(admin, account);
  await expect(toasts(admin).getByText('Awaiting approval')).toBeVisible();
  await approveThroughApi(approverPage, approver, account, 'setting');
  await approverContext.close();

  const file = await admin.goto('/.well-known/security.txt');
  expect(file?.status()).toBe(200);
  expect(file?.headers()['content-type']).toBe('text/plain; charset=utf-8');
  const lines = (await admin.locator('body').innerText()).split('\n');
  expect(lines).toContain('Contact: mailto:security@coffer.example');
  const expires = lines.find((line) => line.startsWith('Expires: '))?.slice(9) ?? '';
  expect(Date.parse(expires)).toBeGreaterThan(Date.now() + 300 * 86_400_000);
  await context.close();
});
