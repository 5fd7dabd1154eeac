import { expect, test } from '@playwright/test';
import { expectAccessible, freshCode, ownAddress, PASSWORD, uniqueEmail } from './support/app';
import {
  confirmEmail,
  confirmSetup,
  createCustomer,
  emailField,
  expectDashboard,
  expectTwoFactorPrompt,
  passwordField,
  phraseWordFields,
  readSetupScreen,
  signIn,
  signInNewAdminAccount,
  signOutFromMenu,
  signOutFromTopBar,
  signUp,
  submitSignIn,
  toasts,
  typePhraseWords,
  verifyWithBackupCode,
  verifyWithCode,
  wrongCode,
} from './support/flows';
import { snap } from './support/shots';

// A second authenticator sign-in has to wait for the next 30-second code.
test.setTimeout(120_000);

test('a new customer signs up, confirms the e-mail, sets up 2FA and signs in with a code and a backup code', async ({
  page,
}) => {
  const email = uniqueEmail('signup');
  // From an address of its own, as a new customer comes (see ownAddress).
  await ownAddress(page.context());

  // Sign up.
  await page.goto('/auth?mode=signup');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'auth-sign-up');
  await emailField(page).fill(email);
  // Well-formed but common, then too short: refused with the reason (product.md S9).
  await passwordField(page).fill('Password1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(
    page.getByRole('alert').filter({
      hasText: 'This is a commonly used password. Add more words that are less common.',
    }),
  ).toBeVisible();
  // Only the password is marked: the e-mail was fine.
  await expect(passwordField(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(emailField(page)).not.toHaveAttribute('aria-invalid', 'true');
  await passwordField(page).fill('Abc123');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Password must be at least 8 characters long.' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
  await passwordField(page).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created!', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await expect(page).not.toHaveURL(/mode=signup/);
  await expect(passwordField(page)).toHaveValue('');
  await expect(page.getByRole('status').filter({ hasText: email })).toBeVisible();

  // Tab goes from the e-mail to the password, then on to "Forgot password?".
  await emailField(page).focus();
  await page.keyboard.press('Tab');
  await expect(passwordField(page)).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeFocused();

  // Not before the address is confirmed: said once, above the button, and in no toast.
  await passwordField(page).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Please verify your email address before signing in.' }),
  ).toBeVisible();
  await expect(page.getByText('Please verify your email address before signing in.')).toHaveCount(
    1,
  );
  await expect(toasts(page)).not.toContainText('Authentication Error');
  await expect(page.getByRole('button', { name: 'Send a new link' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
  await expectAccessible(page);
  await snap(page, 'auth-sign-in-unverified');

  // A made-up link is refused.
  await page.goto('/verify-email?token=not-a-real-token');
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail not confirmed' })).toBeVisible();
  await expect(page.getByText('This verification link is invalid or has expired.')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'verify-email-invalid');

  // The link from the outbox confirms it, then heads for the dashboard: sign-in first.
  await confirmEmail(page, email);
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/, { timeout: 4_000 });

  // First sign-in: the forced 2FA setup, nothing else.
  await submitSignIn(page, email);
  const setup = await readSetupScreen(page);
  expect(new Set(setup.backupCodes).size).toBe(10);
  await expect(page.getByRole('button', { name: 'Sign out instead' })).toBeVisible();
  // On a desktop there is a QR code to scan, and no link into an app.
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open in authenticator app' })).toBeHidden();
  await expectAccessible(page);
  await snap(page, 'two-factor-setup');

  // A reload shows the very same setup: the authenticator that scanned the first QR code
  // still fits, and the phrase is still there to be written down.
  await page.reload();
  expect(await readSetupScreen(page)).toEqual(setup);

  await page.getByRole('button', { name: 'Continue' }).click();
  const wordFields = phraseWordFields(page);
  await expect(wordFields).toHaveCount(3);
  await expect(wordFields.first()).toBeFocused();
  const codeField = page.getByLabel('Enter the 6-digit code from your authenticator app');

  // Wrong words are refused, naming their positions; nothing is turned on.
  const positions = await typePhraseWords(page, setup.phrase);
  const [first, , third] = positions;
  if (first === undefined || third === undefined) throw new Error('no positions asked');
  const notThe = (position: number) => (setup.phrase[position - 1] === 'zoo' ? 'zone' : 'zoo');
  await wordFields.nth(0).fill(notThe(first));
  await wordFields.nth(2).fill(notThe(third));
  await codeField.fill(await freshCode(setup.secret));
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(
    page.getByRole('alert').filter({
      hasText: `Words ${first} and ${third} do not match your recovery phrase.`,
    }),
  ).toBeVisible();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'two-factor-setup-words-wrong');

  // The positions stay the same across a reload too.
  await page.reload();
  expect(await readSetupScreen(page)).toEqual(setup);
  await page.getByRole('button', { name: 'Continue' }).click();
  expect(await typePhraseWords(page, setup.phrase)).toEqual(positions);

  await codeField.fill(wrongCode(setup.secret));
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid code. Please try again.' }),
  ).toBeVisible();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'two-factor-setup-confirm');

  // A code from the secret shown before the reloads turns it on.
  const setupCode = await freshCode(setup.secret);
  await codeField.fill(setupCode);
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  // The account's first session: a welcome, not a welcome back.
  await expectDashboard(page, 'Welcome');
  await expect(page.getByRole('banner')).toContainText(email);
  await expectAccessible(page);
  await snap(page, 'dashboard');

  // Top-bar logout goes home.
  await signOutFromTopBar(page);

  // Signing in again asks for a code; the one used for the setup is not accepted twice.
  await signIn(page, email);
  await expectTwoFactorPrompt(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toHaveCount(0);
  await expectAccessible(page);
  await snap(page, 'two-factor-verify');
  // A wrong code is told once, under the field, and in no toast.
  await page.getByLabel('Authentication code').fill(wrongCode(setup.secret));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid code' })).toHaveCount(1);
  await expect(page.getByLabel('Authentication code')).toHaveAttribute('aria-invalid', 'true');
  await expect(toasts(page)).not.toContainText('Verification Failed');
  const signInCode = await verifyWithCode(page, setup.secret, setupCode);
  expect(signInCode).not.toBe(setupCode);
  // Every later session is welcomed back.
  await expectDashboard(page, 'Welcome back');

  // Menu logout goes to the sign-in page.
  await signOutFromMenu(page);

  // A backup code instead of the authenticator.
  await submitSignIn(page, email);
  await expectTwoFactorPrompt(page);
  await page.getByRole('button', { name: 'Use a backup code instead' }).click();
  await expect(page.getByLabel('Backup code')).toBeFocused();
  await expectAccessible(page);
  await snap(page, 'two-factor-verify-backup-code');
  const [backupCode] = setup.backupCodes;
  if (!backupCode) throw new Error('no backup code was shown');
  await page.getByLabel('Backup code').fill(backupCode);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expectDashboard(page);

  // The same backup code works once only.
  await signOutFromMenu(page);
  await submitSignIn(page, email);
  await verifyWithBackupCode(page, backupCode);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid backup code. Please try again.' }),
  ).toBeVisible();
  await expectTwoFactorPrompt(page);
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toHaveCount(0);
});

