import { type ConsoleMessage, expect, type Page, test } from '@playwright/test';
import { PASSWORD, uniqueEmail } from './support/app';
import { emailField, passwordField } from './support/flows';
import { snap } from './support/shots';

/** The public pages, each with its heading and a sentence of its content. */
const PAGES = [
  {
    path: '/',
    heading: 'Next-generation crypto management',
    text: 'Keep Bitcoin, Ethereum and Tether in one wallet',
  },
  {
    path: '/about',
    heading: 'A crypto wallet run the way a careful custodian should run it',
    text: 'ETH you hold with Coffer earns staking rewards on its own.',
  },
  { path: '/welcome', heading: 'Welcome to Coffer', text: 'New to Coffer?' },
  { path: '/auth', heading: 'Sign In', text: 'Welcome back. Sign in to your Coffer wallet.' },
  { path: '/reset-password', heading: 'Reset Password', text: 'Recovery phrase' },
] as const;

/** Errors the page reports: console errors (React's hydration mismatches among them) and uncaught exceptions. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** React has taken over the page's main heading (its markup came prerendered). */
async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const h1 = document.querySelector('h1');
    return h1 !== null && Object.keys(h1).some((key) => key.startsWith('__reactFiber'));
  });
}

test.describe('prerendered public pages', () => {
  test('each public page arrives with its content: a plain GET, no script run', async ({
    request,
  }) => {
    for (const { path, heading, text } of PAGES) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      const html = await res.text();
      expect(html, path).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      expect(html, path).toContain(text);
    }
    const missing = await request.get('/no-such-page');
    expect(missing.status()).toBe(404);
    const html = await missing.text();
    expect(html).toMatch(/<h1[^>]*>Page Not Found<\/h1>/);
    expect(html).toContain('/no-such-page');
  });

  test('with JavaScript off a visitor still reads every public page', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const { path, heading, text } of PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(heading);
      await expect(page.getByText(text).first(), path).toBeVisible();
    }
    await context.close();
  });

  test('each page hydrates without an error and its theme switch works', async ({ page }) => {
    const errors = collectErrors(page);
    for (const { path, heading } of PAGES) {
      await page.goto(path);
      await hydrated(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await snap(page, `prerendered-${path === '/' ? 'home' : path.slice(1)}`);
      // Where the page has a theme switch, it works: React has the page.
      const toggle = page.getByRole('button', { name: /Switch to (dark|light) theme/ });
      if ((await toggle.count()) > 0) {
        const wasDark = await page.evaluate(() =>
          document.documentElement.classList.contains('dark'),
        );
        await toggle.first().click();
        await expect
          .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')))
          .toBe(!wasDark);
        await toggle.first().click();
      }
    }
    expect(errors).toEqual([]);
  });

  test('the not-found page hydrates with the address asked for', async ({ page }) => {
    const errors = collectErrors(page);
    const res = await page.goto('/no-such-page/here');
    expect(res?.status()).toBe(404);
    await hydrated(page);
    await expect(page.getByText('/no-such-page/here')).toBeVisible();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Next-generation crypto management',
    );
    // The browser reports the 404 of the page itself; nothing else may go wrong.
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });

  test('the window title follows the visitor from a prerendered page on', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    await expect(page).toHaveTitle('Coffer: next-generation crypto management');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'About Us' })
      .click();
    await expect(page).toHaveTitle('About Us · Coffer');
    await page.getByRole('link', { name: 'Get Started Now' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign In');
    await expect(page).toHaveTitle('Coffer');
  });

  test('in the dark theme the prerendered page is dark from the first paint', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('coffer-theme', 'dark'));
    await page.goto('/about', { waitUntil: 'domcontentloaded' });
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    );
    await hydrated(page);
    await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  });

  test('the sign-in form works once the page is hydrated', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/auth');
    await emailField(page).fill(uniqueEmail('prerender'));
    await passwordField(page).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid email or password.');
    // Sent by the app, not by the browser: nothing typed ends up in the address.
    expect(page.url()).not.toContain('password');
    expect(new URL(page.url()).search).toBe('');
    await snap(page, 'prerendered-auth-refused');
    // The refusal is what the browser logged (the 401 and the app's note of it).
    expect(errors.every((e) => e.includes('401') || e.includes('Invalid email or password'))).toBe(
      true,
    );
  });
});
