import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './support/app';
import { createCustomer, expectDashboard } from './support/flows';
import { snap } from './support/shots';

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 720 } },
  { name: 'mobile', viewport: { width: 375, height: 812 } },
] as const;

/** The page is no wider than the window: nothing to scroll sideways on a phone. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}

/** One h1, and the staking rate with its yearly equivalent once the figures have loaded. */
async function expectMarketingPage(page: Page, heading: string) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  await expect(page.getByText(/% daily, about [\d.]+% a year/).first()).toBeVisible();
  await expectNoSidewaysScroll(page);
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`public pages on ${name}`, () => {
    test.use({ viewport });

    test('the landing page links to About Us, Login and Register', async ({ page }) => {
      await page.goto('/');
      await expectMarketingPage(page, 'Next-generation crypto management');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link', { name: 'About Us' })).toHaveAttribute('href', '/about');
      await expect(nav.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/auth');
      await expect(nav.getByRole('link', { name: 'Register' })).toHaveAttribute(
        'href',
        '/auth?mode=signup',
      );
      await expectAccessible(page);
      if (name === 'desktop') await snap(page, 'landing');

      await nav.getByRole('link', { name: 'Register' }).click();
      await expect(page).toHaveURL(/\/auth\?mode=signup$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
      await expectAccessible(page);
      if (name === 'desktop') await snap(page, 'auth-sign-in');
    });

    test('the about page shows the staking rate and its calls to action', async ({ page }) => {
      await page.goto('/about');
      await expectMarketingPage(
        page,
        'A crypto wallet run the way a careful custodian should run it',
      );
      await expect(
        page.getByRole('heading', { level: 2, name: 'Advanced Ethereum Staking' }),
      ).toBeVisible();
      await expect(page.getByRole('link', { name: 'Get Started Now' })).toHaveAttribute(
        'href',
        '/auth',
      );
      await expect(page.getByRole('link', { name: "Explore Coffer's Features" })).toHaveAttribute(
        'href',
        '/',
      );
      await expectAccessible(page);
      if (name === 'desktop') await snap(page, 'about');

      await page.getByRole('link', { name: 'Back to Home' }).click();
      await expect(page).toHaveURL(/\/$/);
    });

    test('the welcome page invites a visitor to join', async ({ page }) => {
      await page.goto('/welcome');
      await expectMarketingPage(page, 'Welcome to Coffer');
      await expect(page.getByRole('link', { name: 'Join Coffer' })).toHaveAttribute(
        'href',
        '/auth?mode=signup',
      );
      await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute(
        'href',
        '/auth',
      );
      await expectAccessible(page);
      if (name === 'desktop') await snap(page, 'welcome');
    });

    test('an unknown address shows Page Not Found with the path', async ({ page }) => {
      await page.goto('/no/such-page');
      await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
      await expect(page.getByRole('term')).toHaveText('Error Code');
      await expect(page.getByRole('definition')).toHaveText('/no/such-page');
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      if (name === 'desktop') await snap(page, 'not-found');

      await page.getByRole('link', { name: 'Return to Home' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Next-generation crypto management' }),
      ).toBeVisible();
    });
  });
}

test('a signed-in customer opening /welcome goes to the dashboard', async ({ page }) => {
  await createCustomer(page, 'welcome');
  await page.goto('/welcome');
  await expectDashboard(page);
});
