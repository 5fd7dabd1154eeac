import { expect, test } from '@playwright/test';
import { expectAccessible, mailTo } from './support/app';
import {
  createCustomer,
  expectDashboard,
  expectTwoFactorPrompt,
  sidebar,
  signIn,
  signOutFromMenu,
  toasts,
} from './support/flows';

test('a customer adds a passkey in Settings and signs in with it', async ({ page, context }) => {
  // Chromium's own virtual authenticator stands in for the device's screen lock; the app
  // is on http://localhost, a secure context, and its relying party is "localhost".
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  const account = await createCustomer(page, 'passkey');
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(page.getByText('No passkey yet.')).toBeVisible();

  // A name is asked for first.
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page.getByText('Give the passkey a name.')).toBeVisible();
  await page.getByLabel('Passkey name').fill('Work laptop');
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(toasts(page).getByText('Passkey added', { exact: true })).toBeVisible();
  const list = page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');
  await expect(list).toHaveCount(1);
  await expect(list).toContainText('Work laptop');
  await expect(list).toContainText('Never used');
  await expectAccessible(page);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(await mailTo(account.email)).toContain(
    'Subject: A passkey was added to your Coffer account',
  );

  await signOutFromMenu(page);
  await signIn(page, account.email);
  await expectTwoFactorPrompt(page);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expectDashboard(page);

  // The list says it was used.
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(list).toContainText('Last used');
});
