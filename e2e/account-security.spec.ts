import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, freshCode, mailTo, ownAddress, PASSWORD } from './support/app';
import {
  createCustomer,
  expectDashboard,
  scrollToTop,
  sidebar,
  signIn,
  signOutFromMenu,
  toasts,
  verifyWithBackupCode,
} from './support/flows';
import { snap } from './support/shots';

const NEW_PASSWORD = 'Walnut-Harbor-Lantern-42';

function devices(page: Page) {
  return page.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem');
}

test('a customer signs another device out from the list, then changes the password', async ({
  page,
  browser,
}) => {
  // Waiting for the next authenticator step can take up to 30 s on its own.
  test.setTimeout(120_000);
  const account = await createCustomer(page, 'security');
  const [laptopCode, newSignInCode] = account.backupCodes;
  if (!laptopCode || !newSignInCode) throw new Error('the setup gave too few backup codes');

  // A second device, from another address: signed in and past 2FA.
  const laptop = await browser.newContext();
  await ownAddress(laptop);
  const other = await laptop.newPage();
  await signIn(other, account.email);
  await verifyWithBackupCode(other, laptopCode);
  await expectDashboard(other);
  expect(await mailTo(account.email)).toContain('Subject: New sign-in to your Coffer account');

  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(devices(page)).toHaveCount(2);
  const mine = devices(page).filter({ hasText: 'This device' });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('Chrome on Linux');
  await expect(mine).toContainText('Last seen');
  await expectAccessible(page);
  await page.getByRole('heading', { name: 'Password' }).scrollIntoViewIfNeeded();
  await snap(page, 'settings-security', ['laptop', 'mobile']);
  await scrollToTop(page);

  // "Sign out everywhere else" asks first; cancelling ends nothing.
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  const confirm = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(devices(page)).toHaveCount(2);

  // Sign the other device out from its own row.
  const theirs = devices(page).filter({ hasNotText: 'This device' });
  await theirs.getByRole('button', { name: /^Sign out/ }).click();
  await expect(toasts(page).getByText('Device signed out', { exact: true })).toBeVisible();
  await expect(devices(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();

  // The other device is on the sign-in page by its next step at the latest (its live
  // connection is closed at once, which sends it there by itself), and stays there.
  await expect(other).toHaveURL(/\/auth/);
  await other.goto('/dashboard/history');
  await expect(other).toHaveURL(/\/auth/);
  await expect(other.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await laptop.close();

  // A wrong current password is refused under its field.
  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password', { exact: true }).fill('Not-my-password-1');
  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Authentication code').fill(await freshCode(account.secret));
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Your current password is incorrect.')).toBeVisible();

  // A guessable new password is refused before anything is sent, with the reason.
  await form.getByLabel('Current password', { exact: true }).fill(PASSWORD);
  await form.getByLabel('New password', { exact: true }).fill('Password123');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText(/commonly used password/)).toBeVisible();

  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form
    .getByLabel('Authentication code')
    .fill(await freshCode(account.secret, account.lastCode));
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(toasts(page).getByText('Password changed', { exact: true })).toBeVisible();
  await expect(form.getByLabel('Current password', { exact: true })).toHaveValue('');
  expect(await mailTo(account.email)).toContain('Subject: Your Coffer password was changed');

  // The old password no longer opens the account; the new one does.
  await signOutFromMenu(page);
  await signIn(page, account.email, PASSWORD);
  await expect(page.getByText('Invalid email or password.').first()).toBeVisible();
  await signIn(page, account.email, NEW_PASSWORD);
  await verifyWithBackupCode(page, newSignInCode);
  await expectDashboard(page);
});

test('signing out this device from the list goes to the sign-in page', async ({ page }) => {
  await createCustomer(page, 'security-self');
  await page.goto('/dashboard/settings');
  const mine = devices(page).filter({ hasText: 'This device' });
  await mine.getByRole('button', { name: 'Sign out this device' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await page.goto('/dashboard/settings');
  await expect(page).toHaveURL(/\/auth/);
});
