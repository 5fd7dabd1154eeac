import { expect, type Page, test } from '@playwright/test';
import { createAdmin, expectAccessible, uniqueEmail } from './support/app';
import {
  confirmSetup,
  createCustomer,
  expectDashboard,
  readSetupScreen,
  sidebar,
  signIn,
  signOutFromMenu,
  submitSignIn,
  verifyWithBackupCode,
} from './support/flows';
import { snap } from './support/shots';

function adminEntry(page: Page) {
  return sidebar(page).getByRole('link', { name: 'Admin Dashboard' });
}

test('an admin made with the CLI sets up 2FA and opens the admin dashboard', async ({ page }) => {
  const email = uniqueEmail('admin');
  // Without --role, the first staff member of an install holds every role.
  expect(createAdmin(email)).toContain(
    `Admin ${email} created with the roles owner, approver, treasurer, compliance, support, auditor.`,
  );

  // An admin goes through the same forced 2FA setup as everybody.
  await signIn(page, email);
  // Staff never use a recovery phrase: none is shown, and no words are asked back.
  const setup = await readSetupScreen(page, { staff: true });
  await page.getByRole('button', { name: 'Continue' }).click();
  await confirmSetup(page, setup);

  await expect(sidebar(page).getByRole('list', { name: 'Admin' })).toBeVisible();
  await adminEntry(page).click();
  await expect(page).toHaveURL(/\/dashboard\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  const overview = page.getByRole('region', { name: 'Overview' });
  await expect(overview.getByRole('heading', { name: 'Total Users' })).toBeVisible();
  // Customers only (staff are not users of the wallet): none have signed up yet here.
  await expect(overview).toContainText(/Total Users\s*\d[\d,]*Registered customers/);
  await expect(overview).toContainText('Database reachable');
  await expect(adminEntry(page)).toHaveAttribute('aria-current', 'page');
  await expectAccessible(page);
  await snap(page, 'admin-dashboard');

  // The gate: signed out, a protected page sends to sign-in and comes back after it.
  await signOutFromMenu(page);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();

  await page.goto('/dashboard/admin');
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard%2Fadmin$/);
  await submitSignIn(page, email);
  const [backupCode] = setup.backupCodes;
  if (!backupCode) throw new Error('no backup code was shown');
  await verifyWithBackupCode(page, backupCode);
  await expect(page).toHaveURL(/\/dashboard\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
});

test('a customer sees no admin entry and cannot open the admin dashboard', async ({ page }) => {
  await createCustomer(page, 'not-admin');

  await expect(sidebar(page).getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(adminEntry(page)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0);

  await page.goto('/dashboard/admin');
  await expectDashboard(page);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
});
