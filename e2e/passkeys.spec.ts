import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, mailTo, uniqueTxHash } from './support/app';
import { query } from './support/db';
import {
  confirmStepUp,
  createCustomer,
  expectDashboard,
  expectTwoFactorPrompt,
  sidebar,
  signIn,
  signInNewAdminAccount,
  signOutFromMenu,
  stepUpDialog,
  toasts,
  verifyWithCode,
} from './support/flows';
import { snap } from './support/shots';

/** What a device without the account's passkey is told where a code can be given instead. */
const NO_PASSKEY_CODE_INSTEAD =
  'No passkey for this account was found on this device, or the prompt was closed. Enter the 6-digit code from your authenticator app instead.';

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

/** Adds a passkey named `name` in Settings, on the page's virtual authenticator. */
async function addPasskey(page: Page, name: string) {
  await page.goto('/dashboard/settings');
  await page.getByLabel('Passkey name').fill(name);
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(toasts(page).getByText('Passkey added', { exact: true })).toBeVisible();
}

test('renaming a passkey asks for a fresh factor, and the log and the owner are told', async ({
  page,
  context,
}) => {
  await virtualAuthenticator(context, page);
  const account = await createCustomer(page, 'passkey-rename');
  await addPasskey(page, 'Work laptop');
  const list = page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');

  await page.getByRole('button', { name: 'Rename Work laptop' }).click();
  await page
    .getByRole('dialog', { name: 'Rename passkey' })
    .getByLabel('Passkey name')
    .fill('Home laptop');
  await page.getByRole('button', { name: 'Continue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename "Work laptop"?' });
  await expect(dialog).toContainText('It will be named "Home laptop".');
  await expect(dialog.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'passkey-rename-step-up');
  // Cancel goes back to the name, nothing renamed.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog', { name: 'Rename passkey' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await confirmStepUp(page, account, { title: 'Rename "Work laptop"?' });
  await expect(toasts(page).getByText('Passkey renamed', { exact: true })).toBeVisible();
  await expect(list).toHaveCount(1);
  await expect(list).toContainText('Home laptop');

  await page.reload();
  const activity = page.getByRole('list', { name: 'Security activity' }).getByRole('listitem');
  await expect(activity.first()).toContainText('Passkey renamed');
  await expect(activity.first()).toContainText('"Work laptop" → "Home laptop"');
  expect(await mailTo(account.email)).toContain(
    'Subject: A passkey was renamed on your Coffer account',
  );
});

test('a device without the account’s passkey is told so, and the code is offered right there', async ({
  page,
  context,
}) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(context, page);
  const account = await createCustomer(page, 'passkey-elsewhere');
  await addPasskey(page, 'Work laptop');
  // The passkey lives on another device: this browser's authenticator holds none.
  await cdp.send('WebAuthn.clearCredentials', { authenticatorId });

  await signOutFromMenu(page);
  await signIn(page, account.email);
  await expectTwoFactorPrompt(page);
  await page.getByRole('button', { name: 'Use a backup code instead' }).click();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await expect(code).toBeFocused();
  await expect(page.getByText(NO_PASSKEY_CODE_INSTEAD)).toBeVisible();
  await expect(page.getByText('The passkey prompt was closed')).toHaveCount(0);
  await expectAccessible(page);
  await snap(page, 'passkey-none-on-device-sign-in');
  account.lastCode = await verifyWithCode(page, account.secret, account.lastCode);
  await expectDashboard(page);

  // The sign-in is in the log with the factor that passed it.
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  const activity = page.getByRole('list', { name: 'Security activity' }).getByRole('listitem');
  await expect(
    activity
      .filter({ hasText: 'Signed in' })
      .filter({ hasText: 'Password and authenticator code' }),
  ).toHaveCount(1);

  // The step-up says the same, under its code field.
  await page.getByRole('button', { name: 'Remove Work laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove "Work laptop"?' });
  await dialog.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(dialog.getByText(NO_PASSKEY_CODE_INSTEAD)).toBeVisible();
  await expect(dialog.getByLabel('Authentication code')).toBeFocused();
  await snap(page, 'passkey-none-on-device-step-up');
  await confirmStepUp(page, account, { title: 'Remove "Work laptop"?' });
  await expect(page.getByText('No passkey yet.')).toBeVisible();
});

test('an admin held to passkeys confirms with the passkey alone: no code field', async ({
  page,
  context,
}) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(context, page);
  const admin = await signInNewAdminAccount(page, 'passkey-only-admin');
  await addPasskey(page, 'Office key');
  // Asked where the sign-in screen asks, which answers before the second factor too.
  const passkeyOnly = async () =>
    (await (await page.request.get('/api/passkeys/sign-in')).json()).passkeyOnly as boolean;
  await query(
    `WITH changed AS (
       UPDATE app_settings SET setting_value = $1 WHERE setting_key = 'admins_require_passkey'
       RETURNING setting_key)
     SELECT pg_notify('coffer_settings', '') FROM changed`,
    ['true'],
  );
  try {
    await expect.poll(passkeyOnly).toBe(true);
    await page.reload();
    await page.getByRole('button', { name: 'Rename Office key' }).click();
    await page
      .getByRole('dialog', { name: 'Rename passkey' })
      .getByLabel('Passkey name')
      .fill('Desk key');
    await page.getByRole('button', { name: 'Continue' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename "Office key"?' });
    await expect(dialog).toContainText('Admins confirm with a passkey on this installation');
    await expect(dialog.getByLabel('Authentication code')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Rename passkey' })).toHaveCount(0);
    await expectAccessible(page);
    await snap(page, 'passkey-only-admin-step-up');
    await dialog.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(dialog).toBeHidden();
    await expect(toasts(page).getByText('Passkey renamed', { exact: true })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Passkeys' })).toContainText('Desk key');

    // Signing in on a device without the passkey: no code to fall back on, so the admin is
    // sent to the device that holds it, never to a code field that would be refused.
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await context.clearCookies();
    await signIn(page, admin.email);
    await expectTwoFactorPrompt(page);
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(
      toasts(page).getByText(
        'No passkey for this account was found on this device, or the prompt was closed. Use the device or security key that holds your passkey.',
      ),
    ).toBeVisible();
    await expect(page.getByText(NO_PASSKEY_CODE_INSTEAD)).toHaveCount(0);
  } finally {
    await query(
      `WITH changed AS (
         UPDATE app_settings SET setting_value = $1 WHERE setting_key = 'admins_require_passkey'
         RETURNING setting_key)
       SELECT pg_notify('coffer_settings', '') FROM changed`,
      ['false'],
    );
    await expect.poll(passkeyOnly).toBe(false);
  }
});