test('on a phone the setup links straight into the authenticator app, and a cancelled setup is replaced', async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  try {
    await ownAddress(context);
    const email = uniqueEmail('phone');
    await signUp(page, email);
    await confirmEmail(page, email);
    await signIn(page, email);
    const setup = await readSetupScreen(page);

    // The link carries the same otpauth:// URI as the QR code: this account, this key.
    const link = page.getByRole('link', { name: 'Open in authenticator app' });
    await expect(link).toBeVisible();
    const uri = new URL((await link.getAttribute('href')) ?? '');
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(setup.secret);
    expect(uri.searchParams.get('issuer')).toBe('Coffer');
    expect(decodeURIComponent(uri.pathname)).toContain(email);
    await expectAccessible(page);
    await snap(page, 'two-factor-setup-phone', ['mobile']);

    // Cancelled (asked once more), the setup is gone; a new one has a new key and phrase.
    await page.getByRole('button', { name: 'Cancel setup' }).click();
    await snap(page, 'two-factor-setup-cancel', ['mobile']);
    await page.getByRole('button', { name: 'Yes, cancel setup' }).click();
    await expect(page.getByText('Setup cancelled.')).toBeVisible();
    await page.getByRole('button', { name: 'Start a new setup' }).click();
    const next = await readSetupScreen(page);
    expect(next.secret).not.toBe(setup.secret);
    expect(next.phrase).not.toEqual(setup.phrase);
    expect(next.backupCodes).not.toEqual(setup.backupCodes);
    await page.getByRole('button', { name: 'Continue' }).click();
    await confirmSetup(page, next);
  } finally {
    await context.close();
  }
});

