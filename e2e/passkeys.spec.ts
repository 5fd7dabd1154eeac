import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, mailTo, uniqueTxHash } from './support/app';
import {
  confirmStepUp,
  createCustomer,
  expectDashboard,
  expectTwoFactorPrompt,
  sidebar,
  signIn,
  signOutFromMenu,
  stepUpDialog,
  toasts,
} from './support/flows';

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/**
 * Chromium's own virtual authenticator stands in for the device's screen lock; the app
 * is on http://localhost, a secure context, and its relying party is "localhost".
 */
async function virtualAuthenticator(context: BrowserContext, page: Page) {
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
  return { cdp, authenticatorId };
}

test('a customer adds a passkey in Settings and signs in with it', async ({ page, context }) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(context, page);

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

test('a withdrawal is confirmed with the passkey; removing the passkey asks for a fresh factor too', async ({
  page,
  context,
}) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(context, page);
  const account = await createCustomer(page, 'passkey-step-up');
  creditDeposit(account.email, 'BTC', '0.5', uniqueTxHash());
  await page.goto('/dashboard/settings');
  await page.getByLabel('Passkey name').fill('Work laptop');
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(toasts(page).getByText('Passkey added', { exact: true })).toBeVisible();
  const list = page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');
  await expect(list).toContainText('Never used');

  // The withdrawal asks for the second factor; the passkey gives it.
  await page.goto('/dashboard/withdraw');
  await page.getByLabel('Cryptocurrency').selectOption({ label: 'BTC - Bitcoin' });
  await page.getByLabel('Amount', { exact: true }).fill('0.1');
  await page.getByLabel('Destination address').fill(BTC_ADDRESS);
  await page.getByRole('button', { name: 'Submit Withdrawal Request' }).click();
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  const dialog = stepUpDialog(page);
  await expect(dialog.getByRole('heading', { name: 'Confirm your withdrawal' })).toBeVisible();
  await expect(dialog).toContainText(`0.1 BTC to ${BTC_ADDRESS}`);
  const signCount = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]?.signCount;
  const signedBefore = await signCount();
  await dialog.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(page).getByText('Withdrawal request submitted successfully')).toBeVisible();
  await expectDashboard(page);
  // The authenticator really signed, and no code was typed.
  expect(await signCount()).toBeGreaterThan(signedBefore ?? 0);

  // Held: the balance is whole, 0.1 BTC and the 0.0001 BTC fee on hold; pending in the history.
  const bitcoin = page.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ });
  await expect(bitcoin).toContainText('0.50000000 BTC');
  await expect(bitcoin).toContainText('0.10010000 on hold');
  await page.goto('/dashboard/history');
  const withdrawal = page.getByRole('article', { name: /^Withdrawal, / });
  await expect(withdrawal).toHaveCount(1);
  await expect(withdrawal.getByText('pending', { exact: true })).toBeVisible();
  await expect(withdrawal).toContainText('−0.10000000 BTC');
  await expect(withdrawal).toContainText(new RegExp(`To:\\s*${BTC_ADDRESS}`));

  // Removing the passkey asks too; Cancel keeps it.
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(list).toContainText('Last used');
  await page.getByRole('button', { name: 'Remove Work laptop' }).click();
  await expect(dialog.getByRole('heading', { name: 'Remove "Work laptop"?' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(list).toHaveCount(1);
  await expect(list).toContainText('Work laptop');

  // Confirmed with a backup code, it is gone, also after a reload.
  await page.getByRole('button', { name: 'Remove Work laptop' }).click();
  await confirmStepUp(page, account, { title: 'Remove "Work laptop"?' });
  await expect(toasts(page).getByText('Passkey removed', { exact: true })).toBeVisible();
  await expect(page.getByText('No passkey yet.')).toBeVisible();
  await page.reload();
  await expect(page.getByText('No passkey yet.')).toBeVisible();
  await expect(list).toHaveCount(0);
});
