import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './support/app';
import { createCustomer, sidebar, signInNewAdmin } from './support/flows';
import { snap } from './support/shots';

function entries(page: Page) {
  return page.getByRole('list', { name: 'Security activity' }).getByRole('listitem');
}

test('a customer sees their sign-ins and refused attempts in Settings; staff see the same for that customer', async ({
  page,
  browser,
}) => {
  const account = await createCustomer(page, 'activity');

  // Someone tries the account with a wrong password from elsewhere.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  const refused = await strangerPage.request.post('/api/auth/sign-in', {
    data: { email: account.email, password: 'Not-the-password-9' },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(401);
  await stranger.close();

  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  const card = page.getByRole('heading', { name: 'Security activity' });
  await card.scrollIntoViewIfNeeded();

  // Newest first: the refused attempt on top; below it (with the 2FA set-up between) the
  // sign-in of this browser.
  await expect(entries(page).first()).toContainText('Sign-in refused: wrong password');
  const signIn = entries(page).filter({ hasText: 'Signed in' });
  await expect(signIn).toHaveCount(1);
  await expect(entries(page).last()).toContainText('Signed in');
  await expect(signIn).toContainText('Chrome on Linux');
  // The factor it was made with: this account had no second factor yet.
  await expect(signIn).toContainText('Password');
  // The address the proxy in front reported for this browser (see ownAddress).
  await expect(signIn).toContainText(`Address${account.address}`);
  // The time is shown in the browser's own format, to the minute.
  const at = await signIn.locator('time').getAttribute('datetime');
  expect(Math.abs(Date.parse(at ?? '') - Date.now())).toBeLessThan(5 * 60_000);
  await expectAccessible(page);
  await snap(page, 'settings-security-activity');

  // Staff open the same customer's activity from the users screen.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInNewAdmin(admin, 'activity-admin');
  await admin.goto('/dashboard/admin/users');
  await admin.getByRole('searchbox', { name: 'Search users' }).fill(account.email);
  const row = admin.getByRole('row').filter({ hasText: account.email });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Actions for ${account.email}` }).click();
  await admin.getByRole('menuitem', { name: 'Security activity' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Security activity' });
  await expect(dialog).toBeVisible();
  await expect(entries(admin).first()).toContainText('Sign-in refused: wrong password');
  await expect(entries(admin).filter({ hasText: 'Signed in' })).toHaveCount(1);
  await expect(entries(admin).filter({ hasText: 'Signed in' })).toContainText('Password');
  await expect(dialog).toContainText('recorded in the audit log');
  await expectAccessible(admin);
  await snap(admin, 'admin-user-security-activity');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await adminContext.close();
});
