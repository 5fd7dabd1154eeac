import { expect, test } from '@playwright/test';
import { expectAccessible, freshCode, ownAddress, PASSWORD, uniqueEmail } from './support/app';
import {
  confirmEmail,
  emailField,
  expectDashboard,
  expectTwoFactorPrompt,
  passwordField,
  readSetupScreen,
  signIn,
  signOutFromMenu,
  signOutFromTopBar,
  submitSignIn,
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
  // Well-formed but common, then too short: refused with the reason (DEVIATIONS S9).
  await passwordField(page).fill('Password1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(
    page.getByRole('alert').filter({
      hasText: 'This is a commonly used password. Add more words that are less common.',
    }),
  ).toBeVisible();
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

  // Not before the address is confirmed.
  await passwordField(page).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Please verify your email address before signing in.' }),
  ).toBeVisible();
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
  await expectAccessible(page);
  await snap(page, 'two-factor-setup');

  await page.getByRole('button', { name: 'Continue' }).click();
  const codeField = page.getByLabel('Enter the 6-digit code from your authenticator app');
  await expect(codeField).toBeFocused();
  await codeField.fill(wrongCode(setup.secret));
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid code. Please try again.' }),
  ).toBeVisible();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'two-factor-setup-confirm');

  const setupCode = await freshCode(setup.secret);
  await codeField.fill(setupCode);
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expectDashboard(page);
  await expect(page.getByRole('banner')).toContainText(email);
  await expectAccessible(page);
  await snap(page, 'dashboard');

  // Top-bar logout goes home.
  await signOutFromTopBar(page);

  // Signing in again asks for a code; the one used for the setup is not accepted twice.
  await signIn(page, email);
  await expectTwoFactorPrompt(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toHaveCount(0);
  await expectAccessible(page);
  await snap(page, 'two-factor-verify');
  const signInCode = await verifyWithCode(page, setup.secret, setupCode);
  expect(signInCode).not.toBe(setupCode);
  await expectDashboard(page);

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
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toHaveCount(0);
});