test('a customer whose 2FA is not required sets it up again from Settings: closing keeps the setup, cancelling discards it', async ({
  page,
  browser,
}) => {
  const account = await createCustomer(page, 'waived');
  const { session } = await (await page.request.get('/api/session')).json();
  // An admin stops requiring 2FA for them.
  const adminContext = await browser.newContext();
  try {
    const admin = await adminContext.newPage();
    const staff = await signInNewAdminAccount(admin, 'waiver');
    const origin = new URL(test.info().project.use.baseURL ?? '').origin;
    const res = await admin.request.post(
      `/api/admin/users/${session.user.id}/two-factor/required`,
      {
        data: {
          required: false,
          reason: 'Customer asked to set it up later',
          stepUp: { code: staff.backupCodes[0] },
        },
        headers: { origin },
      },
    );
    expect(res.ok()).toBe(true);
  } finally {
    await adminContext.close();
  }

  // They turn it off in Settings, with a code.
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.getByRole('button', { name: 'Disable', exact: true }).click();
  const off = page.getByRole('dialog', { name: 'Disable two-factor authentication' });
  await off
    .getByLabel('Authentication code')
    .fill(await freshCode(account.secret, account.lastCode));
  await off.getByRole('button', { name: 'Disable 2FA' }).click();
  await expect(off).toBeHidden();

  const enableButton = page.getByRole('button', { name: 'Enable', exact: true });
  const dialog = page.getByRole('dialog', { name: 'Enable two-factor authentication' });
  const keyIn = async () =>
    ((await dialog.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/).textContent()) ?? '').replace(
      /\s+/g,
      '',
    );

  await enableButton.click();
  const key = await keyIn();
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  // Their phrase is the one they have: none new is shown, and none is asked back.
  await expect(dialog.getByText('You already have a recovery phrase')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'settings-two-factor-setup');

  // Closed and opened again, or the page reloaded: the same setup.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.reload();
  await enableButton.click();
  expect(await keyIn()).toBe(key);

  // Cancelled: the dialog closes, and the next setup is a new one.
  await dialog.getByRole('button', { name: 'Cancel setup' }).click();
  await expect(dialog.getByText('Cancel this setup?')).toBeVisible();
  await snap(page, 'settings-two-factor-setup-cancel');
  await dialog.getByRole('button', { name: 'Yes, cancel setup' }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(page)).toContainText('Setup cancelled');
  await enableButton.click();
  const newKey = await keyIn();
  expect(newKey).not.toBe(key);

  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(phraseWordFields(page)).toHaveCount(0);
  const code = dialog.getByLabel('Enter the 6-digit code from your authenticator app');
  await expect(code).toBeFocused();
  await expectAccessible(page);
  await snap(page, 'settings-two-factor-setup-confirm');
  await code.fill(await freshCode(newKey));
  await dialog.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(page)).toContainText('2FA Enabled');
  await expect(page.getByRole('button', { name: 'Disable', exact: true })).toBeVisible();
});
